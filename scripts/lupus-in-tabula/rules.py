"""Lupus in Tabula's rules (shared/rules/lupus-in-tabula.md), on the contract of a game of many
nights (``narrator.core.nights``): the night's asks, the dawn, the day's two rounds (the core's
``NominationRunoff``, with the ghosts, the Benvenuto, the gufato and La Minaccia Fantasma's marks) and
the end. The vote's explanation and the votes file of ``narrate votes`` use the game's own words
(see the README)."""

from dataclasses import replace

from narrator.core.card import Block
from narrator.core.procedures import NominationRunoff
from narrator.core.runoff import DayOutcome, DayVote, day_from_data, tally_text
from narrator.core.state import Ask, Dawn, Dusk

ROLE_FIELDS = {"wolf": "flag", "mannaro": "flag", "survives_wolves": "flag", "dies_if_seen": "flag",
               "wins_alone_alive": "flag", "kills_from": "count",
               "copyable": "flag"}
SENTENCES = ("nomination", "forced", "tie_sword", "tie_shield", "tie_anchor", "tie_unheld", "suspects", "ballot",
             "lynched",
             "dawn_dead", "anchor",  # said aloud in a game
             "reason_eaten", "reason_protected", "reason_survived", "reason_seen", "reason_owl",  # for the moderator
             "mark_plus", "mark_minus", "ask_fantasmi_sword", "ask_fantasmi_shield",  # La Minaccia Fantasma
             "note_gufato", "note_sword", "note_shield")  # the moderator's notes
CARD_TEXTS = ("vote", "vote_nomination", "vote_forced", "vote_ballot", "vote_ties", "end", "end_sides")
END_AFTER = ("dawn", "day")  # after every death (the digest's "The end")
# The votes file's fields for each part of the day (narrator.core.runoff.LABELS).
FIELDS = {"seating": "seating", "dead": "ghosts", "anchor": "benvenuto", "forced": "gufato", "plus": "sword",
          "minus": "shield", "nomination": "nomination", "runoff": "ballot"}


def read_day(game, data, source: str) -> DayVote:
    return day_from_data(data, FIELDS, source)


def explain_votes(game, vote: DayVote, outcome: DayOutcome, say) -> list[str]:
    """The result, a sentence per step: the nomination's votes, how the two indiziati were
    found, the ballottaggio's votes, who is lynched."""
    def tie(reason):
        if reason == "anchor":
            return say("tie_anchor", anchor=vote.anchor) if vote.anchor else say("tie_unheld")
        return say("tie_sword", name=vote.plus) if reason == "plus" else say("tie_shield", name=vote.minus)

    lines = [say("nomination", tally=tally_text(outcome.nomination))]
    for stage, reason in outcome.steps:
        if stage == "nomination":
            lines.append(say("forced", name=vote.forced) if reason == "forced" else tie(reason))
    lines.append(say("suspects", names=say.join(list(outcome.suspects))))
    lines.append(say("ballot", tally=tally_text(outcome.runoff)))
    lines += [tie(reason) for stage, reason in outcome.steps if stage == "runoff"]
    lines.append(say("lynched", name=outcome.lynched))
    return lines


def day_as_dict(outcome: DayOutcome, explanation: list[str]) -> dict:
    """The result for programs, in the votes file's words."""
    return {"nomination": dict(outcome.nomination), "indiziati": list(outcome.suspects),
            "ballot": dict(outcome.runoff), "lynched": outcome.lynched, "explanation": explanation}


def card_back(game, language, deck):
    """The day's vote and how the game ends (the characters that change the ending follow: ``card.win``)."""
    texts = language.card
    back = [Block("heading", texts["vote"]), Block("text", texts["vote_nomination"])]
    if GUFO in deck.role_ids:
        back.append(Block("text", texts["vote_forced"]))
    back += [Block("text", texts["vote_ballot"]), Block("text", texts["vote_ties"]),
             Block("heading", texts["end"]), Block("text", texts["end_sides"])]
    return tuple(back)


# --- the game of many nights (narrator.core.nights): pure, the state and the entries in ----------

