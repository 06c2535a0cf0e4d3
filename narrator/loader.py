"""Load a game folder (``scripts/<game>/``) into a validated, immutable ``Game``.

A folder holds ``game.yaml`` (roles, deck rules, the night's shape) and one ``<lang>.yaml`` per
language. Everything is checked here, once: a malformed file fails at load with the file and the
field, never later in the middle of a night.
"""

import re
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

from narrator.errors import DataError, NarratorError
from narrator.fields import Field
from narrator.game import (
    CARD_TEXTS,
    IN_DECK_RULES,
    SIDES,
    VOTE_SENTENCES,
    WINS_ALONE_RULES,
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
    Step,
)
from narrator.i18n import msg
from narrator.yamlfile import read_yaml

_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
_GAME_FILE = "game.yaml"


def available_games(scripts_dir: Path) -> tuple[str, ...]:
    return tuple(sorted(p.parent.name for p in scripts_dir.glob(f"*/{_GAME_FILE}")))


def default_language(folder: Path) -> str | None:
    """The language a game narrates in when the locale names none of its own (game.yaml's
    ``language``), read without loading the game; None when it names none or cannot be read."""
    try:
        data = read_yaml(folder / _GAME_FILE)
    except NarratorError:
        return None
    language = data.get("language") if isinstance(data, dict) else None
    return language if isinstance(language, str) and language in language_ids(folder) else None


def language_ids(folder: Path) -> tuple[str, ...]:
    """The languages a game folder narrates in (one file each beside game.yaml), without reading them."""
    return tuple(sorted(path.stem for path in folder.glob("*.yaml") if path.name != _GAME_FILE))


def load_game(folder: Path) -> Game:
    """Read and validate the game in ``folder``; raise ``DataError`` naming file and field."""
    game_file = folder / _GAME_FILE
    root = Field(str(game_file), "", read_yaml(game_file))
    root.keys_within({"id", "title", "language", "players", "undealt", "roles", "recommended_decks",
                      "count", "night", "options", "gaps", "day"})
    roles = _roles(root.get("roles"))
    role_ids = {role.id for role in roles}
    options = {name: spec.keys_within({"default"}).get("default").boolean()
               for name, spec in root.get("options", {}).items()}
    night = _night(root.get("night"), role_ids, set(options))
    for role, entry in zip(roles, root.get("roles").elements(), strict=True):
        if role.night is not None:
            _check_steps(role.night, role_ids, set(options), entry.get("night"))
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
    gaps = root.get("gaps").keys_within({"after_line", "between_phases"})
    game = Game(
        id=root.get("id").text(),
        title=root.get("title").text(),
        min_players=min_players,
        max_players=max_players,
        centre_cards=undealt.get("centre").integer(minimum=0),
        box_cards=undealt.get("box").integer(minimum=0),
        roles=roles,
        recommended_decks=_recommended(root.get("recommended_decks"), role_ids, min_players, max_players),
        count=CountLimits(count_default, count_min, count_max, count.get("aloud_first").integer(minimum=0),
                          count.get("aloud_last").integer(minimum=0)),
        night=night,
        option_defaults=MappingProxyType(options),
        gap_after_line=gaps.get("after_line").number(),
        gap_between_phases=gaps.get("between_phases").number(),
        languages=MappingProxyType({}),
        day=_day(root.get("day", None), count_max),
    )
    languages = {language: _language(folder / f"{language}.yaml", game) for language in language_ids(folder)}
    if not languages:
        raise DataError(msg("{folder}: no language file (it.yaml, en.yaml, ...) beside {file}", folder=folder,
                             file=_GAME_FILE))
    preferred = root.get("language", None)
    game = replace(game, languages=MappingProxyType(languages),
                   default_language=None if preferred.value is None else preferred.choice(tuple(sorted(languages))))
    _check_recommended_decks(game, root.get("recommended_decks"))
    return game


def _day(field: Field, count_max: int) -> DayRules | None:
    if field.value is None:
        return None
    field.keys_within({"seconds", "warnings", "countdown"})
    warnings = tuple(sorted((item.integer(minimum=1) for item in field.get("warnings", []).elements()), reverse=True))
    countdown = field.get("countdown").integer(minimum=0)
    if countdown > count_max:
        raise field.get("countdown").fail(msg("a whole number up to {high} (the count's words)", high=count_max))
    return DayRules(field.get("seconds").integer(minimum=1), warnings, countdown)


