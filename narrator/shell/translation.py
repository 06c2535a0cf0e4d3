"""Interface text in the player's language, through standard gettext catalogs.

English is the source language (``narrator.core.i18n``); the catalogs in
``narrator/locale/<language>/LC_MESSAGES/narrator.po`` translate it (edited with any translators'
tool; ``python dev/catalog.py`` brings them up to date with the code, see the README). The shell
chooses the language once at start (``use``) and renders every ``Text`` with it; only the shell
calls ``_``.

A catalog is compiled once per change into the user's cache folder (``.mo``, what the standard
library reads), so starting a command costs no parsing.
"""

import gettext
import io
import zlib  # the cache's key: a checksum is enough, and cheaper to import than hashlib
from pathlib import Path

from narrator.core.i18n import ENGLISH, Catalog, Text, rendered

SOURCE_LANGUAGE = "en"
DOMAIN = "narrator"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


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
        cached = cache_dir / "catalogs" / f"{language}-{len(data)}-{zlib.crc32(data):08x}.mo"
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
    from narrator.shell.files import write_atomically

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
    return str(rendered(message, _active))
