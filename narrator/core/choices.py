"""The values the command line offers for a choice, known without loading what acts on them.

``narrate --help`` shows them, so they sit here, apart from the modules that use them (the
script, the views), which a quick command loads only when it runs.
"""

COUNT_STYLES = ("full", "edges", "silent")  # every second counted aloud, the first two and last three, none
FORMATS = ("text", "json", "yaml")  # what the listing commands print: for people, or for programs
SHEETS = ("a4", "a5", "a6", "letter")  # the sizes a speaker card prints on (shell/cardpdf.py has their measures)
