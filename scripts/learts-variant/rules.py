"""LeartS' variant's rules (shared/rules/learts-variant.md), on the contract of a game of many
nights (``narrator.core.nights``): houses and movements, the cacciatore's shots, the lupi's
attacks on houses, the lovers, the martire, the sindaco, the becchino, the open vote with a runoff
of the tied, and the end.

Pure functions: the game, the state and the night's (or the day's) entries in; values out. The
game's own state (``state.own``): the lovers' choice, whether the sindaco's pardon is spent, who
was burned the day before, and the lovers who will kill themselves at the next dawn (``notes``
tells the moderator the last, a faithful couple and a pardon spent).
"""

from collections.abc import Mapping, Sequence
from typing import Any

from narrator.core.card import Block
from narrator.core.deck import Deck
from narrator.core.game import Game, Language
from narrator.core.procedures import OpenVote, Procedure, Said, Verdict, said, tally_text
from narrator.core.state import Ask, Dawn, Dusk, State
from narrator.core.vote import Sentences

VILLAGE, WOLVES = "villaggio", "lupi"  # game.yaml's sides
ENDS = (VILLAGE, WOLVES)
ROLE_FIELDS = {"lupo": "flag", "rank": "count", "dark": "flag", "puritan": "flag", "prowler": "flag"}

COURTESAN, GUARD, THIEF, HUNTER = "cortigiana", "guardia", "ladro", "cacciatore"
LOVER, MARTYR, MAYOR, UNDERTAKER = "amante", "martire", "sindaco", "becchino"
NOSY, MEDIUM, LOVERS, PACK = "ficcanaso", "medium", "amanti", "lupi"
OPEN, MONOGAMOUS = "aperta", "monogama"

# The game record's keys (the digest's ACTION KEYS): the turns' ids.
NIGHT_KEYS = {MARTYR: "player", LOVERS: "choice", COURTESAN: "player", GUARD: "player", THIEF: "player",
              PACK: "each", NOSY: "player", MEDIUM: "player", UNDERTAKER: "told"}
DAY_KEYS = {MAYOR: "player"}
ANSWERS = {COURTESAN: ("accolta", "respinta"), NOSY: ("a-casa", "fuori"), MEDIUM: ("oscura", "chiara"),
           UNDERTAKER: ("oscura", "chiara")}
VOTE_KEYS = {"vote": "votes", "runoff": "runoff"}
END_AFTER = ("dawn", "day")  # after every dawn and every day

SENTENCES = ("round_vote", "round_tie", "votes", "tie", "runoff", "burned", "spared", "dawn_dead", "revived",
             "reason_shot", "reason_eaten", "reason_guarded", "reason_empty", "reason_hunter", "reason_grief",
             "reason_spirit", "reason_revived", "reason_pardoned",
             "ask_sindaco", "ask_amanti", "choice_monogama", "choice_aperta", "place_out", "place_at",
             "note_grief", "note_monogama", "note_pardoned", "idle_engaged")
CARD_TEXTS = ("vote", "vote_text", "vote_ties", "vote_sindaco", "houses", "houses_text", "houses_hunter",
              "houses_lovers", "houses_martyr", "end", "end_sides")


# --- who is who ------------------------------------------------------------------------------------

def _role(game, state, name):
    return game.role(state.cards[name])


def _is_lupo(game, state, name):
    return bool(_role(game, state, name).trait("lupo"))


def _holder(state, role_id):
    """The living player who holds ``role_id`` (a card of one copy), or None."""
    held = state.holders(role_id)
    return held[0] if held else None


def choosing_lupi(game, state):
    """The two highest-ranked living lupi (equal ranks by seating order): they choose the houses."""
    lupi = [name for name in state.living if _is_lupo(game, state, name)]
    lupi.sort(key=lambda name: (_role(game, state, name).trait("rank"), state.seating.index(name)))
    return tuple(lupi[:2])


def _partner(state, name):
    return next((other for other in state.seating if other != name and state.cards[other] == LOVER), None)


