"""Reading YAML files with errors a person can act on: the file, the line, what is wrong."""

from pathlib import Path
from typing import Any

from narrator.errors import DataError


def read_yaml(path: Path) -> Any:
    """Parse the YAML file at ``path`` (safe loader only: no Python objects)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise DataError(f"{path}: is a folder, not a YAML file") from None
    except UnicodeDecodeError:
        raise DataError(f"{path}: not a text file (save it as UTF-8)") from None
    except OSError as error:
        raise DataError(f"{path}: cannot be read ({error.strerror})") from None
    try:
        return yaml.load(text, Loader=loader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f"{path}, line {mark.line + 1}" if mark else str(path)
        problem = error.problem or error.context or "malformed YAML"
        raise DataError(f"{where}: malformed YAML: {problem}") from None
    except yaml.YAMLError as error:
        raise DataError(f"{path}: malformed YAML: {error}") from None
