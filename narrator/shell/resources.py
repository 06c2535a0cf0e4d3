"""Where the data folders shipped with narrator live (voices/, ambience/).

In a built wheel they sit inside the package under ``_data/`` (see pyproject's force-include);
in a source checkout or an editable install they are the folders at the top of the repository.
"""

from pathlib import Path

# The name narrator is installed by (pyproject's [project] name): "narrator" on the package index
# is someone else's project. The import package stays narrator, the command narrate.
DISTRIBUTION = "werewolf-narrator"
_PACKAGE = Path(__file__).resolve().parent.parent  # narrator/


def data_dir(name: str) -> Path:
    """Return the shipped data folder ``name``, wherever this install keeps it."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    from narrator.core.errors import NarratorError
    from narrator.core.i18n import msg
    from narrator.shell.platform.hints import pip_install

    raise NarratorError(msg("narrator's '{folder}' data folder is missing from this install; reinstall it: {command}",
                            folder=name, command=pip_install("--force-reinstall", DISTRIBUTION)))