def _roles(field: Field) -> tuple[Role, ...]:
    roles: list[Role] = []
    for entry in field.elements():
        entry.keys_within({"id", "copies", "side", "wakes", "in_deck", "excludes", "night", "wolf", "bewitchable",
                           "bewitches", "passes_votes_at", "wins_alone"})
        role_id = entry.get("id").text()
        if not _ID.match(role_id):
            raise entry.get("id").fail(msg("an id in lower case with hyphens, like 'lupo-mannaro'"))
        if any(role.id == role_id for role in roles):
            raise entry.get("id").fail(msg("an id not used by another role"))
        wakes = entry.get("wakes", None)
        night = entry.get("night", None)
        side = entry.get("side").choice(SIDES)
        passes = entry.get("passes_votes_at", None)
        alone = entry.get("wins_alone", None)
        roles.append(Role(
            id=role_id,
            copies=entry.get("copies").integer(minimum=1),
            side=side,
            wakes=None if wakes.value is None else wakes.integer(minimum=1),
            in_deck=entry.get("in_deck", "any").choice(IN_DECK_RULES),
            excludes=frozenset(item.text() for item in entry.get("excludes", []).elements()),
            night=None if night.value is None else _steps(night),
            wolf=entry.get("wolf", False).boolean(),
            bewitchable=entry.get("bewitchable", side == "umani").boolean() and side == "umani",
            bewitches=entry.get("bewitches", False).boolean(),
            passes_votes_at=None if passes.value is None else passes.integer(minimum=1),
            wins_alone=None if alone.value is None else alone.choice(WINS_ALONE_RULES),
        ))
    if not roles:
        raise field.fail(msg("a list of roles"))
    known = {role.id for role in roles}
    wake_order: dict[int, str] = {}
    for index, role in enumerate(roles):
        for other in sorted(role.excludes):
            if other not in known or other == role.id:
                raise DataError(msg("{file}: roles[{index}].excludes: no other role '{role}'", file=field.source,
                                     index=index, role=other))
        if role.wakes is not None:
            if role.wakes in wake_order:
                raise DataError(msg("{file}: roles[{index}].wakes: {turn} is also the turn of '{role}'; each waking "
                                     "role needs its own", file=field.source, index=index, turn=role.wakes,
                                     role=wake_order[role.wakes]))
            wake_order[role.wakes] = role.id
        if role.night is not None and role.wakes is None:
            raise DataError(msg("{file}: roles[{index}].night: '{role}' has night steps but never wakes",
                                 file=field.source, index=index, role=role.id))
    return tuple(roles)


def _steps(field: Field) -> tuple[Step, ...]:
    steps: list[Step] = []
    for item in field.elements():
        if item.value == "count":
            steps.append(CountStep())
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
    field.keys_within({"deck_has", "option"})
    deck_has, option = field.get("deck_has", None), field.get("option", None)
    if deck_has.value is None and option.value is None:
        raise field.fail(msg("'deck_has: ROLE' or 'option: NAME'"))
    return Condition(
        deck_has=None if deck_has.value is None else deck_has.text(),
        option=None if option.value is None else option.text(),
    )


def _night(field: Field, role_ids: set[str], options: set[str]) -> NightShape:
    field.keys_within({"before", "phase", "after"})
    shape = NightShape(*(_steps(field.get(part)) for part in ("before", "phase", "after")))
    for part in ("before", "phase", "after"):
        _check_steps(getattr(shape, part), role_ids, options, field.get(part))
    if sum(isinstance(step, CountStep) for step in shape.phase) != 1:
        raise field.get("phase").fail(msg("steps with exactly one 'count'"))
    return shape


def _check_steps(steps: tuple[Step, ...], role_ids: set[str], options: set[str], field: Field) -> None:
    for index, step in enumerate(steps):
        if isinstance(step, LineStep) and step.when is not None:
            where = f"{field.source}: {field.path}[{index}].when"
            if step.when.deck_has is not None and step.when.deck_has not in role_ids:
                raise DataError(msg("{where}: no role '{role}'", where=where, role=step.when.deck_has))
            if step.when.option is not None and step.when.option not in options:
                raise DataError(msg("{where}: no option '{option}' (declare it under 'options')", where=where,
                                     option=step.when.option))


def _recommended(field: Field, role_ids: set[str], lowest: int, highest: int) -> MappingProxyType:
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
    return MappingProxyType(decks)


def _check_recommended_decks(game: Game, field: Field) -> None:
    from narrator.deck import check_deck, make_deck

    for players, counts in game.recommended_decks.items():
        try:
            check_deck(game, make_deck(game, counts), players)
        except NarratorError as error:
            raise DataError(msg("{where}.{players}: {error}", where=field.where, players=players,
                                 error=error)) from None


def _language(path: Path, game: Game) -> Language:
    root = Field(str(path), "", read_yaml(path))
    root.keys_within({"language", "roles", "sides", "count", "lines", "vote", "card", "moments", "euphony"})
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
    vote_field = root.get("vote").keys_within(set(VOTE_SENTENCES))
    vote = {key: vote_field.get(key).text() for key in VOTE_SENTENCES}
    card_field = root.get("card").keys_within(set(CARD_TEXTS) | {"win"})
    card = {key: card_field.get(key).text() for key in CARD_TEXTS}
    wins = {}
    for role_id, win in card_field.get("win", {}).items():
        if role_id not in roles:
            raise DataError(msg("{where}: no role '{role}' in {game}", where=win.where, role=role_id, game=game.id))
        wins[role_id] = win.text()
    return Language(
        code=path.stem,
        vote=MappingProxyType(vote),
        card=MappingProxyType(card),
        moments=MappingProxyType({key: root.get("moments").keys_within({"night", "dawn"}).get(key).text()
                                  for key in ("night", "dawn")}),
        card_wins=MappingProxyType(wins),
        euphony=MappingProxyType({word: form.text() for word, form in root.get("euphony", {}).items()}),
        name=root.get("language").text(),
        roles=MappingProxyType(roles),
        sides=MappingProxyType(sides),
        count=count,
        lines=MappingProxyType(lines),
    )


def _line_keys(game: Game) -> list[str]:
    """Every line key the game can say, whatever the deck and options (the count aside)."""
    from narrator.script import every_line_key

    return [key for key in every_line_key(game) if not key.startswith("count.")]
