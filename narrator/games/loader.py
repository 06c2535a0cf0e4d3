"""Load a game folder (``scripts/<game>/``) into a validated, immutable ``Game``.

A folder holds ``game.yaml`` (roles, deck rules, the night's shape) and one ``<lang>.yaml`` per
language. Everything is checked here, once: a malformed file fails at load with the file and the
field, never later in the middle of a night.
"""

import importlib.util
import re
import sys
import zlib  # names each rules module by its path's checksum: cheaper to import than hashlib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from narrator.core.errors import DataError, NarratorError
from narrator.core.fields import Field
from narrator.core.game import (
    ALONE_CARD_TEXTS,
    CARD_TEXTS,
    IN_DECK_RULES,
    RECORD_WORDS,
    SHEET_TEXTS,
    VOTE_SENTENCES,
    VOTE_WORDS,
    Condition,
    CountLimits,
    CountStep,
    DayRules,
    Game,
    Language,
    LineStep,
    NightShape,
    Role,
    RoleText,
    SetApart,
    SheetColumn,
    Step,
    WakeSlot,
)
from narrator.core.i18n import msg
from narrator.core.nights import Rules, answer_sentences, bind, untyped
from narrator.core.vote import VoteRules
from narrator.games.summary import GAME_FILE as _GAME_FILE
from narrator.games.summary import available_games, default_language, language_ids  # noqa: F401 (the loader's API)
from narrator.games.yamlfile import read_yaml

_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
_RULES_FILE = "rules.py"
_RULES_NAMES = ("ROLE_FIELDS", "SENTENCES", "CARD_TEXTS", "questions", "check", "resolve", "card_back")
_RULES_FUNCTIONS = ("questions", "check", "resolve", "card_back")  # each says its types (VoteRules')
# A game of many nights' rules fulfil narrator.core.nights.NightsRules instead (checked by check_rules).
_TRAIT_KINDS = ("flag", "count", "role")  # or a tuple of the values allowed


