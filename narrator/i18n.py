"""Interface text in the player's language, through standard gettext catalogs.

English is the source language: messages are written in English in the code and translated by the
catalogs in ``narrator/locale/<language>/LC_MESSAGES/narrator.po`` (edited with any translators'
tool; ``python dev/catalog.py`` brings them up to date with the code, see the README).

Core code never translates. It describes a message as a ``Text`` (the English message and its
values) and raises errors carrying one; the shell renders them with the catalog of the language in
use, chosen once at start (``use``). Only the shell calls ``_``.

A catalog is compiled once per change into the user's cache folder (``.mo``, what the standard
library reads), so starting a command costs no parsing.
"""

import errno
import gettext
import hashlib
import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SOURCE_LANGUAGE = "en"
DOMAIN = "narrator"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

Catalog = gettext.NullTranslations  # what every function here takes: .gettext and .ngettext
ENGLISH: Catalog = gettext.NullTranslations()


@dataclass(frozen=True)
class Text:
    """A message to show, not yet translated: the English ``message`` and the values it names.

    With ``plural`` and ``count`` it is one of two messages, chosen by the count in each language.
    Values that are themselves ``Text`` (or errors carrying one) are rendered in the same language.
    """

    message: str
    values: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    count: int | None = None

    def render(self, catalog: Catalog) -> str:
        if self.plural is None:
            template = catalog.gettext(self.message)
        else:
            template = catalog.ngettext(self.message, self.plural, self.count)
        values = {name: _rendered(value, catalog) for name, value in self.values.items()}
        return template.format(**values) if values else template  # a plural's values hold its count

    def __str__(self) -> str:
        return self.render(ENGLISH)


def msg(message: str, **values: Any) -> Text:
    """A message for the interface; extracted into the catalogs by its first argument."""
    return Text(message, values)


def plural(singular: str, plural_message: str, count: int, **values: Any) -> Text:
    """One of two messages by ``count`` (available to both as ``{count}``)."""
    return Text(singular, {"count": count, **values}, plural_message, count)


def _rendered(value: Any, catalog: Catalog) -> Any:
    if isinstance(value, Text):
        return value.render(catalog)
    message = getattr(value, "message", None)  # a NarratorError: its own Text
    if isinstance(value, BaseException) and isinstance(message, Text):
        return message.render(catalog)
    return value


def catalog_file(language: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def load_catalog(language: str, cache_dir: Path | None = None, locale_dir: Path = LOCALE_DIR) -> Catalog:
    """The catalog for ``language`` (English and languages without one: the messages as written).

    With ``cache_dir`` the compiled catalog is kept there, named after its source's digest; a cache
    that cannot be written only means compiling again next time.
    """
    source = catalog_file(language, locale_dir)
    if language == SOURCE_LANGUAGE or not source.is_file():
        return ENGLISH
    data = source.read_bytes()
    cached = None
    if cache_dir is not None:
        cached = cache_dir / "catalogs" / f"{language}-{hashlib.sha256(data).hexdigest()[:20]}.mo"
        try:
            return gettext.GNUTranslations(io.BytesIO(cached.read_bytes()))
        except Exception:  # missing, unreadable or damaged: compiled again, never trusted
            pass
    compiled = compile_catalog(data, language)
    if cached is not None:
        _keep(cached, compiled)
    return gettext.GNUTranslations(io.BytesIO(compiled))


def compile_catalog(po_data: bytes, language: str) -> bytes:
    """A ``.po`` catalog compiled to the ``.mo`` form; fuzzy entries are left out, as msgfmt does."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    catalog = read_po(io.BytesIO(po_data), locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    return compiled.getvalue()


def _keep(path: Path, data: bytes) -> None:
    from narrator.files import write_atomically

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, lambda temporary: temporary.write_bytes(data))
    except Exception:  # a full or read-only cache costs time, never the game
        pass


# The shell's language, chosen once when a command starts.
_active: Catalog = ENGLISH
_active_language: str = SOURCE_LANGUAGE


def use(catalog: Catalog, language: str) -> None:
    """Speak ``language`` from now on (the shell calls this once, before any output)."""
    global _active, _active_language
    _active, _active_language = catalog, language


def active_language() -> str:
    return _active_language


def active_catalog() -> Catalog:
    return _active


def _(message: str) -> str:
    """``message`` in the language in use. For the shell only: the core builds ``Text``."""
    return _active.gettext(message)


def ngettext(singular: str, plural_message: str, count: int) -> str:
    return _active.ngettext(singular, plural_message, count)


def say(message: "Text | str | BaseException") -> str:
    """A ``Text``, an error carrying one, or a plain string, in the language in use."""
    return str(_rendered(message, _active))


def N_(message: str) -> str:
    """Marks a message for the catalogs where it is defined; it is translated where shown."""
    return message


# What the system says about a file, in words the catalogs translate (strerror is always English).
_SYSTEM_REASONS = {getattr(errno, name): message for name, message in (
    ("ENOENT", N_("No such file or directory")),
    ("EACCES", N_("Permission denied")),
    ("EPERM", N_("Operation not permitted")),
    ("ENOSPC", N_("No space left on device")),
    ("EDQUOT", N_("Disk quota exceeded")),
    ("EROFS", N_("Read-only file system")),
    ("EISDIR", N_("Is a directory")),
    ("ENOTDIR", N_("Not a directory")),
    ("ENAMETOOLONG", N_("File name too long")),
    ("EEXIST", N_("File exists")),
    ("ELOOP", N_("Too many levels of symbolic links")),
    ("EFBIG", N_("File too large")),
    ("EIO", N_("Input/output error")),
    ("EADDRINUSE", N_("Address already in use")),
    ("EADDRNOTAVAIL", N_("Cannot assign requested address")),
) if hasattr(errno, name)}  # not every system names them all


def os_reason(error: OSError) -> Text:
    """Why the system refused, as a message the catalogs translate where they know it."""
    known = _SYSTEM_REASONS.get(error.errno)
    if known is not None:
        return Text(known)
    return Text("{reason}", {"reason": error.strerror or str(error)})