def _turns_away(game, state, client, tonight):
    """The cortigiana is turned away by a lupo, a puritano, and a lover of a monogamous couple
    (the lovers choose on the first night, before her turn)."""
    role = _role(game, state, client)
    couple = tonight.get(LOVERS) or state.own["lovers"]
    return bool(role.trait("lupo") or role.trait("puritan") or (state.cards[client] == LOVER and couple == MONOGAMOUS))


def _aura(game, state, name):
    return "oscura" if _role(game, state, name).trait("dark") else "chiara"


# --- the night's movements -------------------------------------------------------------------------

def _engaged(game, state, tonight):
    """The client the cortigiana was let in by, if she was."""
    client = tonight.get(COURTESAN)
    if client is None or _holder(state, COURTESAN) is None or _turns_away(game, state, client, tonight):
        return None
    return client


def _houses(game, state, tonight):
    """Where every living player spends the night: player -> the owner of the house (None: out,
    in no house). The lupi go out first; the choosers are at their victims' houses."""
    where = {name: name for name in state.living}
    for name in state.living:
        if _is_lupo(game, state, name):
            where[name] = None
    client = _engaged(game, state, tonight)
    if client is not None:
        where[_holder(state, COURTESAN)] = client
    for role_id in (GUARD, THIEF):
        holder, house = _holder(state, role_id), tonight.get(role_id)
        if holder is not None and house is not None and holder != client:
            where[holder] = house
    for lupo, house in (tonight.get(PACK) or {}).items():
        where[lupo] = house
    return where


def places(game: Game, state: State, tonight: Mapping[str, Any]) -> Mapping[str, str | None]:
    """Who is away from home tonight, and where (None: out, in no house)."""
    return {name: house for name, house in _houses(game, state, tonight).items() if house != name}


# --- the night -------------------------------------------------------------------------------------

def start(game: Game, state: State) -> State:
    return state.kept(lovers=OPEN, pardoned=False, burned=None, grief=[])


def calls(game: Game, state: State, turn: str) -> bool:
    """A dead character's turn is not called, except the Martire's, the night after his burning;
    the Becchino's only after a day that burned someone."""
    if turn == MARTYR:
        burned = state.own["burned"]
        assert state.cards is not None  # a game with a moderator, always
        return burned is not None and state.cards[burned] == MARTYR
    holders = state.holders(game.slot(turn).roles)
    if turn == UNDERTAKER:
        return bool(holders) and state.own["burned"] is not None
    return bool(holders)


def ask(game: Game, state: State, turn: str, tonight: Mapping[str, Any]) -> Ask | None:
    if turn == MARTYR:
        martyr = state.own["burned"]
        if state.options.get("martire-protezione"):
            candidates = state.living
        else:
            candidates = tuple(name for name in state.dead if name != martyr)
        return Ask(MARTYR, "player", (martyr,), tuple(sorted(candidates, key=state.seating.index))) if candidates \
            else None
    if turn not in NIGHT_KEYS:
        return None
    choosers = state.holders(game.slot(turn).roles)
    if not choosers:
        return None
    if turn == LOVERS:
        return Ask(LOVERS, "choice", choosers, choices=(MONOGAMOUS, OPEN)) if state.options.get("amanti-scelgono") \
            else None
    if turn == UNDERTAKER:
        return Ask(UNDERTAKER, "told", choosers, about=state.own["burned"])
    if turn in (GUARD, THIEF) and _engaged(game, state, tonight) in choosers:
        return None  # engaged with the cortigiana: he does not act
    others = tuple(name for name in state.living if name not in choosers)
    if turn == PACK:
        lupi = choosing_lupi(game, state)
        return Ask(PACK, "each", lupi, tuple(name for name in others if not _is_lupo(game, state, name)))
    return Ask(turn, "player", choosers, others)


def idle(game: Game, state: State, turn: str, tonight: Mapping[str, Any]) -> Said | None:
    """The guardia or the ladro the cortigiana visited stays home with her: said, not only skipped."""
    client = _engaged(game, state, tonight)
    if turn in (GUARD, THIEF) and client is not None and client in state.holders(game.slot(turn).roles):
        return said("idle_engaged", name=client)
    return None