def load_game(folder: Path) -> Game:
    """Read and validate the game in ``folder``; raise ``DataError`` naming file and field."""
    game_file = folder / _GAME_FILE
    root = Field(str(game_file), "", read_yaml(game_file))
    root.keys_within({"id", "title", "language", "players", "undealt", "sides", "roles", "recommended_decks",
                      "count", "night", "wake", "options", "gaps", "day", "tokens", "needs_side", "nights",
                      "without_moderator", "minority", "sheet"})
    sides = tuple(item.text() for item in root.get("sides").elements())
    if not sides:
        raise root.get("sides").fail(msg("a list of the sides a card can be on"))
    many_nights = root.get("nights", "one").choice(("one", "many")) == "many"
    rules = load_rules(folder, many_nights)
    roles = _roles(root.get("roles"), sides, rules.ROLE_FIELDS if rules else {})
    token_traits = _tokens(root.get("tokens", []), getattr(rules, "TOKEN_FIELDS", {}), {role.id for role in roles})
    role_ids = {role.id for role in roles}
    options = {name: spec.keys_within({"default", "aliases", "players"}).get("default").boolean()
               for name, spec in root.get("options", {}).items()}
    option_players = {name: spec.get("players").integer(minimum=1) for name, spec in root.get("options", {}).items()
                      if spec.get("players", None).value is not None}
    aliases = {alias.text(): name for name, spec in root.get("options", {}).items()
               for alias in spec.get("aliases", []).elements()}
    night = replace(_night(root.get("night"), role_ids, set(options)),
                    slots=_slots(root.get("wake"), role_ids, set(options)))
    players = root.get("players").keys_within({"min", "max"})
    min_players = players.get("min").integer(minimum=1)
    max_players = players.get("max").integer(minimum=min_players)
    count = root.get("count").keys_within({"default", "min", "max", "aloud_first", "aloud_last"})
    count_min = count.get("min").integer(minimum=1)
    count_max = count.get("max").integer(minimum=count_min)
    count_default = count.get("default").integer(minimum=count_min)
    if count_default > count_max:
        raise count.get("default").fail(msg("a whole number from {low} to {high}", low=count_min, high=count_max))
    undealt = root.get("undealt").keys_within({"centre", "box"})
    gaps = root.get("gaps").keys_within({"after_line", "between_phases", "before_count"})
    game = Game(
        id=root.get("id").text(),
        title=root.get("title").text(),
        min_players=min_players,
        max_players=max_players,
        centre_cards=undealt.get("centre").integer(minimum=0),
        box_cards=undealt.get("box").integer(minimum=0),
        roles=roles,
        recommended_decks=_recommended(_recommended_field(root, rules), role_ids, min_players, max_players,
                                       every_count=not callable(getattr(rules, "draw_deck", None))),
        count=CountLimits(count_default, count_min, count_max, count.get("aloud_first").integer(minimum=0),
                          count.get("aloud_last").integer(minimum=0)),
        night=night,
        option_defaults=MappingProxyType(options),
        gap_after_line=gaps.get("after_line").number(),
        gap_between_phases=gaps.get("between_phases").number(),
        gap_before_count=gaps.get("before_count", 0.0).number(),
        languages=MappingProxyType({}),
        day=_day(root.get("day", None), count_max, set(options)),
        tokens=tuple(token_traits),
        token_traits=MappingProxyType(token_traits),
        rules=rules,
        needs_side=None if root.get("needs_side", None).value is None else root.get("needs_side").choice(sides),
        minority=tuple(item.choice(tuple(sorted(role_ids))) for item in root.get("minority", []).elements()),
        many_nights=many_nights,
        option_aliases=MappingProxyType(aliases),
        option_players=MappingProxyType(option_players),
        without_moderator=_optional_condition(root.get("without_moderator", None), role_ids, set(options)),
        sheet=_sheet(root.get("sheet", None), role_ids, set(options)),
    )
    if game.many_nights and game.day is None:  # each day of the game is played, on the timer or to the moderator
        raise DataError(msg("{where}: missing field 'day' (a game of many nights has a day after every night)",
                            where=root.where))
    if game.sheet and not game.many_nights:
        raise root.get("sheet").fail(msg("a moderator's sheet is for a game of many nights (nights: many)"))
    if game.plays_rounds:
        _check_ends(game, folder / _RULES_FILE)
    languages = {language: _language(folder / f"{language}.yaml", game) for language in language_ids(folder)}
    if not languages:
        raise DataError(msg("{folder}: no language file (it.yaml, en.yaml, ...) beside {file}", folder=folder,
                             file=_GAME_FILE))
    preferred = root.get("language", None)
    game = replace(game, languages=MappingProxyType(languages),
                   default_language=None if preferred.value is None else preferred.choice(tuple(sorted(languages))))
    _check_recommended_decks(game, _recommended_field(root, rules))
    return game


def _recommended_field(root: Field, rules) -> Field:
    """The recommended decks: every game has them, but one whose rules draw the set (DRAWN_SET) needs none."""
    drawn = callable(getattr(rules, "draw_deck", None))
    return root.get("recommended_decks", {}) if drawn else root.get("recommended_decks")


def _day(field: Field, count_max: int, options: set[str]) -> DayRules | None:
    if field.value is None:
        return None
    field.keys_within({"seconds", "warnings", "countdown", "timed"})
    warnings = tuple(sorted((item.integer(minimum=1) for item in field.get("warnings", []).elements()), reverse=True))
    countdown = field.get("countdown").integer(minimum=0)
    if countdown > count_max:
        raise field.get("countdown").fail(msg("a whole number up to {high} (the count's words)", high=count_max))
    timed = field.get("timed", None)
    if timed.value is not None:
        _check_condition(_condition(timed), set(), options, timed.where)
    return DayRules(field.get("seconds").integer(minimum=1), warnings, countdown,
                    None if timed.value is None else _condition(timed))