HUMANS, WOLVES = "umani", "lupi"  # this game's sides (game.yaml's sides)
ENDS = (HUMANS, WOLVES, "criceto-mannaro")  # who game_over() can name as winning: the Criceto alone
GUFO, MEDIUM, MITOMANE, GHOSTS = "gufo", "medium", "mitomane", "fantasmi"
MARKS = ("sword", "shield")  # La Minaccia Fantasma: the first ghost holds the sword, the second the shield
EFFECTS = {"sword": "plus", "shield": "minus"}  # what each is to the NominationRunoff: a vote more, a vote fewer

# The game record's keys (the digest's "Game record"): the turns' ids, and the ghosts' marks.
NIGHT_KEYS = {"medium": "told", "veggente": "player", GUFO: "player", "guardia-del-corpo": "player",
              "lupo-mannaro": "player", MITOMANE: "player", GHOSTS: "each"}
DAY_KEYS: dict[str, str] = {}
ANSWERS = {"veggente": ("wolf", "not-wolf"), "medium": ("wolf", "not-wolf")}
VOTE_KEYS = {"nomination": "nomination", "runoff": "ballot"}  # the day's rounds in a game record


# No ``calls``: every turn of the deck is called, its character alive or dead (silence would tell
# who died); no ``places``: nobody leaves home; no ``day_asks``: the lynching is the day's end.


def start(game, state):
    """Nobody lynched yet, no suspect, no mark laid, nobody dead at nightfall."""
    return state.kept(lynched=[], suspect=None, marks={}, nightfall_dead=0)


def _ghosts_lay_marks(state):
    return bool(state.options.get("minaccia-fantasma")) and state.night >= 2


def ask(game, state, turn, tonight):
    """The Medium is told about yesterday's lynched; the others point at another living player;
    at the night's end the first two ghosts lay the sword and the shield (La Minaccia Fantasma)."""
    if turn == "dawn":
        holders = state.dead[:len(MARKS)]
        if not _ghosts_lay_marks(state) or not holders:
            return None
        return Ask(GHOSTS, "each", MARKS[:len(holders)], state.living, labels=holders)
    if turn not in NIGHT_KEYS:  # the Massoni only meet
        return None
    choosers = state.holders(game.slot(turn).roles)
    if not choosers:
        return None
    if turn == MEDIUM:
        lynched = state.own["lynched"]
        return Ask(turn, "told", choosers, about=lynched[-1]) if lynched else None
    if turn == "lupo-mannaro" and state.night == 1 and state.options.get("quiet-first-night"):
        return None  # the customary first night: they only meet
    return Ask(turn, "player", choosers, tuple(name for name in state.living if name not in choosers))


def answer(game, state, ask, value, tonight):
    """The Veggente's and the Medium's yes or no: is that player a Lupo Mannaro?"""
    about = ask.about if ask.kind == "told" else value
    if ask.key not in ANSWERS or about is None:
        return None
    return "wolf" if game.role(state.cards[about]).trait("wolf") else "not-wolf"


def dawn(game, state, tonight):
    """Who dies at dawn, in the order they join the ghosts (the Gufo Letale's gufato, a Criceto
    seen, the night's victim last, so that it takes the Benvenuto), and why; the Mitomane's new
    role; the gufato and the marks for the day."""
    cards = dict(state.cards)
    copied = tonight.get(MITOMANE)
    if copied is not None and game.role(cards[copied]).trait("copyable"):
        for chooser in state.holders(MITOMANE):
            cards[chooser] = cards[copied]
    living = {name: cards[name] for name in state.living}
    died, reasons = night_deaths(game, living, victim=tonight.get("lupo-mannaro"),
                                 protected=tonight.get("guardia-del-corpo"), seen=tonight.get("veggente"),
                                 gufato=tonight.get(GUFO), players=len(state.seating))
    after = replace(state, cards=state.cards if cards == dict(state.cards) else cards).died(died)
    alive = set(after.living)
    marks = {mark: name for mark, name in (tonight.get(GHOSTS) or {}).items() if name in alive}
    suspect = tonight.get(GUFO) if tonight.get(GUFO) in alive else None
    return Dawn(after.kept(marks=marks, suspect=suspect), died, reasons)


