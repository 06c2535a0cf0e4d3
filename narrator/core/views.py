"""How decks, roles and scripts look on the terminal (text) and to programs (JSON, YAML).

Pure functions from core objects to strings and plain data; the command line only prints them.
Text for people comes in the language of ``catalog`` (see narrator.core.i18n); data for programs has
no words to translate.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from narrator.core.deck import Deck, possible_roles
from narrator.core.game import Game
from narrator.core.i18n import ENGLISH, Catalog
from narrator.core.script import Count, Line, NightScript
from narrator.core.timeline import Timeline


def dump(data: Any, fmt: str) -> str:
    """``data`` as JSON or YAML text (UTF-8, accents kept as they are)."""
    if fmt == "json":
        import json

        return json.dumps(data, ensure_ascii=False, indent=2)
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(data, Dumper=dumper, allow_unicode=True, sort_keys=False, width=120).rstrip("\n")


def minutes(seconds: float) -> str:
    """``75.9`` → ``1:15``: whole minutes and seconds gone (a countdown rounds up: see bigdigits)."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def clock(seconds: float) -> str:
    """``75.25`` → ``1:15.3``: minutes, seconds and tenths."""
    tenths = round(seconds * 10)
    return f"{tenths // 600}:{tenths % 600 // 10:02d}.{tenths % 10}"


# --- decks -------------------------------------------------------------------------------


def deck_data(game: Game, deck: Deck, players: int, lang: str) -> dict[str, Any]:
    language = game.languages[lang]
    return {
        "game": game.id,
        "players": players,
        "cards": deck.size,
        "deck": deck.as_dict(),
        "names": {role_id: language.role_name(role_id) for role_id, _ in deck.counts},
        "night_order": [slot.id for slot in game.slots_of_any_night(deck.role_ids, game.option_defaults)],
        "centre": game.centre_cards,
        "box": game.box_cards,
    } | ({"apart": dict(deck.apart)} if deck.apart else {})


def deck_text(game: Game, deck: Deck, players: int, lang: str, catalog: Catalog = ENGLISH,
              options: Mapping[str, bool] | None = None) -> str:
    """The deck as a table, the night's order and the setup, with the game's options (its defaults
    unless given: a variant without a moderator has a setup of its own)."""
    options = game.option_defaults if options is None else options
    language = game.languages[lang]
    rows = [("", catalog.gettext("card"), "id", catalog.gettext("side"), catalog.gettext("night"))]
    for role_id, copies in deck.counts:
        role = game.role(role_id)
        rows.append((str(copies), language.role_name(role_id), role_id, language.sides[role.side],
                     _wakes(game, role_id, deck)))
    for role_id, copies in deck.apart:  # beside the deck: not dealt, not called
        rows.append((f"+{copies}", language.role_name(role_id), role_id, language.sides[game.role(role_id).side],
                     language.apart))
    called = [language.slot_name(slot, slot.cards(deck.as_dict()))
              for slot in game.slots_of_any_night(game.turn_roles(deck.as_dict(), options, dict(deck.possible)),
                                                                options) if not slot.silent]
    if not called:
        order = catalog.gettext("Night order: nobody wakes")
    elif game.many_nights:
        order = catalog.gettext("Night order, over the nights ('narrate script --night N' for each): {roles}").format(
            roles=", ".join(called))
    else:
        order = catalog.gettext("Night order: {roles}").format(roles=", ".join(called))
    possible = []
    if game.draws_set:
        possible = [catalog.gettext("Possible roles (any of them may have been drawn; they may be read out): {roles}")
                    .format(roles=", ".join(language.role_name(role_id)
                                            for role_id in possible_roles(game, players, options, deck)))]
    return "\n".join([
        catalog.gettext("{game}: deck for {players} players ({cards} cards)").format(
            game=game.title, players=players, cards=deck.size),
        *table(rows),
        *possible,
        order,
        language.setup(deck.role_ids, game.unmoderated(deck.role_ids, options)),
    ])


# --- games -------------------------------------------------------------------------------


def games_data(games: list[Game]) -> list[dict[str, Any]]:
    return [{"id": game.id, "title": game.title, "players": [game.min_players, game.max_players],
             "languages": sorted(game.languages), "roles": len(game.roles),
             "options": dict(game.option_defaults)} for game in games]


def games_text(games: list[Game], catalog: Catalog = ENGLISH) -> str:
    rows = [("id", catalog.gettext("title"), catalog.gettext("players"), catalog.gettext("languages"),
             catalog.gettext("roles"), catalog.gettext("options (--option)"))]
    on, off = catalog.gettext("on"), catalog.gettext("off")
    rows += [(game.id, game.title, f"{game.min_players}-{game.max_players}", ", ".join(sorted(game.languages)),
              str(len(game.roles)), ", ".join(f"{name}={on if default else off}"
                                              for name, default in game.option_defaults.items()) or "-")
             for game in games]
    return "\n".join(table(rows))


# --- roles -------------------------------------------------------------------------------


def roles_data(game: Game, lang: str) -> list[dict[str, Any]]:
    return [
        {
            "id": role.id,
            "names": {code: language.roles[role.id].name for code, language in game.languages.items()},
            "copies": role.copies,
            "side": role.side,
            "wakes": game.wake_number(role.id),
            "in_deck": role.in_deck,
            "excludes": sorted(role.excludes),
            "summary": game.languages[lang].roles[role.id].summary,
        }
        for role in game.roles
    ]