def answer(game: Game, state: State, ask: Ask, value: Any, tonight: Mapping[str, Any]) -> str | None:
    if ask.key == UNDERTAKER:
        return _aura(game, state, ask.about)
    if value is None or ask.key not in ANSWERS:
        return None
    if ask.key == COURTESAN:
        return "respinta" if _turns_away(game, state, value, tonight) else "accolta"
    if ask.key == MEDIUM:
        return _aura(game, state, value)
    return "a-casa" if _houses(game, state, tonight)[value] == value else "fuori"


def dawn(game: Game, state: State, tonight: Mapping[str, Any]) -> Dawn:
    """The dawn in the digest's order: places, the cacciatore's shots, the attacks, the lovers'
    grief, the martire; the dead in seating order, each with why."""
    where = _houses(game, state, tonight)
    chosen = tonight.get(MARTYR)
    spirit = chosen if chosen is not None and state.options.get("martire-protezione") else None
    dead, reasons = set(), []

    def dies(name, reason):
        if name == spirit:
            reasons.append(("spirit", name))
        elif name not in dead:
            dead.add(name)
            reasons.append((reason, name))

    hunter = _holder(state, HUNTER)
    hunter_awake = hunter is not None and _engaged(game, state, tonight) != hunter
    if hunter_awake:
        for name, house in where.items():
            if house == hunter and name != hunter and _role(game, state, name).trait("prowler"):
                dies(name, "shot")
    guard = _holder(state, GUARD)
    guarded = where.get(guard) if guard is not None and guard not in dead and where.get(guard) != guard else None
    for house in dict.fromkeys((tonight.get(PACK) or {}).values()):  # two lupi at one house kill once
        if hunter_awake and house == hunter:
            reasons.append(("hunter", house))  # the lupo who entered was shot; the cacciatore is safe
            continue
        inside = [name for name, at in where.items() if at == house and not _is_lupo(game, state, name)]
        attackers = [lupo for lupo, target in tonight[PACK].items() if target == house]
        if all(lupo in dead for lupo in attackers):
            continue  # a shot lupo attacks nobody
        if guarded == house:
            reasons.append(("guarded", house))
        elif not inside:
            reasons.append(("empty", house))
        else:
            for name in inside:
                dies(name, "eaten")
    for lover in state.own["grief"]:
        if lover in state.living and lover not in dead:
            dies(lover, "grief")
    after = state.died(sorted(dead, key=state.seating.index))
    revived = ()
    if chosen is not None and spirit is None:
        revived = (chosen,)
        after = after.revived(revived)
        reasons.append(("revived", chosen))
    died = tuple(name for name in state.seating if name in dead)
    grief = _grieving(state, died, after)
    lovers = tonight.get(LOVERS) or state.own["lovers"]
    return Dawn(after.kept(grief=grief, burned=None, lovers=lovers), died, tuple(reasons), revived)


def _grieving(state, died, after):
    """The lovers who will kill themselves at the next dawn: a partner of a lover who died (not by
    his own hand), alive now, who did not die with him."""
    grieving = []
    for name in died:
        if state.cards[name] != LOVER or name in state.own["grief"]:
            continue  # a suicide grieves nobody
        partner = _partner(state, name)
        if partner is not None and partner in after.living and partner not in died:
            grieving.append(partner)
    return grieving


# --- the day ---------------------------------------------------------------------------------------

def day(game: Game, state: State) -> OpenVote:
    """Every living player votes openly for a living player; a tie is voted again by the others,
    and a second tie burns nobody."""
    return OpenVote(state.living, state.living)


def day_asks(game: Game, state: State, lynched: str | None, votes: Mapping[str, Mapping[str, str]]) -> Sequence[Ask]:
    """The sindaco, once per game, may save the player about to be burned."""
    mayor = _holder(state, MAYOR)
    if lynched is None or mayor is None or state.own["pardoned"]:
        return ()
    return (Ask(MAYOR, "player", (mayor,), (lynched,)),)