def night_deaths(game, cards, victim=None, protected=None, seen=None, gufato=None, players=0):
    """Who dies at dawn and why, from the living players' cards and the night's choices:
    ``victim`` the lupi's, ``protected`` the Guardia's, ``seen`` the Veggente's, ``gufato`` the
    Gufo's (from its ``kills_from`` players on, the gufato dies unless a Mannaro)."""
    def role(name):
        return game.role(cards[name])

    dead, reasons = [], []
    if seen is not None and role(seen).trait("dies_if_seen"):
        dead.append(seen)
        reasons.append(("seen", seen))
    if victim is not None:
        if victim == protected:
            reasons.append(("protected", victim))
        elif role(victim).trait("survives_wolves"):
            reasons.append(("survived", victim))
        elif victim not in dead:
            dead.append(victim)
            reasons.append(("eaten", victim))
    lethal = [role.trait("kills_from") for role in game.roles if role.trait("kills_from") is not None]
    if (gufato is not None and lethal and players >= min(lethal) and not role(gufato).trait("mannaro")
            and gufato not in dead):
        dead.insert(0, gufato)  # at the start of the day, after the night's own deaths are known
        reasons.append(("owl", gufato))
    if victim in dead:  # the night's victim joins the ghosts last: it takes the Benvenuto
        dead.remove(victim)
        dead.append(victim)
    return tuple(dead), tuple(reasons)


def day(game, state):
    """The nomination and the ballottaggio: ties to the Benvenuto (the newest ghost), the gufato a
    suspect, the marks laid before the living (face down, to be turned up, without a moderator)."""
    marks = state.own["marks"]
    face_down = ()
    if state.cards is None and _ghosts_lay_marks(state):  # laid at the night's end by the ghosts of then
        holders = state.dead[:min(len(MARKS), state.own["nightfall_dead"])]
        face_down = tuple((EFFECTS[mark], holder) for mark, holder in zip(MARKS, holders, strict=False))
    return NominationRunoff(state.seating, frozenset(state.dead), state.dead[-1] if state.dead else None,
                        forced=state.own["suspect"], plus=marks.get("sword"), minus=marks.get("shield"),
                        face_down=face_down)


def dusk(game, state, lynched, acts):
    """The lynched player joins the ghosts and takes the Benvenuto; the day's gufato and marks are spent."""
    after = state.died([lynched])
    return Dusk(after.kept(lynched=[*state.own["lynched"], lynched], suspect=None, marks={},
                           nightfall_dead=len(after.dead)), (lynched,))


def announce(game, result, say):
    """At dawn the dead by name, then who takes the Benvenuto; after a lynching, who takes it."""
    lines = [say("dawn_dead", names=say.join(list(result.dead)))] if isinstance(result, Dawn) else []
    return [*lines, say("anchor", name=result.dead[-1])]


def notes(game, state, say):
    """What the moderator keeps in mind from dawn to the lynching: the gufato, a suspect whatever
    the votes, and the living players the sword and the shield lie before (La Minaccia Fantasma).
    The list of the lynched (the Medium's answer is told by the narrator) and the count of the dead
    at nightfall (for the marks laid face down without a moderator) are bookkeeping, left out."""
    suspect, marks = state.own["suspect"], state.own["marks"]
    lines = [say("note_gufato", name=suspect)] if suspect else []
    lines += [say("note_sword", name=marks["sword"])] if marks.get("sword") else []
    return lines + ([say("note_shield", name=marks["shield"])] if marks.get("shield") else [])


def explain_day(game, procedure, verdict, say):
    if verdict.given:
        return [say("lynched", name=verdict.lynched)]
    vote, outcome = verdict.outcome
    return explain_votes(game, vote, outcome, say)


def game_over(game, state):
    """None while the game goes on; else the winning sides (or the role that wins alone) and the
    winners, in seating order (every player, dead ones too: the whole side wins)."""
    cards = state.cards
    living = state.living
    wolves = [name for name in living if game.role(cards[name]).trait("wolf")]
    humans = [name for name in living if not game.role(cards[name]).trait("wolf")]
    if wolves and len(wolves) < len(humans):
        return None
    side = HUMANS if not wolves else WOLVES
    alone = [name for name in living if game.role(cards[name]).trait("wins_alone_alive")]
    if alone:
        return (cards[alone[0]],), tuple(alone)
    return (side,), tuple(name for name in state.seating if game.role(cards[name]).side == side)
