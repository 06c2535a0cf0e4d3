"""What the printed speaker card says, for one deck: a pure function of the game and the script.

The night side is read from the same script the narrator speaks, so the card and the narration
cannot disagree. Layout and fonts are ``narrator.shell.cardpdf``'s business.
"""

from dataclasses import dataclass

from narrator.core.deck import Deck
from narrator.core.game import Game
from narrator.core.script import INTRO_PHASE, OUTRO_PHASE, Count, Line, NightScript


@dataclass(frozen=True)
class Block:
    kind: str  # title, subtitle, heading, role, note, said, text, rule
    text: str = ""
    number: int | str | None = None  # the turn's number in the rulebook, for "role" blocks
    detail: str = ""  # what the role does, for "role" blocks
    parts: tuple[tuple[str, bool], ...] = ()  # a "said" paragraph: (words, in bold)


@dataclass(frozen=True)
class CardContent:
    front: tuple[Block, ...]  # the deck, the setup, the night
    back: tuple[Block, ...]  # the day, then the vote as the game's rules module tells it


def card_content(game: Game, deck: Deck, players: int, script: NightScript, day_minutes: float) -> CardContent:
    language = game.languages[script.settings.lang]
    texts = language.card
    cards = ", ".join(f"{copies}× {language.role_name(role_id)}" for role_id, copies in deck.counts)
    if deck.apart:
        cards += " · " + language.apart + ": " + ", ".join(
            f"{copies}× {language.role_name(role_id)}" for role_id, copies in deck.apart)
    front = [
        Block("title", f"{game.title} · {texts['title']}"),
        Block("subtitle", texts["deck"].format(players=players, cards=deck.size)),
        Block("text", cards),
        Block("note", language.setup(deck.role_ids)),
        Block("heading", texts["night"]),
    ]
    last_line = [seg for seg in script.segments if isinstance(seg, Line)][-1]
    said: list[tuple[str, bool]] = []

    def close_paragraph():
        if said:
            front.append(Block("said", parts=tuple(said)))
            said.clear()

    phase = None
    for segment in script.segments:
        if segment.phase != phase or (phase == OUTRO_PHASE and isinstance(segment, Line)):
            close_paragraph()
            phase = segment.phase
            if phase == INTRO_PHASE:
                front.append(Block("rule", texts["night_start"]))
            elif phase in script.phases:
                slot = game.slot(phase)
                front.append(Block("role", language.slot_name(slot, slot.cards(deck.as_dict())),
                                   slot.number, language.slot_summary(slot)))  # the rulebook's number
            else:
                front.append(Block("rule", texts["day_break"] if segment is last_line else texts["nudge"]))
        if isinstance(segment, Count):
            said.append((f"▸ {texts['count'].format(seconds=segment.seconds)} ▸", True))
        else:
            said.append((segment.text, False))
    close_paragraph()
    back = [
        Block("heading", texts["day"]),
        Block("text", texts["day_text"].format(minutes=_minutes(day_minutes))),
        Block("said", parts=((texts["vote_call"], True),)),
    ]
    if game.rules is not None:  # the lynching and who wins: the game's own rules say it
        back += game.rules.card_back(game, language, deck)
    return CardContent(tuple(front), tuple(back))


def _minutes(minutes: float) -> str:
    return str(int(minutes)) if float(minutes).is_integer() else f"{minutes:g}"