def _roles(field: Field, sides: tuple[str, ...], traits: Mapping[str, Any]) -> tuple[Role, ...]:
    roles: list[Role] = []
    for entry in field.elements():
        entry.keys_within({"id", "copies", "side", "in_deck", "excludes", "sets_apart", *traits})
        role_id = entry.get("id").text()
        if not _ID.match(role_id):
            raise entry.get("id").fail(msg("an id in lower case with hyphens, like 'lupo-mannaro'"))
        if any(role.id == role_id for role in roles):
            raise entry.get("id").fail(msg("an id not used by another role"))
        roles.append(Role(
            id=role_id,
            copies=entry.get("copies").integer(minimum=1),
            side=entry.get("side").choice(sides),
            in_deck=entry.get("in_deck", "any").choice(IN_DECK_RULES),
            excludes=frozenset(item.text() for item in entry.get("excludes", []).elements()),
            traits=MappingProxyType({name: _trait(entry.get(name, None), kind) for name, kind in traits.items()}),
            sets_apart=_set_apart(entry.get("sets_apart", None)),
        ))
    if not roles:
        raise field.fail(msg("a list of roles"))
    known = {role.id for role in roles}
    _check_role_traits(field, [role.traits for role in roles], traits, known)
    for index, role in enumerate(roles):
        for other in role.sets_apart.roles if role.sets_apart else ():
            if other not in known:
                raise DataError(msg("{file}: roles[{index}].sets_apart.from: no role '{role}'", file=field.source,
                                     index=index, role=other))
        for other in sorted(role.excludes):
            if other not in known or other == role.id:
                raise DataError(msg("{file}: roles[{index}].excludes: no other role '{role}'", file=field.source,
                                     index=index, role=other))
    return tuple(roles)


def _set_apart(field: Field) -> SetApart | None:
    if field.value is None:
        return None
    field.keys_within({"count", "from"})
    roles = tuple(item.text() for item in field.get("from").elements())
    if not roles:
        raise field.get("from").fail(msg("a list of roles"))
    return SetApart(field.get("count").integer(minimum=1), roles)


def _trait(field: Field, kind) -> object:
    """A field a rules module declares for roles or tokens: a flag (false unless set), a count, a
    role's id (checked once every role is known) or one of some values; None when unset."""
    if kind == "flag":
        return False if field.value is None else field.boolean()
    if field.value is None:
        return None
    if kind == "count":
        return field.integer(minimum=1)
    return field.text() if kind == "role" else field.choice(tuple(kind))


def _check_role_traits(field: Field, entries: list, kinds: Mapping[str, Any], role_ids: set[str]) -> None:
    """Every field of kind "role" names a role of the game."""
    for index, traits in enumerate(entries):
        for name, kind in kinds.items():
            if kind == "role" and traits.get(name) is not None and traits[name] not in role_ids:
                raise DataError(msg("{where}[{index}].{field}: no role '{role}'", where=field.where, index=index,
                                     field=name, role=traits[name]))


def _tokens(field: Field, kinds: Mapping[str, Any], role_ids: set[str]) -> dict[str, MappingProxyType]:
    """Tokens, in order: an id, or ``{id: ..., FIELD: ...}`` with the fields the rules module declares
    (``TOKEN_FIELDS``, kinds as for roles)."""
    tokens: dict[str, MappingProxyType] = {}
    for item in field.elements():
        if isinstance(item.value, dict):
            item.keys_within({"id", *kinds})
            token = item.get("id").text()
            traits = {name: _trait(item.get(name, None), kind) for name, kind in kinds.items()}
        else:  # a bare id: every field unset
            token = item.text()
            traits = {name: _trait(Field(item.source, item.path, None), kind) for name, kind in kinds.items()}
        if not _ID.match(token) or token in tokens:
            raise field.fail(msg("a list of different ids in lower case with hyphens"))
        tokens[token] = MappingProxyType(traits)
    _check_role_traits(field, list(tokens.values()), kinds, role_ids)
    return tokens


