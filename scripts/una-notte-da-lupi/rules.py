"""Una Notte da Lupi's vote, exactly by the project's rulings (shared/rules/una-notte-da-lupi.md,
"Resolving the vote"). Each step below names the ruling it implements.

Only the cards in front of the players at the end count: whatever anyone started with, a
player's role is the card they hold now. What makes a card a wolf, who passes votes on and who
wins alone come from the role data in game.yaml (the fields below), not from role names here.
"""

from collections.abc import Mapping, Sequence

from narrator.core.card import Block
from narrator.core.deck import Deck
from narrator.core.game import Game, Language
from narrator.core.i18n import N_
from narrator.core.vote import Ballot, Question, Sentences, VoteResult, tally, voted_for

ROLE_FIELDS = {
    "wolf": "flag",  # a wolf card (the Mitomane is on the wolves' side but is no wolf)
    "bewitchable": "flag",  # a role whose token the turning role may turn
    "bewitches": "flag",  # this role turns a token at night, so the vote asks which one
    "passes_votes_at": "count",  # with this many votes or more, passes them all to its own vote
    "wins_alone": ("lynched-alone", "unvoted-when-humans-win"),
}
SENTENCES = ("bewitched", "tally", "passes", "passes_not", "nobody_lynched", "lynched_one", "lynched_two",
             "lynched_tie", "alone_lynched_wins", "alone_lynched_tie", "wolf_lynched", "no_wolf_lynched",
             "no_wolf_side_playing", "nobody_lynched_no_wolf", "nobody_lynched_wolf", "unvoted_steals",
             "unvoted_has_votes", "winners", "no_winners")
CARD_TEXTS = ("vote", "vote_most", "vote_one_each", "vote_passes", "vote_sides")

HUMANS, WOLVES = "umani", "lupi"  # this game's sides (game.yaml's sides)


def questions(game: Game) -> tuple[Question, ...]:
    """The turned token, asked for the table when a role that turns one was in the deck."""
    return (Question("bewitched", N_("Token turned by the {role} (or {none})"), "roles",
                     allowed=tuple(role.id for role in game.roles if role.trait("bewitchable")), per_player=False,
                     deck_has=frozenset(role.id for role in game.roles if role.trait("bewitches"))),)


def check(game: Game, ballots: Sequence[Ballot], table: Mapping[str, str], deck: Deck | None) -> None:
    """Nothing beyond the common checks and the question's own."""


def resolve(game: Game, ballots: Sequence[Ballot], table: Mapping[str, str], say: Sentences) -> VoteResult:
    """Count the votes, pass the Mortovivo's on, lynch, and find the winners, with the reasons."""
    bewitched = table.get("bewitched")
    names = [ballot.name for ballot in ballots]  # seating order
    voted = voted_for(ballots)
    card = {ballot.name: game.role(ballot.card) for ballot in ballots}

    def role_name(name):
        return say.role(card[name].id)

    def is_wolf(name):  # a wolf card, or a card of the bewitched role
        return card[name].trait("wolf") or card[name].id == bewitched

    def is_human(name):  # a human role, unless bewitched
        return card[name].side == HUMANS and card[name].id != bewitched

    def on_wolves_side(name):  # the wolves and the Mitomane
        return is_wolf(name) or card[name].side == WOLVES

    explanation = []
    if bewitched is not None:
        explanation.append(say("bewitched", role=say.role(bewitched)))

    # Step 1, count: every player casts one vote, never for themselves.
    votes_cast = tally(ballots)
    explanation.append(say("tally", tally=", ".join(f"{name} {votes_cast[name]}" for name in names)))

    # Step 2, the Mortovivo: with 2 or more votes (passes_votes_at), all of them pass to the player
    # it voted for, who already has its own vote; it is left with 0. Also when bewitched (ruling).
    votes = dict(votes_cast)
    for name in names:
        threshold = card[name].trait("passes_votes_at")
        if threshold is None:
            continue
        if votes[name] >= threshold:
            explanation.append(say("passes", name=name, role=role_name(name), count=votes[name], target=voted[name]))
            votes[voted[name]] += votes[name]
            votes[name] = 0
        else:
            explanation.append(say("passes_not", name=name, role=role_name(name), count=votes[name]))

    # Step 3, lynch: nobody when nobody has 2 or more votes (everyone has one); else all tied at the top.
    top = max(votes.values())
    lynched = tuple(name for name in names if votes[name] == top) if top >= 2 else ()
    if not lynched:
        explanation.append(say("nobody_lynched"))
    elif len(lynched) == 1:
        explanation.append(say("lynched_one", names=say.join(lynched), count=top))
    else:
        explanation.append(say("lynched_two" if len(lynched) == 2 else "lynched_tie", names=say.join(lynched),
                               count=top))

    def result(side, winners):
        explanation.append(say("winners", names=say.join(winners)) if winners else say("no_winners"))
        return VoteResult(votes_cast, votes, lynched, (side,) if side else (), tuple(winners), tuple(explanation))

    # Step 4, the Pinguino Mannaro: the only one lynched wins alone; lynched in a tie, it is
    # simply not a wolf and the vote goes on.
    alone = [name for name in lynched if card[name].trait("wins_alone") == "lynched-alone"]
    if len(lynched) == 1 and alone:
        explanation.append(say("alone_lynched_wins", name=alone[0], role=role_name(alone[0])))
        return result(card[alone[0]].id, (alone[0],))
    for name in alone:
        explanation.append(say("alone_lynched_tie", name=name, role=role_name(name)))

    # Step 5, the sides.
    wolves_lynched = [name for name in lynched if is_wolf(name)]
    if wolves_lynched:
        side = HUMANS
        explanation.append(say("wolf_lynched", names=say.join(wolves_lynched)))
    elif lynched:
        side = WOLVES if any(on_wolves_side(name) for name in names) else None
        explanation.append(say("no_wolf_lynched" if side else "no_wolf_side_playing"))
    elif any(is_wolf(name) for name in names):
        side = WOLVES
        explanation.append(say("nobody_lynched_wolf"))
    else:
        side = HUMANS  # ruling: a Mitomane, Pinguino or Criceto among the players does not stop this
        explanation.append(say("nobody_lynched_no_wolf"))

    # Step 6, the Criceto Mannaro: when the humans would win and it has no votes (after step 2),
    # it alone wins; with any vote, or when the wolves' side wins, it loses.
    if side == HUMANS:
        for name in names:
            if card[name].trait("wins_alone") == "unvoted-when-humans-win":
                if votes[name] == 0:
                    explanation.append(say("unvoted_steals", name=name, role=role_name(name)))
                    return result(card[name].id, (name,))
                explanation.append(say("unvoted_has_votes", name=name, role=role_name(name)))

    # Step 7, the winners: every human, or every wolf and the Mitomane.
    if side == HUMANS:
        return result(side, [name for name in names if is_human(name)])
    if side == WOLVES:
        return result(side, [name for name in names if on_wolves_side(name)])
    return result(None, [])


def card_back(game: Game, language: Language, deck: Deck) -> tuple[Block, ...]:
    """The lynching, for the deck played (the roles that change the ending follow it: ``card.win``)."""
    texts = language.card
    back = [
        Block("heading", texts["vote"]),
        Block("text", texts["vote_most"]),
        Block("text", texts["vote_one_each"]),
        *(Block("text", texts["vote_passes"].format(role=language.role_name(role.id)))
          for role in game.roles if role.trait("passes_votes_at") is not None and role.id in deck.role_ids),
        Block("text", texts["vote_sides"]),
    ]
    return tuple(back)
