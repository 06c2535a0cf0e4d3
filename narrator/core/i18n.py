"""Messages for the interface, not yet translated: what the core says, in any language.

English is the source language: messages are written in English in the code and translated by the
catalogs in ``narrator/locale/<language>/LC_MESSAGES/narrator.po``.

Core code never translates. It describes a message as a ``Text`` (the English message and its
values) and raises errors carrying one; the shell renders them with the catalog of the language in
use (``narrator.shell.translation``).
"""

import errno
import gettext
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

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
        if self.plural is None or self.count is None:
            template = catalog.gettext(self.message)
        else:
            template = catalog.ngettext(self.message, self.plural, self.count)
        values = {name: rendered(value, catalog) for name, value in self.values.items()}
        return template.format(**values) if values else template  # a plural's values hold its count

    def __str__(self) -> str:
        return self.render(ENGLISH)


def msg(message: str, **values: Any) -> Text:
    """A message for the interface; extracted into the catalogs by its first argument."""
    return Text(message, values)


def plural(singular: str, plural_message: str, count: int, **values: Any) -> Text:
    """One of two messages by ``count`` (available to both as ``{count}``)."""
    return Text(singular, {"count": count, **values}, plural_message, count)


def rendered(value: Any, catalog: Catalog) -> Any:
    if isinstance(value, Text):
        return value.render(catalog)
    message = getattr(value, "message", None)  # a NarratorError: its own Text
    if isinstance(value, BaseException) and isinstance(message, Text):
        return message.render(catalog)
    return value


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