def roles_text(game: Game, lang: str, catalog: Catalog = ENGLISH) -> str:
    language = game.languages[lang]
    other = [code for code in game.languages if code != lang]
    rows = [("id", catalog.gettext("name"), *(catalog.gettext("name ({lang})").format(lang=code) for code in other),
             catalog.gettext("box"), catalog.gettext("side"), catalog.gettext("night"), "")]
    for role in game.roles:
        rows.append((role.id, language.roles[role.id].name,
                     *(game.languages[code].roles[role.id].name for code in other),
                     str(role.copies), language.sides[role.side], _wakes(game, role.id),
                     language.roles[role.id].summary))
    cards = sum(role.copies for role in game.roles)
    title = catalog.gettext("{game}: {roles} roles, {cards} cards in the box").format(
        game=game.title, roles=len(game.roles), cards=cards)
    return "\n".join([title, *table(rows)])


# --- scripts -----------------------------------------------------------------------------


def script_data(game: Game, script: NightScript, timeline: Timeline, estimated: bool) -> dict[str, Any]:
    settings = script.settings
    return {
        "game": game.id,
        "lang": settings.lang,
        "players": script.players,
        "deck": script.deck.as_dict(),
        "count_seconds": settings.count_seconds,
        "count_style": settings.count_style,
        "options": dict(settings.options),
        "timing": "estimated" if estimated else "measured",
        "length": round(timeline.length, 3),
        "phases": list(script.phases),
        "counts": [{"phase": c.phase, "start": round(c.start, 3), "seconds": c.seconds} for c in timeline.counts],
        "cues": [
            {
                "key": placed.cue.key,
                "phase": placed.cue.phase,
                "kind": "line" if isinstance(placed.cue, Line) else "tick",
                "start": round(placed.start, 3),
                "duration": round(placed.duration, 3),
                "text": placed.cue.text,
            }
            for placed in timeline.cues
        ],
    }


def script_text(game: Game, script: NightScript, timeline: Timeline, estimated: bool,
                catalog: Catalog = ENGLISH) -> str:
    settings = script.settings
    language = game.languages[settings.lang]
    values = {"game": game.title, "night": settings.night, "players": script.players, "language": language.name,
              "seconds": settings.count_seconds, "style": settings.count_style}
    if game.many_nights:
        heading = catalog.gettext("{game}: night {night} for {players} players, in {language}, count {seconds} s "
                                  "({style})").format(**values)
    else:
        heading = catalog.gettext("{game}: the night for {players} players, in {language}, count {seconds} s "
                                  "({style})").format(**values)
    out = [heading]
    if estimated:
        out.append(catalog.gettext("Times are estimates until the lines are recorded."))
    width = max((len(cue.key) for cue in script.cues()), default=0)
    starts = iter(placed.start for placed in timeline.cues)  # in the script's order
    phase = None
    for segment in script.segments:
        if segment.phase != phase:
            phase = segment.phase
            out.append("")
            if phase in script.phases:
                out.append(f"{script.phases.index(phase) + 1}. "
                           f"{language.slot_name(game.slot(phase), game.slot(phase).cards(script.deck.as_dict()))}")
        if isinstance(segment, Line):
            out.append(_cue_row(next(starts), segment.key, segment.text, width))
        else:
            out += _count_rows(segment, starts, width, catalog)
    out += ["", catalog.gettext("Night length: {length}").format(length=clock(timeline.length))]
    return "\n".join(out)


def _cue_row(start: float | None, key: str, text: str, width: int) -> str:
    return f"  {clock(start) if start is not None else '':>7}  {key:<{width}}  {text}"


def _count_rows(count: Count, starts, width: int, catalog: Catalog) -> list[str]:
    """The ticks said aloud, and one row for each run of seconds counted in silence."""
    ticks = {tick.second: tick for tick in count.ticks}
    aloud = set(ticks)
    rows: list[str] = []
    silent: list[int] = []
    for second in range(1, count.seconds + 2):
        if second in aloud or second > count.seconds:
            if silent:
                if len(silent) == 1:
                    said = catalog.gettext("(second {second} counted in silence)").format(second=silent[0])
                else:
                    said = catalog.gettext("(seconds {first}-{last} counted in silence)").format(
                        first=silent[0], last=silent[-1])
                rows.append(_cue_row(None, "...", said, width))
                silent = []
            if second in aloud:
                rows.append(_cue_row(next(starts), ticks[second].key, ticks[second].text, width))
        else:
            silent.append(second)
    return rows


def _wakes(game: Game, role_id: str, deck: Deck | None = None) -> str:
    """The numbers of every turn that calls the role (for a deck: the turns it calls), or "-"."""
    slots = game.night.slots if deck is None else game.slots_of_any_night(deck.role_ids, game.option_defaults)
    numbers = [str(slot.number) for slot in slots if role_id in slot.roles and not slot.silent]
    return ", ".join(numbers) or "-"


def table(rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows as aligned columns, indented by two spaces (the first row is the header)."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]
