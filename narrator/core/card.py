"""What the printed speaker card says, for one deck: a pure function of the game and the script.

The night side is read from the same script the narrator speaks, so the card and the narration
cannot disagree. Layout and fonts are ``narrator.shell.cardpdf``'s business.
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import product

from narrator.core.deck import Deck
from narrator.core.game import Game
from narrator.core.script import INTRO_PHASE, OUTRO_PHASE, Count, Line, NightScript, ScriptSettings


@dataclass(frozen=True)
class Block:
    kind: str  # title, subtitle, heading, role, again (a turn said again: its words are at its first number), note,
    # said, text, rule
    text: str = ""
    number: int | str | None = None  # the turn's place as read down the card, 1, 2, 3..., for "role" and "again"
    detail: str = ""  # what the role does, for "role" blocks
    parts: tuple[tuple[str, bool], ...] = ()  # a "said" paragraph: (words, in bold)


@dataclass(frozen=True)
class CardContent:
    front: tuple[Block, ...]  # the deck, the setup, the night
    back: tuple[Block, ...]  # the day, then the vote as the game's rules module tells it
    continued: str = "{heading}"  # heads a section again where the page turns inside it: "{heading} (continued)"


def card_content(game: Game, deck: Deck, players: int, scripts: Sequence[NightScript],
                 day_minutes: float) -> CardContent:
    """The card for ``deck``. ``scripts`` holds the night, or for a game of many nights each night
    that differs (1, 2, ... and the last for every night from it on), each printed under its own
    heading: the moderator reads the night of the night."""
    language = game.languages[scripts[0].settings.lang]
    texts = language.card
    cards = ", ".join(f"{copies}× {language.role_name(role_id)}" for role_id, copies in deck.counts)
    if deck.apart:
        cards += " · " + language.apart + ": " + ", ".join(
            f"{copies}× {language.role_name(role_id)}" for role_id, copies in deck.apart)
    alone = game.unmoderated(deck.role_ids, scripts[0].settings.options)  # nobody to speak of as the moderator
    front = [
        Block("title", f"{game.title} · {texts['title_alone' if alone else 'title']}"),
        Block("subtitle", texts["deck"].format(players=players, cards=deck.size)),
        Block("text", cards),
        Block("note", language.setup(deck.role_ids, alone)),
    ]
    front.append(Block("heading", texts["night"]))
    front += _night(game, language, deck, scripts[0]) if len(scripts) == 1 else _nights(game, language, deck, scripts)
    back = [
        Block("heading", texts["day"]),
        Block("text", texts["day_text"].format(minutes=_minutes(day_minutes))),
        Block("said", parts=((texts["vote_call"], True),)),
    ]
    if game.rules is not None:  # the lynching and who wins: the game's own rules say it
        back += game.rules.card_back(game, language, deck)
    back += _wins(game, language, deck)
    return CardContent(tuple(front), tuple(back), texts["continued"])


def _night(game: Game, language, deck: Deck, script: NightScript) -> list[Block]:
    """One night's blocks: each turn with its number and what the role does, then the words said,
    counts marked."""
    texts = language.card
    blocks: list[Block] = []
    last_line = [seg for seg in script.segments if isinstance(seg, Line)][-1]
    for phase, parts, segment in _paragraphs(script, texts):
        if phase == INTRO_PHASE:
            blocks.append(Block("rule", texts["night_start"]))
        elif phase in script.phases:
            blocks.append(_turn(game, language, deck, phase, _next_number(blocks)))
        else:
            blocks.append(Block("rule", texts["day_break"] if segment is last_line else texts["nudge"]))
        blocks.append(Block("said", parts=parts))
    return blocks


def _nights(game: Game, language, deck: Deck, scripts: Sequence[NightScript]) -> list[Block]:
    """Every night of a game of many nights at once: each turn once, in order, and what is said
    in it, marked with the nights it is said on where that is not every night."""
    texts = language.card
    last = len(scripts)  # the last script stands for that night and every one after
    said: dict[str, dict[tuple, list[int]]] = {}  # phase -> words -> the nights they are said on
    place: dict[tuple, int] = {}  # words -> where they stand in their phase (the last night's place first)
    for number, script in enumerate(scripts, start=1):
        positions: dict[str, int] = {}
        for phase, parts, _segment in _paragraphs(script, texts):
            said.setdefault(phase, {}).setdefault(parts, []).append(number)
            position = positions[phase] = positions.get(phase, -1) + 1
            if number == last or parts not in place:
                place[parts] = position
    order = [INTRO_PHASE, *(slot.id for slot in game.night.slots if slot.id in said), OUTRO_PHASE]

    def when(nights: list[int]) -> str:
        if len(nights) == last:
            return ""
        if nights[-1] == last and nights == list(range(nights[0], last + 1)):
            return texts["night_onwards"].format(night=nights[0])
        return ", ".join(texts["night_number"].format(night=night) for night in nights)

    blocks: list[Block] = []
    printed: dict[tuple, int | str | None] = {}  # a turn as printed (its name, what it does, its words): its number
    for phase in order:
        # In the order they are said (sorted is stable: words of equal place keep the first night's first),
        # and words said on the same nights one after the other as one paragraph.
        paragraphs: list[tuple[list[int], tuple]] = []
        for parts, nights in sorted(said.get(phase, {}).items(), key=lambda item: place[item[0]]):
            if paragraphs and paragraphs[-1][0] == nights:
                paragraphs[-1] = (nights, paragraphs[-1][1] + parts)
            else:
                paragraphs.append((nights, parts))
        if phase == INTRO_PHASE:
            blocks.append(Block("rule", texts["night_start"]))
        elif phase == OUTRO_PHASE:
            blocks.append(Block("rule", texts["day_break"]))
        else:
            turn = _turn(game, language, deck, phase, _next_number(blocks))
            same = (turn.text, turn.detail, tuple((tuple(nights), parts) for nights, parts in paragraphs))
            if same in printed:  # said again, word for word: in its place, by name, its words at its first number
                blocks.append(replace(turn, kind="again", text=f"{turn.text} (= {printed[same]})", detail=""))
                continue
            printed[same] = turn.number
            blocks.append(turn)
        for nights, parts in paragraphs:
            label = when(nights)
            blocks.append(Block("said", parts=(((label + ":", True),) if label else ()) + parts))
    return blocks


def _turn(game: Game, language, deck: Deck, phase: str, number: int) -> Block:
    slot = game.slot(phase)
    return Block("role", language.slot_name(slot, slot.cards(deck.as_dict())), number, language.slot_summary(slot))


def _next_number(blocks: Sequence[Block]) -> int:
    """The number of the next turn on the card: the turns are numbered as the moderator reads them,
    1, 2, 3... without gaps, not by the rulebook's numbers, which skip the turns a deck leaves out
    (issue 39, point 11: "7, 9"; "8a" read before "8")."""
    return 1 + sum(block.kind in ("role", "again") for block in blocks)


def _paragraphs(script: NightScript, texts) -> list[tuple[str, tuple[tuple[str, bool], ...], object]]:
    """The night as paragraphs: (phase, words said with counts marked in bold, the paragraph's
    first segment). The lines after the turns are a paragraph each."""
    out: list[tuple[str, tuple[tuple[str, bool], ...], object]] = []
    phase: str | None = None  # none before the first segment, when nothing is said yet
    first: object = None
    said: list[tuple[str, bool]] = []
    for segment in script.segments:
        if segment.phase != phase or (phase == OUTRO_PHASE and isinstance(segment, Line)):
            if said and phase is not None:
                out.append((phase, tuple(said), first))
            phase, first, said = segment.phase, segment, []
        if isinstance(segment, Count):
            said.append((f"▸ {texts['count'].format(seconds=segment.seconds)} ▸", True))
        else:
            said.append((segment.text, False))
    if said and phase is not None:
        out.append((phase, tuple(said), first))
    return out


def _wins(game: Game, language, deck: Deck) -> list[Block]:
    """Last on the back, the deck's roles that change who wins, as the language's ``card.win`` says."""
    special = [role.id for role in game.roles if role.id in deck.role_ids and role.id in language.card_wins]
    if not special:
        return []
    return [Block("heading", language.card["wins"]),
            *(Block("role", language.role_name(role_id), detail=language.card_wins[role_id]) for role_id in special)]


def _minutes(minutes: float) -> str:
    return str(int(minutes)) if float(minutes).is_integer() else f"{minutes:g}"


def day_minutes(game: Game) -> float:
    """The day's length the back prints unless told: the game's own, or five minutes for a game
    that has no timed day."""
    return game.day.seconds / 60 if game.day is not None else 5


def deck_card(game: Game, deck: Deck, players: int, settings: ScriptSettings,
              minutes: float | None = None) -> CardContent:
    """The card of ``deck`` with these settings, every night the deck's nights differ on, and a
    day of ``minutes`` (the game's own when None)."""
    from narrator.core.script import night_scripts

    return card_content(game, deck, players, night_scripts(game, deck, settings),
                        day_minutes(game) if minutes is None else minutes)


def variant_settings(game: Game, players: int, lang: str) -> tuple[ScriptSettings, ...]:
    """The settings of every combination of the game's options that ``players`` may play."""
    from narrator.core.script import settings_for

    names = list(game.option_defaults)
    combinations = (dict(zip(names, values, strict=True)) for values in product((False, True), repeat=len(names)))
    return tuple(settings_for(game, lang, options=options) for options in combinations
                 if all(not on or game.option_players.get(name, players) == players for name, on in options.items()))


def richest_card(game: Game, players: int, lang: str) -> tuple[Deck, ScriptSettings]:
    """The deck of ``players`` and the options (a variant) whose card says the most, as near as a
    quick search finds them: it measures how small the card's type must get (dev/card_sizes.py,
    the tests)."""
    from narrator.core.errors import NarratorError

    candidates = []
    for settings in variant_settings(game, players, lang):
        try:
            candidates.append((richest_deck(game, players, settings), settings))
        except NarratorError:  # options this many players cannot play (one moon seats 19 at most)
            continue
    return max(candidates, key=lambda candidate: card_length(deck_card(game, candidate[0], players, candidate[1])))


DRAWS_SEARCHED = 200  # a game that draws its set: the richest card among this many draws


def richest_deck(game: Game, players: int, settings: ScriptSettings) -> Deck:
    """The legal deck of ``players`` whose card says the most with ``settings``, as near as a quick
    search finds it: the box's cards taken richest first (by how much less the card of a deck of
    every card says without them), their other copies after, the deck's rules keeping it legal."""
    from narrator.core.deck import deck_units, first_legal_deck, make_deck

    def length(counts: dict[str, int]) -> int:
        return card_length(deck_card(game, make_deck(game, counts), players, settings))

    if game.draws_set:  # the rules' own draw: the richest of many sets it deals
        import random

        from narrator.core.deck import build_deck

        drawn = {deck.counts: deck for deck in (build_deck(game, players=players, rng=random.Random(seed),
                                                          options=settings.options)[0]
                                               for seed in range(DRAWS_SEARCHED))}  # each set measured once
        return max(drawn.values(), key=lambda deck: length(deck.as_dict()))

    box = {role.id: role.copies for role in game.roles}
    every = length(box)
    gain = {role.id: every - length({**box, role.id: 0}) for role in game.roles}
    units = deck_units(game)
    first = sorted(dict.fromkeys(units), key=lambda unit: -gain[unit[0]])  # stable: the catalog's order on a tie
    rest = list(units)
    for unit in first:
        rest.remove(unit)
    deck = first_legal_deck(game, players, [*first, *rest])
    if deck is None:  # a game's data is checked to make a deck for every player count: never
        raise ValueError(f"no legal deck of {players} players in {game.id}")
    return deck


def card_length(content: CardContent) -> int:
    """How much a card says: the characters of every block."""
    return sum(len(block.text) + len(block.detail) + len(str(block.number or "")) +
               sum(len(words) for words, _bold in block.parts) for block in (*content.front, *content.back))
