"""Typed access to parsed data with errors that name the file and the field.

Data files are validated once, when loaded; a mistake in them is reported as
``game.yaml: roles[3].copies: expected a whole number from 1, got 'two'``.
"""

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from narrator.core.errors import DataError
from narrator.core.i18n import Text, msg

_MISSING = object()


@dataclass(frozen=True)
class Field:
    """A value found at ``path`` in the data file ``source``."""

    source: str
    path: str
    value: Any

    @property
    def where(self) -> str:
        return f"{self.source}: {self.path}" if self.path else self.source

    def fail(self, expected: Text) -> DataError:
        return DataError(msg("{where}: expected {expected}, got {value!r}", where=self.where, expected=expected,
                              value=self.value))

    def _child(self, name: str, value: Any) -> "Field":
        return Field(self.source, f"{self.path}.{name}" if self.path else name, value)

    def mapping(self) -> Mapping[Any, Any]:
        if not isinstance(self.value, Mapping):
            raise self.fail(msg("a mapping of names to values"))
        return self.value

    def get(self, key: str, default: Any = _MISSING) -> "Field":
        """The field ``key`` of this mapping; missing keys fail unless a default is given."""
        data = self.mapping()
        if key in data:
            return self._child(key, data[key])
        if default is _MISSING:
            raise DataError(msg("{where}: missing field '{field}'", where=self.where, field=key))
        return self._child(key, default)

    def items(self) -> Iterator[tuple[str, "Field"]]:
        for key, value in self.mapping().items():
            yield str(key), self._child(str(key), value)

    def keys_within(self, allowed: set[str]) -> "Field":
        unknown = sorted(set(map(str, self.mapping())) - allowed)
        if unknown:
            raise DataError(msg("{where}: unknown field '{field}' (known: {known})", where=self.where,
                                 field=unknown[0], known=", ".join(sorted(allowed))))
        return self

    def elements(self) -> Iterator["Field"]:
        if not isinstance(self.value, list):
            raise self.fail(msg("a list"))
        for index, value in enumerate(self.value):
            yield Field(self.source, f"{self.path}[{index}]", value)

    def text(self) -> str:
        if not isinstance(self.value, str) or not self.value.strip():
            raise self.fail(msg("some text"))
        return self.value.strip()

    def integer(self, minimum: int | None = None) -> int:
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int) or (minimum is not None and value < minimum):
            raise self.fail(msg("a whole number") if minimum is None
                            else msg("a whole number from {minimum}", minimum=minimum))
        return value

    def number(self, minimum: float = 0.0) -> float:
        value = self.value
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not minimum <= value < math.inf:
            raise self.fail(msg("a number from {minimum}", minimum=f"{minimum:g}"))
        return float(value)

    def boolean(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.fail(msg("true or false"))
        return self.value

    def choice(self, options: tuple[str, ...]) -> str:
        if self.value not in options:
            raise self.fail(msg("one of {options}", options=", ".join(options)))
        return self.value
