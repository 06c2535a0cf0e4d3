from narrator.launch import main

main()
