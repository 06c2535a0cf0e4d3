"""The kinds of entry an ask takes, each defined once: what an answer of that kind is (``check``),
how a game record writes it (``parse``), what the moderator is asked when the game's language has
no question of its own (``question``), and the form the terminal and the phone console show
(``form``).

A form is a description, not a kind known by name elsewhere: plain values made of a few widgets
the terminal and the page draw for any game (``one`` name, ``several`` names, ``each``: one name
per part, ``pick`` one of a few named values, ``fields``: named parts in one of a few shapes; see
``narrator.shell.speakerbox.forms``). Its words are the game's sentences (``words.optional``, the
language's ``vote:`` section) or interface messages (``Text``) the shell translates.

``STOCK`` are the kinds every game may use; a game adds kinds of its own in its ``rules.py``
(``ENTRY_KINDS``: name -> an instance of a ``Kind`` subclass), checked when it loads.
"""

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from narrator.core.i18n import N_, Text, msg, plural

if TYPE_CHECKING:  # the ask is state.py's; it imports this module
    from narrator.core.state import Ask


class Words(Protocol):
    """The game's sentences in the language in play (``narrator.core.vote.Sentences``)."""

    def optional(self, key: str, **values: Any) -> str | None: ...


@dataclass(frozen=True)
class RecordWords:
    """How a game record writes yes and no: ``true``/``on`` and ``false``/``off`` always (YAML's
    own), and each language's ``word_yes``/``word_no`` (``yes``, ``sì``), with or without accents."""

    yes: tuple[str, ...] = ()
    no: tuple[str, ...] = ()

    @classmethod
    def of(cls, languages) -> "RecordWords":
        """The words of every language a game ships (each a ``Language`` with its ``vote:`` section)."""
        return cls(tuple(language.vote["word_yes"] for language in languages),
                   tuple(language.vote["word_no"] for language in languages))

    def flag(self, value: Any) -> bool | None:
        """True or False for a record's yes or no; None when ``value`` is neither."""
        if isinstance(value, bool):
            return value
        text = _plain(str(value))
        if text in ("true", "on", *map(_plain, self.yes)):
            return True
        if text in ("false", "off", *map(_plain, self.no)):
            return False
        return None


def _plain(text: str) -> str:
    """``Sì`` as ``si``: case and accents left out, as a record typed in a hurry may."""
    return "".join(char for char in unicodedata.normalize("NFKD", text.strip().casefold())
                   if not unicodedata.combining(char))


def name_of(value: Any) -> str | None:
    """A name as a record may write it (text or a number), or None when it is no name."""
    if isinstance(value, bool) or not isinstance(value, str | int) or not str(value).strip():
        return None
    return str(value).strip()


def options(values, labels: Mapping[Any, Any] | None = None) -> list[dict]:
    """A form's options: each value with the label shown for it (the value itself when none)."""
    return [{"label": (labels or {}).get(value, value), "value": value} for value in values]


class Kind:
    """One kind of entry. ``check`` is only given an answer (not None, not an empty list or
    mapping: ``Ask.check`` says those); the rest have defaults a kind of names can keep."""

    name: ClassVar[str] = ""
    entered: ClassVar[bool] = True  # False: nothing is entered, the answer is told at once
    names: ClassVar[bool] = False  # its answers are names among the ask's candidates (shown before asking)

    def check(self, ask: "Ask", value: Any) -> Text | None:
        """Why ``value`` is not an answer of this kind to ``ask`` (None when it is one)."""
        raise NotImplementedError

    def parse(self, ask: "Ask", value: Any, words: RecordWords) -> Any:
        """A game record's value (``narrate replay``) in this kind's shape, as far as it can be
        read (``words``: how it writes yes and no): what it cannot read is handed on as it is, for
        ``check`` to say why."""
        return str(value)

    def wanted(self, ask: "Ask") -> Text | None:
        """What an answer to ``ask`` must hold, in words, where it matters ("two names"), or None."""
        return None

    def question(self, ask: "Ask", character: str, copies: int) -> Text | str:
        """What the moderator is asked when the language has no ``ask_KEY``: ``character`` is the
        turn's name (``copies`` cards of it were dealt), or the role that acts by day."""
        return character

    def form(self, ask: "Ask", question: str, words: Words) -> dict:
        """The form the terminal and the console show for ``ask``."""
        raise NotImplementedError


def _player(ask: "Ask", name: Any, chooser: str | None = None) -> Text | None:
    """Why ``name`` (``chooser``'s, when one of several choose) is not one the ask allows, or None."""
    if name in ask.candidates:
        return None
    names = ", ".join(ask.candidates) or "-"
    if chooser is None:
        return msg("'{name}' is not one of {names}", name=name, names=names)
    return msg("{chooser}: '{name}' is not one of {names}", chooser=ask.label(chooser), name=name, names=names)