def load_rules(folder: Path, many_nights: bool = False) -> VoteRules | Rules | None:
    """The game's ``rules.py``, run once per file (None when the game has none); DataError when it
    cannot run or breaks its contract (``narrator.core.vote.VoteRules``, or for a game of many nights
    ``narrator.core.nights.NightsRules``)."""
    path = (folder / _RULES_FILE).resolve()
    if not path.is_file():
        return None
    name = f"narrator.games._rules_{zlib.crc32(str(path).encode()):08x}"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None  # a .py file's: always found, with its loader
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception as error:  # a plugin's own mistake: named, never a traceback
            raise DataError(msg("{file}: cannot run it ({error}: {reason})", file=path, error=type(error).__name__,
                                reason=error)) from None
        sys.modules[name] = module
    rules = bind(module, str(path)) if many_nights else module  # many nights: the hooks called by keyword
    for needed in () if many_nights else _RULES_NAMES:
        if not hasattr(module, needed):
            raise DataError(msg("{file}: no '{name}' (a rules module provides {names})", file=path, name=needed,
                                names=", ".join(_RULES_NAMES)))
    for function in () if many_nights else _RULES_FUNCTIONS:
        why = untyped(getattr(module, function), function, VoteRules) if callable(getattr(module, function)) else None
        if why is not None:
            raise DataError(msg("{file}: {problem}", file=path, problem=why))
    for declared in ("ROLE_FIELDS", "TOKEN_FIELDS"):
        for trait, kind in getattr(rules, declared, {}).items():
            if kind not in _TRAIT_KINDS and not isinstance(kind, tuple):
                raise DataError(msg("{file}: {declared}['{name}']: 'flag', 'count', 'role' or a tuple of values",
                                     file=path, declared=declared, name=trait))
    return rules


def _slots(field: Field, role_ids: set[str], options: set[str]) -> tuple[WakeSlot, ...]:
    """The turns of the night, in order (see scripts/README.md, "Turns of the night")."""
    slots: list[WakeSlot] = []
    for entry in field.elements():
        entry.keys_within({"id", "roles", "number", "when", "steps", "seconds_factor"})
        slot_id = entry.get("id").text()
        if not _ID.match(slot_id):
            raise entry.get("id").fail(msg("an id in lower case with hyphens, like 'lupo-mannaro'"))
        if any(slot.id == slot_id for slot in slots):
            raise entry.get("id").fail(msg("an id not used by another turn of the night"))
        called = entry.get("roles", [slot_id])
        roles = tuple(item.text() for item in called.elements())
        for role_id in roles:
            if role_id not in role_ids:
                raise DataError(msg("{where}: no role '{role}'", where=called.where, role=role_id))
        if not roles and entry.get("when", None).value is None:
            raise called.fail(msg("a list of roles (a turn of no role, such as a token's, needs a 'when')"))
        number = entry.get("number")
        if isinstance(number.value, bool) or not isinstance(number.value, (int, str)) or not str(number.value).strip():
            raise number.fail(msg("a number or a short label, like 5 or 9a"))
        when, steps = entry.get("when", None), entry.get("steps", None)
        slot = WakeSlot(slot_id, roles, number.value, None if when.value is None else _condition(when),
                        None if steps.value is None else _steps(steps),
                        entry.get("seconds_factor", 1).integer(minimum=1))
        if slot.when is not None:
            _check_condition(slot.when, role_ids, options, when.where)
        if slot.steps is not None:
            _check_steps(slot.steps, role_ids, options, steps)
        slots.append(slot)
    return tuple(slots)


def _check_ends(game: Game, source: Path) -> None:
    """Who a game of many nights' rules can name as winning is a side of the game or one of its roles."""
    for end in game.nights_rules.ENDS:
        if end not in {role.side for role in game.roles} and end not in game.role_ids:
            raise DataError(msg("{file}: ENDS: '{end}' is neither a side nor a role of {game}", file=source, end=end,
                                game=game.id))


