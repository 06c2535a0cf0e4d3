"""Reading YAML files with errors a person can act on: the file, the line, what is wrong.

A file read once can be kept parsed (``keep_parsed``: the shell gives a store in the user's cache),
by the checksums of its bytes: the next run reads it back without parsing, or importing PyYAML at
all. Only a file that parsed without error is kept; a changed file has other checksums.
"""

from functools import cache
from pathlib import Path
from typing import Any, Protocol

from narrator.core.errors import DataError
from narrator.core.i18n import msg, os_reason

MAX_BYTES = 1_000_000  # a deck, a votes file or a game's data is a few kilobytes; refuse a runaway file
MAX_DEPTH = 64  # far deeper than any of narrate's files; libyaml's composer crashes the process on thousands
_MISSING = object()


class Store(Protocol):
    """Where parsed files are kept between runs."""

    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, blob: bytes) -> None: ...


_store: Store | None = None


def keep_parsed(store: Store | None) -> Store | None:
    """Keep parsed files in ``store`` from now on (None: parse every time); returns the one before."""
    global _store
    previous, _store = _store, store
    return previous


def read_yaml(path: Path, plain_text_scalars: bool = False) -> Any:
    """Parse the YAML file at ``path`` (safe loader only: no Python objects).

    With ``plain_text_scalars``, unquoted values stay text (``name: yes`` is the name "yes",
    not true), except an empty value or ``null``: for files where every value is a name.
    """
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise DataError(msg("{file}: no such file", file=path)) from None
    except IsADirectoryError:
        raise DataError(msg("{file}: is a folder, not a YAML file", file=path)) from None
    except OSError as error:
        raise DataError(msg("{file}: cannot be read ({reason})", file=path, reason=os_reason(error))) from None
    if len(raw) > MAX_BYTES:
        raise DataError(msg("{file}: larger than {size} kB; this is not a file narrate reads", file=path,
                            size=MAX_BYTES // 1000))
    key = _key(raw, plain_text_scalars) if _store is not None else None
    if key is not None and (kept := _kept(key)) is not _MISSING:
        return kept
    data = _parsed(path, raw, plain_text_scalars)
    if key is not None:
        _keep(key, data)
    return data


def _parsed(path: Path, raw: bytes, plain_text_scalars: bool) -> Any:
    import yaml

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(msg("{file}: not a text file (save it as UTF-8)", file=path)) from None
    try:
        _check_depth(text)
        return yaml.load(text, Loader=_text_loader() if plain_text_scalars else _loader())
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or ""
        if "nesting depth" in problem:  # PyYAML 6.0.4 and later stop deep nesting in their scanner, before us
            raise DataError(msg("{file}: nested more than {depth} levels deep; this is not a file narrate reads",
                                file=path, depth=MAX_DEPTH)) from None
        if mark:
            raise DataError(msg("{file}, line {line}: malformed YAML: {problem}", file=path, line=mark.line + 1,
                                problem=problem)) from None
        raise DataError(msg("{file}: malformed YAML: {problem}", file=path, problem=problem)) from None
    except yaml.YAMLError as error:
        raise DataError(msg("{file}: malformed YAML: {problem}", file=path, problem=error)) from None
    except (RecursionError, _TooDeep):
        raise DataError(msg("{file}: nested more than {depth} levels deep; this is not a file narrate reads",
                            file=path, depth=MAX_DEPTH)) from None
    except ValueError:  # int() refuses a number of thousands of digits
        raise DataError(msg("{file}: holds a number far too long to mean anything here", file=path)) from None


def _key(raw: bytes, plain_text_scalars: bool) -> str:
    """The bytes' length and two checksums (64 bits: an edited file never meets its old key in
    practice); zlib is part of every start already, hashlib would add its OpenSSL load."""
    import zlib

    return f"{len(raw):x}-{zlib.crc32(raw):08x}{zlib.adler32(raw):08x}-{int(plain_text_scalars)}"


def _kept(key: str) -> Any:
    """The data kept for ``key``, or ``_MISSING`` (none, or damaged: parsed again, never trusted)."""
    import marshal

    blob = _store.get(key) if _store is not None else None
    if blob is None:
        return _MISSING
    try:
        return marshal.loads(blob)
    except (EOFError, ValueError, TypeError):
        return _MISSING


def _keep(key: str, data: Any) -> None:
    import marshal

    try:
        blob = marshal.dumps(data)
    except ValueError:  # a date or a set (YAML has them): parsed again each time
        return
    if _store is not None:
        _store.put(key, blob)


class _TooDeep(Exception):
    pass


def _check_depth(text: str) -> None:
    """Walk the parser's events (libyaml parses without recursion) and stop at ``MAX_DEPTH``."""
    import yaml

    depth = 0
    for event in yaml.parse(text, Loader=_loader()):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise _TooDeep
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1


def _loader():
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def _text_loader():
    """The safe loader with every implicit type but null left out: plain values are text."""

    class TextLoader(_loader()):  # type: ignore[misc]  # libyaml's loader where PyYAML has it: known when run
        pass

    TextLoader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag == "tag:yaml.org,2002:null"]
        for first, resolvers in _loader().yaml_implicit_resolvers.items()
    }
    return TextLoader