# Small counts in words, as a moderator reads them in a question ("two names").
NUMBER_WORDS = {2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five"), 6: N_("six")}


def how_many(least: int, most: int | None) -> Text | None:
    """How many names a question of several wants, in words: "two names", "up to three names"
    (None: any number)."""
    if not most:  # any number: only a least worth saying
        return msg("at least {number} names", number=_number(least)) if least > 1 else None
    if least == most or most == 1:
        return plural("one name", "{number} names", most, number=_number(most))
    if least <= 1:
        return plural("up to one name", "up to {number} names", most, number=_number(most))
    return msg("{least} to {most} names", least=_number(least), most=_number(most))


def _number(count: int) -> Text | int:
    return msg(NUMBER_WORDS[count]) if count in NUMBER_WORDS else count


class Player(Kind):
    """One player's name."""

    name, names = "player", True

    def check(self, ask, value):
        return _player(ask, value) if isinstance(value, str) else msg("one name, not a list")

    def parse(self, ask, value, words):
        return name_of(value) if name_of(value) is not None else value

    def question(self, ask, character, copies):
        return plural("{character} points at", "{character} point at", copies, character=character)

    def form(self, ask, question, words):
        # drawn: nobody entered is the laptop drawing one (a token's first bearer)
        return {"kind": "one", "question": question, "options": options(ask.candidates),
                "none": ask.drawn or not ask.required, **({"none_label": msg("draw one at random")} if ask.drawn else {})}


class Players(Kind):
    """Several players' names, ``least`` to ``most`` of them."""

    name, names = "players", True

    def check(self, ask, value):
        if not isinstance(value, list | tuple) or not all(isinstance(name, str) for name in value):
            return msg("a list of names")
        if len(set(value)) != len(value) or (ask.most and len(value) > ask.most):
            return plural("one name at most", "at most {count} different names", ask.most or len(value))
        if len(value) < ask.least:
            return plural("exactly one name", "exactly {count} different names", ask.least) \
                if ask.least == ask.most else plural("at least one name", "at least {count} different names",
                                                     ask.least)
        return next((why for why in (_player(ask, name) for name in value) if why), None)

    def parse(self, ask, value, words):
        if name_of(value) is not None:
            return [name_of(value)]  # one name where a list may be: a list of one
        return [name_of(name) or name for name in value] if isinstance(value, list) else value

    def question(self, ask, character, copies):
        return plural("{character} points at", "{character} point at", copies, character=character)

    def wanted(self, ask):
        return how_many(ask.least, ask.most)

    def form(self, ask, question, words):
        form = {"kind": "several", "question": question, "options": options(ask.candidates),
                "none": not ask.required, "most": ask.most, "least": ask.least}
        count = self.wanted(ask)  # shown under the question on the phone, in the prompt's hint
        return form if count is None else {**form, "count": count}


class Each(Kind):
    """One player's name for each chooser: a mapping chooser -> name."""

    name = "each"

    def check(self, ask, value):
        if not isinstance(value, Mapping) or not all(isinstance(name, str) for name in value.values()):
            return msg("a name for each of {choosers}", choosers=", ".join(ask.choosers))
        unknown = [chooser for chooser in value if chooser not in ask.choosers]
        if unknown:
            return msg("'{chooser}' is not one of {choosers}", chooser=unknown[0],
                       choosers=", ".join(ask.choosers))
        if ask.required and set(value) != set(ask.choosers):
            return msg("an answer from each of {choosers} is needed", choosers=", ".join(ask.choosers))
        return next((why for chooser, name in value.items() if (why := _player(ask, name, chooser))), None)

    def parse(self, ask, value, words):
        return {str(key): name_of(name) or name for key, name in value.items()} if isinstance(value, Mapping) \
            else value

    def question(self, ask, character, copies):
        return plural("{character} points at", "{character} point at", max(copies, len(ask.choosers)),
                      character=character)

    def form(self, ask, question, words):
        return {"kind": "each", "question": question, "none": not ask.required, "parts": [
            {"key": chooser, "name": ask.label(chooser),
             "label": words.optional(f"ask_{ask.key}_{chooser}", name=ask.label(chooser))
             or msg("{character} points at", character=ask.label(chooser)),
             "options": options(ask.candidates)} for chooser in ask.choosers]}


class YesNo(Kind):
    """Yes or no: true or false."""

    name = "yes-no"

    def check(self, ask, value):
        return None if isinstance(value, bool) else msg("yes or no (true or false)")

    def parse(self, ask, value, words):
        flag = words.flag(value)
        return value if flag is None else flag

    def form(self, ask, question, words):
        return {"kind": "pick", "question": question, "options": options((True, False),
                                                                          {True: msg("yes"), False: msg("no")})}


class Choice(Kind):
    """One of the ask's ``choices``, each shown as the language's ``choice_CHOICE`` where it has one."""

    name = "choice"

    def check(self, ask, value):
        return None if value in ask.choices else msg("one of {choices}",
                                                     choices=", ".join(ask.choices))

    def form(self, ask, question, words):
        labels = {choice: words.optional(f"choice_{choice}") or choice for choice in ask.choices}
        return {"kind": "pick", "question": question, "none": not ask.required,
                "options": options(ask.choices, labels)}


class Told(Kind):
    """Nothing is entered: the answer is told at once (``about`` whom)."""

    name, entered = "told", False

    def check(self, ask, value):
        return msg("told by the narrator, never entered")

    def form(self, ask, question, words):
        raise ValueError(f"'{ask.key}' is told: no form asks it")


class Fields(Kind):
    """A mapping of named parts, in one of the ask's ``forms`` (a turn chosen, and a player only
    when that turn calls for one)."""

    name = "fields"

    def check(self, ask, value):
        return None if ask.fits(value) else msg("here, one of: {forms}",
                                                forms="; ".join(map(ask.form_text, ask.forms)))

    def parse(self, ask, value, words):
        return {str(part): name_of(item) or item for part, item in value.items()} if isinstance(value, Mapping) \
            else value

    def form(self, ask, question, words):
        return {"kind": "fields", "question": question, "none": True, "forms": [
            {"fixed": {part: allowed[0] for part, allowed in shape if len(allowed) == 1},
             "parts": [{"key": part, "label": words.optional(f"ask_{ask.key}_{part}") or part,
                        "options": options(allowed)} for part, allowed in shape if len(allowed) > 1]}
            for shape in ask.forms]}


STOCK: Mapping[str, Kind] = {kind.name: kind for kind in (Player(), Players(), Each(), YesNo(), Choice(), Told(),
                                                           Fields())}