def _optional_condition(field: Field, role_ids: set[str], options: set[str]):
    if field.value is None:
        return None
    condition = _condition(field)
    _check_condition(condition, role_ids, options, field.where)
    return condition


SHEET_MOMENTS = ("night", "day")


def _sheet(field: Field, role_ids: set[str], options: set[str]) -> tuple[SheetColumn, ...]:
    """The moderator's sheet: for each of its grids (``night``, ``day``) a list of columns, each a
    card text key, or ``{column: KEY, when: CONDITION}`` for one printed only when it holds."""
    if field.value is None:
        return ()
    field.keys_within(set(SHEET_MOMENTS))
    columns = []
    for moment in SHEET_MOMENTS:
        items = list(field.get(moment).elements())
        if not items:
            raise field.get(moment).fail(msg("a list of the columns marked each {moment}", moment=moment))
        for item in items:
            if isinstance(item.value, str):
                columns.append(SheetColumn(moment, item.text()))
                continue
            item.keys_within({"column", "when"})
            columns.append(SheetColumn(moment, item.get("column").text(),
                                       _optional_condition(item.get("when"), role_ids, options)))
    return tuple(columns)


def _steps(field: Field) -> tuple[Step, ...]:
    steps: list[Step] = []
    for item in field.elements():
        if item.value == "count":
            steps.append(CountStep())
            continue
        if isinstance(item.value, dict) and "count" in item.value:  # {count: true, when: CONDITION}
            item.keys_within({"count", "when"})
            if item.get("count").boolean() is not True:
                raise item.get("count").fail(msg("true (a count), or leave the step out"))
            when = item.get("when", None)
            steps.append(CountStep(None if when.value is None else _condition(when)))
            continue
        item.keys_within({"line", "when", "pause_after"})
        when = item.get("when", None)
        pause = item.get("pause_after", None)
        steps.append(LineStep(
            key=item.get("line").text(),
            when=None if when.value is None else _condition(when),
            pause_after=None if pause.value is None else pause.number(),
        ))
    return tuple(steps)


def _condition(field: Field) -> Condition:
    field.keys_within({"deck_has", "option", "night", "from_night", "all", "any", "not"})
    deck_has, option = field.get("deck_has", None), field.get("option", None)
    night, from_night = field.get("night", None), field.get("from_night", None)
    all_of, any_of, negated = field.get("all", []), field.get("any", []), field.get("not", None)
    if all(part.value in (None, []) for part in (deck_has, option, night, from_night, all_of, any_of, negated)):
        raise field.fail(msg("'deck_has: ROLE', 'option: NAME', 'night: N', 'from_night: N', 'all: [...]', "
                             "'any: [...]' or 'not: {...}'"))
    return Condition(
        deck_has=None if deck_has.value is None else deck_has.text(),
        option=None if option.value is None else option.text(),
        night=None if night.value is None else night.integer(minimum=1),
        from_night=None if from_night.value is None else from_night.integer(minimum=1),
        all_of=tuple(_condition(part) for part in all_of.elements()),
        any_of=tuple(_condition(part) for part in any_of.elements()),
        negated=None if negated.value is None else _condition(negated),
    )


def _check_condition(condition: Condition, role_ids: set[str], options: set[str], where: str) -> None:
    for part in condition.parts():
        if part.deck_has is not None and part.deck_has not in role_ids:
            raise DataError(msg("{where}: no role '{role}'", where=where, role=part.deck_has))
        if part.option is not None and part.option not in options:
            raise DataError(msg("{where}: no option '{option}' (declare it under 'options')", where=where,
                                 option=part.option))


def _night(field: Field, role_ids: set[str], options: set[str]) -> NightShape:
    field.keys_within({"before", "phase", "after"})
    shape = NightShape(_steps(field.get("before")), _steps(field.get("phase")), _steps(field.get("after")))
    for part in ("before", "phase", "after"):
        _check_steps(getattr(shape, part), role_ids, options, field.get(part))
    if sum(isinstance(step, CountStep) for step in shape.phase) != 1:
        raise field.get("phase").fail(msg("steps with exactly one 'count'"))
    return shape


