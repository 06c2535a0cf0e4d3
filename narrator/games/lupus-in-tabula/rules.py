"""Lupus in Tabula's vote: a day's two rounds (shared/rules/lupus-in-tabula.md, "The day"),
settled by the generic ``narrator.core.runoff``; this module names the parts as the game does
(the ghosts, the Benvenuto, the gufato, the ballottaggio) and explains the result in the game's
words. Its votes file and its JSON use those names (see the README)."""

from narrator.core.card import Block
from narrator.core.runoff import DayOutcome, DayVote, day_from_data

VOTE = "day"  # the vote is a day's two rounds, not the cards in front of the players at the end
ROLE_FIELDS = {"wolf": "flag", "mannaro": "flag", "survives_wolves": "flag", "dies_if_seen": "flag",
               "wins_alone_alive": "flag", "kills_from": "count",
               "copyable": "flag"}
SENTENCES = ("nomination", "forced", "tie_sword", "tie_shield", "tie_anchor", "tie_unheld", "suspects", "ballot",
             "lynched",
             "dawn_dead", "anchor",  # said aloud in a game
             "reason_eaten", "reason_protected", "reason_survived", "reason_seen", "reason_owl")  # shown to the moderator
CARD_TEXTS = ("vote", "vote_nomination", "vote_forced", "vote_ballot", "vote_ties", "end", "end_sides", "wins")
# The votes file's fields for each part of the day (narrator.core.runoff.LABELS).
FIELDS = {"seating": "seating", "dead": "ghosts", "anchor": "benvenuto", "forced": "gufato", "sword": "sword",
          "shield": "shield", "nomination": "nomination", "runoff": "ballot"}


def read_day(game, data, source: str) -> DayVote:
    return day_from_data(data, FIELDS, source)


def explain_day(game, vote: DayVote, outcome: DayOutcome, say) -> list[str]:
    """The result, a sentence per step: the nomination's votes, how the two indiziati were
    found, the ballottaggio's votes, who is lynched."""
    def tally(votes):
        return ", ".join(f"{name} {count}" for name, count in votes.items() if count) or "-"

    def tie(reason):
        if reason == "anchor":
            return say("tie_anchor", anchor=vote.anchor) if vote.anchor else say("tie_unheld")
        return say("tie_sword", name=vote.sword) if reason == "sword" else say("tie_shield", name=vote.shield)

    lines = [say("nomination", tally=tally(outcome.nomination))]
    for stage, reason in outcome.steps:
        if stage == "nomination":
            lines.append(say("forced", name=vote.forced) if reason == "forced" else tie(reason))
    lines.append(say("suspects", names=say.join(list(outcome.suspects))))
    lines.append(say("ballot", tally=tally(outcome.runoff)))
    lines += [tie(reason) for stage, reason in outcome.steps if stage == "runoff"]
    lines.append(say("lynched", name=outcome.lynched))
    return lines


def day_as_dict(outcome: DayOutcome, explanation: list[str]) -> dict:
    """The result for programs, in the votes file's words."""
    return {"nomination": dict(outcome.nomination), "indiziati": list(outcome.suspects),
            "ballot": dict(outcome.runoff), "lynched": outcome.lynched, "explanation": explanation}


def card_back(game, language, deck):
    """The day's vote, how the game ends, and the characters of the deck that change the ending."""
    texts = language.card
    back = [Block("heading", texts["vote"]), Block("text", texts["vote_nomination"])]
    if any(slot.ask is not None and slot.ask.suspect  # a turn whose choice is a suspect: the gufato
           for slot in game.slots_of_any_night(deck.role_ids, game.option_defaults)):
        back.append(Block("text", texts["vote_forced"]))
    back += [Block("text", texts["vote_ballot"]), Block("text", texts["vote_ties"]),
             Block("heading", texts["end"]), Block("text", texts["end_sides"])]
    special = [role for role in game.roles if role.id in deck.role_ids and role.id in language.card_wins]
    if special:
        back.append(Block("heading", texts["wins"]))
        back += [Block("role", language.role_name(role.id), detail=language.card_wins[role.id]) for role in special]
    return tuple(back)


# --- the dawn and the end (for the game across nights; pure: cards and choices in, deaths out) ---

HUMANS, WOLVES = "umani", "lupi"  # this game's sides (game.yaml's sides)
ENDS = (HUMANS, WOLVES, "criceto-mannaro")  # who game_over() can name as winning: the Criceto alone


def dawn(game, cards, victim=None, protected=None, seen=None, gufato=None, players=0, **_other_choices):
    """Who dies at dawn, in the order they join the ghosts (the night's victim last, so that it
    takes the Benvenuto when two die at once), and why: (reason, name) pairs.

    ``cards`` maps each living player to their card; ``victim`` is the lupi's choice, ``protected``
    the Guardia's, ``seen`` the Veggente's, ``gufato`` the Gufo's (the ``choose`` names of game.yaml's
    asks; the others, such as the Mitomane's, change no life); ``players`` is how many the game
    began with (from the Gufo's ``kills_from`` its choice dies)."""
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


def game_over(game, cards, alive):
    """None while the game goes on; else the winning sides (or the role that wins alone) and the
    winners, in the order of ``cards`` (every player, dead ones too: the whole side wins)."""
    living = [name for name in cards if name in alive]
    wolves = [name for name in living if game.role(cards[name]).trait("wolf")]
    humans = [name for name in living if not game.role(cards[name]).trait("wolf")]
    if wolves and len(wolves) < len(humans):
        return None
    side = HUMANS if not wolves else WOLVES
    alone = [name for name in living if game.role(cards[name]).trait("wins_alone_alive")]
    if alone:
        return (cards[alone[0]],), tuple(alone)
    return (side,), tuple(name for name in cards if game.role(cards[name]).side == side)