def dusk(game: Game, state: State, lynched: str | None, acts: Mapping[str, Any]) -> Dusk:
    if lynched is None:
        return Dusk(state.kept(burned=None))
    if acts.get(MAYOR) == lynched:
        return Dusk(state.kept(pardoned=True, burned=None), (), (("pardoned", lynched),))
    after = state.died([lynched])
    grief = [*state.own["grief"], *_grieving(state, (lynched,), after)]
    return Dusk(after.kept(burned=lynched, grief=grief), (lynched,))


def explain_day(game: Game, procedure: Procedure, verdict: Verdict, say: Sentences) -> Sequence[str]:
    """The votes, a runoff among the tied, who is burned or that nobody is."""
    if verdict.given:
        lines = []
    else:
        lines = [say("votes", tally=tally_text(verdict.tallies["vote"]))]
        if verdict.tied:
            lines.append(say("tie", names=say.join(list(verdict.tied))))
            if "runoff" in verdict.tallies:
                lines.append(say("runoff", tally=tally_text(verdict.tallies["runoff"])))
    lines.append(say("burned", name=verdict.lynched) if verdict.lynched is not None else say("spared"))
    return lines


def announce(game: Game, result: Dawn | Dusk, say: Sentences) -> Sequence[str]:
    """At dawn the dead by name and who came back; after the day, nothing more (the burning was said)."""
    if not isinstance(result, Dawn):
        return []
    lines = [say("dawn_dead", names=say.join(list(result.dead)))] if result.dead else []
    if result.revived:
        lines.append(say("revived", names=say.join(list(result.revived))))
    return lines


def notes(game: Game, state: State, say: Sentences) -> Sequence[str]:
    """What the moderator keeps in mind beyond the cards and the dead: a lover who will die of grief
    at the next dawn, a faithful couple that turns the cortigiana away (while a lover and she live),
    the sindaco's pardon spent (while he lives). Who was burned yesterday is left out: the becchino's
    answer and the martire's turn follow from it by themselves, and the dead are on the table."""
    lines = [say("note_grief", name=name) for name in state.own["grief"] if name in state.living]
    if state.own["lovers"] == MONOGAMOUS and state.holders(LOVER) and _holder(state, COURTESAN) is not None:
        lines.append(say("note_monogama"))
    if state.own["pardoned"] and _holder(state, MAYOR) is not None:
        lines.append(say("note_pardoned"))
    return lines


def game_over(game: Game, state: State) -> tuple[Sequence[str], Sequence[str]] | None:
    """The village wins when no lupo lives (also when nobody does); the lupi when the living lupi
    are at least as many as the others. The whole side wins, the dead too."""
    lupi = [name for name in state.living if _is_lupo(game, state, name)]
    others = [name for name in state.living if name not in lupi]
    if lupi and len(lupi) < len(others):
        return None
    side = WOLVES if lupi else VILLAGE
    return (side,), tuple(name for name in state.seating if _role(game, state, name).side == side)


def card_back(game: Game, language: Language, deck: Deck) -> tuple[Block, ...]:
    """How the houses work at dawn, the vote and the sindaco, the end (who changes it follows: ``card.win``)."""
    texts = language.card
    back = [Block("heading", texts["houses"]), Block("text", texts["houses_text"])]
    if HUNTER in deck.role_ids:
        back.append(Block("text", texts["houses_hunter"]))
    if LOVER in deck.role_ids:
        back.append(Block("text", texts["houses_lovers"]))
    if MARTYR in deck.role_ids:
        back.append(Block("text", texts["houses_martyr"]))
    back += [Block("heading", texts["vote"]), Block("text", texts["vote_text"]), Block("text", texts["vote_ties"])]
    if MAYOR in deck.role_ids:
        back.append(Block("text", texts["vote_sindaco"]))
    back += [Block("heading", texts["end"]), Block("text", texts["end_sides"])]
    return tuple(back)