def _check_steps(steps: tuple[Step, ...], role_ids: set[str], options: set[str], field: Field) -> None:
    for index, step in enumerate(steps):
        if step.when is not None:
            _check_condition(step.when, role_ids, options, f"{field.source}: {field.path}[{index}].when")


def _recommended(field: Field, role_ids: set[str], lowest: int, highest: int, every_count: bool) -> MappingProxyType:
    """The recommended decks by player count: one for every count the game takes (``every_count``),
    since a game is played with its recommended deck when no deck is given, unless its rules draw the set."""
    decks = {}
    for players, deck in field.items():
        if not players.isdigit() or not lowest <= int(players) <= highest:
            raise deck.fail(msg("a deck keyed by a player count from {low} to {high} (key {key!r})", low=lowest,
                                 high=highest, key=players))
        counts = {}
        for role_id, copies in deck.items():
            if role_id not in role_ids:
                raise DataError(msg("{where}: no role '{role}'", where=deck.where, role=role_id))
            counts[role_id] = copies.integer(minimum=1)
        decks[int(players)] = MappingProxyType(counts)
    missing = [players for players in range(lowest, highest + 1) if players not in decks]
    if every_count and missing:
        raise DataError(msg("{where}: no deck for {players} players (one for every count from {low} to {high})",
                            where=field.where, players=", ".join(map(str, missing)), low=lowest, high=highest))
    return MappingProxyType(decks)


def _check_recommended_decks(game: Game, field: Field) -> None:
    from narrator.core.deck import check_deck, make_deck

    for players, counts in game.recommended_decks.items():
        try:
            check_deck(game, make_deck(game, counts), players)
        except NarratorError as error:
            raise DataError(msg("{where}.{players}: {error}", where=field.where, players=players,
                                 error=error)) from None


NIGHTS_CARD_TEXTS = ("night_number", "night_onwards")  # a game of many nights heads each night on its card


