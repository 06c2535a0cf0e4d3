"""The night as an ordered script: a pure function of the game, the deck and the settings.

The script is a sequence of segments: spoken ``Line``s, and ``Count`` windows holding the
``Tick``s said aloud. Timing is kept as relations, not clock times: a count window starts when
the line before it ends and lasts exactly its seconds; ticks sit on whole seconds inside it; every
other line starts when the one before it (and its pause) ends. ``narrator.core.timeline`` turns this
into start times once the length of each spoken line is known (estimated, or measured by audio).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from narrator.core.choices import COUNT_STYLES
from narrator.core.deck import Deck, players_for
from narrator.core.errors import NarratorError
from narrator.core.game import END_LINE, NO_SIDE_LINE, NOBODY_DIED_LINE, CountStep, Game, LineStep, Step
from narrator.core.i18n import msg

INTRO_PHASE = "night"
OUTRO_PHASE = "dawn"


@dataclass(frozen=True)
class Line:
    """A spoken line. ``key`` names the line in the language files and in voice packs."""

    key: str
    text: str
    phase: str
    pause_after: float


@dataclass(frozen=True)
class Tick:
    """A second of a count said aloud, ``second`` seconds (1-based) into its window."""

    key: str
    text: str
    phase: str
    second: int


@dataclass(frozen=True)
class Count:
    """The window in which a called role acts, ``seconds`` long."""

    phase: str
    seconds: int
    ticks: tuple[Tick, ...]


Segment = Line | Count
Cue = Line | Tick


@dataclass(frozen=True)
class ScriptSettings:
    lang: str
    count_seconds: int
    count_style: str = "edges"
    options: Mapping[str, bool] = field(default_factory=lambda: MappingProxyType({}))
    slot_seconds: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))  # --seconds SLOT=S
    night: int = 1  # which night of a game of many nights (turns may depend on it)
    skip: frozenset[str] = frozenset()  # turns the game's rules leave out tonight (a dead character's, say)


@dataclass(frozen=True)
class NightScript:
    game_id: str
    players: int
    deck: Deck
    settings: ScriptSettings
    phases: tuple[str, ...]  # the wake slots called that say something, in order
    segments: tuple[Segment, ...]

    def cues(self) -> tuple[Cue, ...]:
        """Every line and tick, in the order they are said."""
        out: list[Cue] = []
        for segment in self.segments:
            out.extend(segment.ticks if isinstance(segment, Count) else (segment,))
        return tuple(out)


def settings_for(game: Game, lang: str, count_seconds: int | None = None, count_style: str = "edges",
                 options: Mapping[str, bool | None] | None = None,
                 slot_seconds: Mapping[str, int] | None = None, night: int = 1) -> ScriptSettings:
    """Checked settings: unknown language, style or option, a count out of range, or a night past
    the first of a one-night game, is refused."""
    if lang not in game.languages:
        raise NarratorError(msg("no narration in language '{lang}': choose one of {languages}", lang=lang,
                                 languages=", ".join(sorted(game.languages))))
    if count_style not in COUNT_STYLES:
        raise NarratorError(msg("no count style '{style}': choose one of {styles}", style=count_style,
                                 styles=", ".join(COUNT_STYLES)))
    seconds = game.count.default if count_seconds is None else count_seconds
    if not game.count.minimum <= seconds <= game.count.maximum:
        raise NarratorError(msg("the count lasts {low} to {high} seconds, not {seconds}: choose --count-seconds in "
                                "that range", low=game.count.minimum, high=game.count.maximum, seconds=seconds))
    chosen = dict(game.option_defaults)
    for name, value in (options or {}).items():
        if name not in chosen:
            raise NarratorError(msg("no narration option '{option}' in {game}: {options}", option=name,
                                    game=game.title, options=", ".join(chosen) or msg("it has none")))
        if value is not None:
            chosen[name] = value
    turns = {slot.id for slot in game.night.slots}
    for slot_id, slot_value in (slot_seconds or {}).items():
        if slot_id not in turns:
            raise NarratorError(msg("no turn '{slot}' in the night of {game}: choose one of {slots}", slot=slot_id,
                                    game=game.title, slots=", ".join(slot.id for slot in game.night.slots)))
        if not game.count.minimum <= slot_value <= game.count.maximum:
            raise NarratorError(msg("the count lasts {low} to {high} seconds, not {seconds}: choose --seconds "
                                    "{slot}=S in that range", low=game.count.minimum, high=game.count.maximum,
                                    seconds=slot_value, slot=slot_id))
    if night < 1:
        raise NarratorError(msg("night {night}: nights are numbered from 1", night=night))
    if night > 1 and not game.many_nights:
        raise NarratorError(msg("{game} plays a single night: leave out the night's number", game=game.title))
    return ScriptSettings(lang, seconds, count_style, MappingProxyType(chosen),
                          MappingProxyType(dict(slot_seconds or {})), night)


def turn_count(game: Game, settings: ScriptSettings, slot_id: str) -> int:
    """A turn's count: as asked for it, else the chosen count times the turn's factor (at most the
    longest count the game has words for)."""
    if slot_id in settings.slot_seconds:
        return settings.slot_seconds[slot_id]
    factor = next((slot.seconds_factor for slot in game.night.slots if slot.id == slot_id), 1)
    return min(settings.count_seconds * factor, game.count.maximum)


def generate_script(game: Game, deck: Deck, settings: ScriptSettings) -> NightScript:
    """The night for ``deck``: intro, every turn of the night the deck calls, in order, daybreak.

    Roles are called whether their cards were dealt or not (they may lie in the centre or the
    box), so that silence never tells anyone what is in play.
    """
    language = game.languages[settings.lang]
    roles = game.turn_roles(deck.as_dict(), settings.options, dict(deck.possible))
    called = tuple(slot for slot in game.called_slots(roles, settings.options, settings.night)
                   if slot.id not in settings.skip)
    sections: list[tuple[str, tuple[Step, ...], str | None]] = [(INTRO_PHASE, game.night.before, None)]
    sections += [(slot.id, game.slot_steps(slot), slot.id) for slot in called]
    sections.append((OUTRO_PHASE, game.night.after, None))

    segments: list[Segment] = []
    for phase, steps, role_id in sections:
        section: list[Segment] = []
        for step in steps:
            if step.when is not None and not step.when.holds(roles, settings.options, settings.night):
                continue
            if isinstance(step, CountStep):
                section.append(_count(phase, turn_count(game, settings, phase), settings, game.count,
                                      language.line))
            else:
                key = line_key(step, role_id)
                section.append(Line(key, language.line(key), phase, _pause(game, step, section_end=False)))
        _end_section(game, section, steps)
        segments.extend(section)
    segments = _breath_before_counts(segments, game.gap_before_count)
    if segments and isinstance(segments[-1], Line):
        segments[-1] = replace(segments[-1], pause_after=0.0)
    heard = {segment.phase for segment in segments}
    return NightScript(game.id, players_for(game, deck), deck, settings,
                       tuple(slot.id for slot in called if slot.id in heard), tuple(segments))


def night_scripts(game: Game, deck: Deck, settings: ScriptSettings) -> tuple[NightScript, ...]:
    """Every night that differs, from the first: for a game of many nights nights 1 to its horizon
    (the last standing for every night after it); for a single-night game, its night."""
    return tuple(generate_script(game, deck, replace(settings, night=night))
                 for night in range(1, game.night_horizon + 1))


def spoken_seconds(seconds: int, style: str, first: int, last: int) -> tuple[int, ...]:
    """Which seconds of a count are said aloud in ``style``; ``edges`` says ``first`` and ``last``."""
    if style == "silent":
        return ()
    if style == "full" or seconds <= first + last:
        return tuple(range(1, seconds + 1))
    return tuple(range(1, first + 1)) + tuple(range(seconds - last + 1, seconds + 1))


def _count(phase: str, seconds: int, settings: ScriptSettings, limits, line_text) -> Count:
    aloud = spoken_seconds(seconds, settings.count_style, limits.aloud_first, limits.aloud_last)
    ticks = tuple(Tick(f"count.{n}", line_text(f"count.{n}"), phase, n) for n in aloud)
    return Count(phase, seconds, ticks)


def _pause(game: Game, step: LineStep, section_end: bool) -> float:
    if step.pause_after is not None:
        return step.pause_after
    return game.gap_between_phases if section_end else game.gap_after_line


def _end_section(game: Game, section: list[Segment], steps: tuple[Step, ...]) -> None:
    """The last line of a section gets the longer gap between phases, unless its step sets one."""
    if section and isinstance(section[-1], Line):
        last = section[-1]
        step = next(s for s in reversed(steps) if isinstance(s, LineStep) and _key_matches(s.key, last))
        section[-1] = replace(last, pause_after=_pause(game, step, section_end=True))


def _key_matches(template: str, line: Line) -> bool:
    return template.format(slot=line.phase) == line.key


def line_key(step: LineStep, slot_id: str | None) -> str:
    """A step's line key; in a turn of the night, ``{slot}`` stands for the turn's id."""
    return step.key.format(slot=slot_id) if slot_id else step.key


def _breath_before_counts(segments: list[Segment], breath: float) -> list[Segment]:
    """A count starts ``breath`` seconds after the line before it ends (the game's gap before a
    count), so that its first number is not run into the instruction."""
    return [replace(seg, pause_after=breath) if isinstance(seg, Line) and isinstance(nxt, Count) else seg
            for seg, nxt in zip(segments, segments[1:] + [None], strict=True)]


def every_line_key(game: Game) -> list[str]:
    """Every line key the game can say, whatever the deck: the night's, the day's, the count."""
    keys: list[str] = []
    sections = [(game.night.before, None)] + [(game.slot_steps(slot), slot.id) for slot in game.night.slots]
    sections.append((game.night.after, None))
    for steps, slot_id in sections:
        keys += [line_key(step, slot_id) for step in steps if isinstance(step, LineStep)]
    if game.day is not None:
        from narrator.core.day import day_line_keys

        keys += day_line_keys(game.day)
    if game.plays_rounds:
        keys += round_line_keys(game)
    return keys + list(count_line_keys(game))


def round_line_keys(game: Game) -> list[str]:
    """The lines of a game played to the end that name nobody: no death at dawn, each end."""
    return [NOBODY_DIED_LINE, *(END_LINE.format(winner=winner) for winner in game.nights_rules.ENDS),
            *([NO_SIDE_LINE] if getattr(game.rules, "END_WITHOUT_SIDE", False) else [])]


# A count's word longer than this runs into the next second's when every second is spoken: text-to-
# speech says it faster to fit, and a recorded one is named so that the reader says it again quicker.
COUNT_WORD_SECONDS = 0.8


def count_line_keys(game: Game) -> tuple[str, ...]:
    """The keys of the count's words: a number each, from one to the longest count."""
    return tuple(f"count.{n}" for n in range(1, game.count.maximum + 1))


def every_line(game: Game, lang: str) -> tuple[tuple[str, str], ...]:
    """Every line the game can say in ``lang``: (key, text), the lines a voice pack needs."""
    language = game.languages[lang]
    return tuple((key, language.line(key)) for key in every_line_key(game))
