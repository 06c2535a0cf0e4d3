from narrator.shell.launch import main

main()