def _language(path: Path, game: Game) -> Language:
    root = Field(str(path), "", read_yaml(path))
    root.keys_within({"language", "roles", "sides", "count", "lines", "vote", "card", "moments", "euphony", "tokens", "slots",
                      "apart", "votes_file"})
    roles_field = root.get("roles")
    roles = {}
    for role in game.roles:
        names = roles_field.get(role.id).keys_within({"name", "plural", "summary"})
        roles[role.id] = RoleText(names.get("name").text(), names.get("plural").text(), names.get("summary").text())
    for role_id, entry in roles_field.items():
        if role_id not in roles:
            raise DataError(msg("{where}: no role '{role}' in {game}", where=entry.where, role=role_id,
                                 game=game.id))
    sides_field = root.get("sides")
    sides = {side: sides_field.get(side).text() for side in sorted({role.side for role in game.roles})}
    count = tuple(item.text() for item in root.get("count").elements())
    if len(count) < game.count.maximum:
        raise root.get("count").fail(msg("a list of the words for 1 to {high}", high=game.count.maximum))
    lines_field = root.get("lines")
    lines = {key: value.text() for key, value in lines_field.items()}
    needed = set(_line_keys(game))
    for key in sorted(needed - set(lines)):
        raise DataError(msg("{file}: lines: missing line '{key}'", file=path, key=key))
    for key in sorted(set(lines) - needed):
        raise DataError(msg("{file}: lines: '{key}' is not a line of {game} (a typo?)", file=path, key=key,
                             game=game.id))
    answers = answer_sentences(game.rules) if game.plays_rounds else ()  # what the moderator tells
    sentences = tuple(dict.fromkeys((*VOTE_SENTENCES, *answers, *(RECORD_WORDS if game.plays_rounds else ()),
                                     *(game.rules.SENTENCES if game.rules else ()))))
    vote_field = root.get("vote").keys_within(set(sentences) | set(VOTE_WORDS))
    vote = {key: vote_field.get(key).text() for key in sentences}
    vote |= {key: vote_field.get(key).text() for key in VOTE_WORDS if vote_field.get(key, None).value is not None}
    card_texts = (*CARD_TEXTS, *(NIGHTS_CARD_TEXTS if game.many_nights else ()),
                  *(ALONE_CARD_TEXTS if game.without_moderator is not None else ()),
                  *((*SHEET_TEXTS, *dict.fromkeys(column.key for column in game.sheet)) if game.sheet else ()),
                  *(game.rules.CARD_TEXTS if game.rules else ()))
    card_field = root.get("card")
    card_texts += ("wins",) if card_field.get("win", {}).value else ()  # the heading over the roles' wins
    card_field.keys_within(set(card_texts) | {"win", "setup_with"})
    card = {key: card_field.get(key).text() for key in card_texts}
    tokens_field = root.get("tokens", {} if not game.tokens else None)
    tokens = {token: tokens_field.get(token).text() for token in game.tokens}
    tokens_field.keys_within(set(game.tokens))
    wins, setup_with = _texts_by_role(card_field.get("win", {}), roles, game), _texts_by_role(
        card_field.get("setup_with", {}), roles, game)
    return Language(
        code=path.stem,
        vote=MappingProxyType(vote),
        card=MappingProxyType(card),
        moments=MappingProxyType({key: root.get("moments").keys_within({"night", "dawn"}).get(key).text()
                                  for key in ("night", "dawn")}),
        card_wins=MappingProxyType(wins),
        setup_with=MappingProxyType(setup_with),
        euphony=MappingProxyType({word: form.text() for word, form in root.get("euphony", {}).items()}),
        tokens=MappingProxyType(tokens),
        slots=MappingProxyType(_slot_texts(root.get("slots", {}), game)),
        votes_file=_votes_file(root.get("votes_file", {})),
        apart=root.get("apart").text() if any(role.sets_apart for role in game.roles) else
        root.get("apart", "").value,
        name=root.get("language").text(),
        roles=MappingProxyType(roles),
        sides=MappingProxyType(sides),
        count=count,
        lines=MappingProxyType(lines),
    )


def _votes_file(field: Field) -> MappingProxyType:
    """A votes file's fields and what each holds: at the "file" level and in each "player" entry."""
    field.keys_within({"file", "player"})
    return MappingProxyType({level: MappingProxyType({key: text.text() for key, text in entries.items()})
                             for level, entries in field.items()})


def _texts_by_role(field: Field, roles: dict, game: Game) -> dict[str, str]:
    texts = {}
    for role_id, text in field.items():
        if role_id not in roles:
            raise DataError(msg("{where}: no role '{role}' in {game}", where=text.where, role=role_id, game=game.id))
        texts[role_id] = text.text()
    return texts


def _slot_texts(field: Field, game: Game) -> dict[str, RoleText]:
    """Names of their own for turns of the night (a Doppelgänger's later turn), where the first
    role's name would not say which turn it is."""
    turns = {slot.id for slot in game.night.slots}
    texts = {}
    for slot_id, entry in field.items():
        if slot_id not in turns:
            raise DataError(msg("{where}: no turn '{slot}' in the night of {game}", where=entry.where, slot=slot_id,
                                 game=game.id))
        entry.keys_within({"name", "plural", "summary"})
        texts[slot_id] = RoleText(entry.get("name").text(), entry.get("plural").text(), entry.get("summary").text())
    unnamed = next((slot.id for slot in game.night.slots if not slot.roles and slot.id not in texts), None)
    if unnamed is not None:
        raise DataError(msg("{where}: the turn '{slot}' calls no role: name it here (name, plural, summary)",
                            where=field.where, slot=unnamed))
    return texts


def _line_keys(game: Game) -> list[str]:
    """Every line key the game can say, whatever the deck and options (the count aside)."""
    from narrator.core.script import every_line_key

    return [key for key in every_line_key(game) if not key.startswith("count.")]
