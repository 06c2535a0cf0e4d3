"""Settling the vote, exactly by the project's rulings (shared/rules/una-notte-da-lupi.md,
"Resolving the vote"). Each step below names the ruling it implements.

Only the cards in front of the players at the end count: whatever anyone started with, a
player's role is the card they hold now. What makes a card a wolf, who passes votes on and who
wins alone come from the role data (``wolf``, ``bewitchable``, ``passes_votes_at``,
``wins_alone``), not from role names in this module.
"""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from narrator.core.deck import Deck, excluded, players_for
from narrator.core.errors import NarratorError, UnknownRoleError
from narrator.core.game import Game, Language
from narrator.core.i18n import msg
from narrator.core.names import player_name, repeated


class VoteError(NarratorError):
    """The ballots cannot be counted as given; the message says what to fix."""


@dataclass(frozen=True)
class Ballot:
    name: str
    card: str  # role id of the card in front of the player at the end
    vote: str  # the name of the player they pointed at


@dataclass(frozen=True)
class VoteResult:
    votes_cast: dict[str, int]  # before the Mortovivo passes votes on
    votes: dict[str, int]  # after
    lynched: tuple[str, ...]
    winning_side: str | None  # "umani", "lupi", the id of a role that wins alone, or None
    winners: tuple[str, ...]
    explanation: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"votes_cast": self.votes_cast, "votes": self.votes, "lynched": list(self.lynched),
                "winning_side": self.winning_side, "winners": list(self.winners),
                "explanation": list(self.explanation)}


def check_ballots(game: Game, ballots: Sequence[Ballot], bewitched: str | None, deck: Deck | None = None) -> None:
    """Refuse what cannot be a real game: the message names the player and the fix.

    With the ``deck`` that was played, the ballots must fit it too: one per player, only its cards,
    and a turned token only of a role that was on the table.
    """
    if not game.min_players <= len(ballots) <= game.max_players:
        raise VoteError(msg("{game} takes {low} to {high} players; these ballots have {count}", game=game.title,
                            low=game.min_players, high=game.max_players, count=len(ballots)))
    duplicate = repeated([ballot.name for ballot in ballots])
    if duplicate:
        raise VoteError(msg("two players are called '{name}': give each player a different name", name=duplicate))
    seen = {ballot.name.casefold(): ballot.name for ballot in ballots}
    for ballot in ballots:
        if ballot.vote.casefold() == ballot.name.casefold():
            raise VoteError(msg("{name} votes for themselves: everyone points at another player", name=ballot.name))
        if ballot.vote.casefold() not in seen:
            raise VoteError(msg("{name} votes for '{vote}', who is not playing (players: {players})",
                                name=ballot.name, vote=ballot.vote, players=", ".join(seen.values())))
    check_cards(game, ballots, deck)
    if bewitched is not None and not game.role(bewitched).bewitchable:
        turnable = ", ".join(role.id for role in game.roles if role.bewitchable)
        who = ", ".join(f"'{role.id}'" for role in game.roles if role.bewitches)
        if not who:
            raise VoteError(msg("no role of {game} turns a token, so '{role}' was not turned", game=game.title,
                                role=bewitched))
        raise VoteError(msg("{who} cannot turn the token of '{role}': only one of {turnable}", who=who,
                            role=bewitched, turnable=turnable))
    if deck is not None:
        if len(ballots) != players_for(game, deck):
            raise VoteError(msg("the deck played was for {players} players; these ballots have {count}",
                                players=players_for(game, deck), count=len(ballots)))
        if bewitched is not None and not any(game.role(role_id).bewitches for role_id in deck.role_ids):
            raise VoteError(msg("no token could be turned: no role of the deck played turns one"))
        if bewitched is not None and bewitched not in deck.role_ids:
            raise VoteError(msg("the '{role}' token was not on the table: only the deck's roles' tokens are",
                                role=bewitched))


def check_cards(game: Game, ballots: Sequence[Ballot], deck: Deck | None = None) -> None:
    """The cards held could all be on the table together: no more copies than the box (or the deck
    played, when given) has, and no two roles that never share a deck. The prompt checks each card
    as it is typed with this, the whole ballot sheet is checked with it too."""
    for role in game.roles:
        holders = [ballot.name for ballot in ballots if ballot.card == role.id]
        if len(holders) > role.copies:
            raise VoteError(msg("{count} players hold '{role}' ({players}), but the box has {copies}: check the "
                                "cards", count=len(holders), role=role.id, players=", ".join(holders),
                                copies=role.copies))
        if deck is not None and len(holders) > deck.copies(role.id):
            if not deck.copies(role.id):
                raise VoteError(msg("'{role}' is not in the deck played ({players}): one of {roles}", role=role.id,
                                    players=", ".join(holders), roles=", ".join(sorted(deck.role_ids))))
            raise VoteError(msg("{count} players hold '{role}' ({players}), but the deck played has {copies}: "
                                "check the cards", count=len(holders), role=role.id, players=", ".join(holders),
                                copies=deck.copies(role.id)))
    held = sorted({ballot.card for ballot in ballots})
    clash = next(((one, other) for one in held for other in held if excluded(game, one, other)), None)
    if clash:
        raise VoteError(msg("'{role}' and '{other}' are never in the same deck, yet both are held: check the cards",
                            role=clash[0], other=clash[1]))


def resolve_vote(game: Game, ballots: Sequence[Ballot], bewitched: str | None, lang: str,
                 deck: Deck | None = None) -> VoteResult:
    """Count the votes, pass the Mortovivo's on, lynch, and find the winners, with the reasons.

    ``deck``, when given, is the deck that was played: the ballots are checked against it too.
    """
    check_ballots(game, ballots, bewitched, deck)
    language = game.languages[lang]
    say = _Sentences(language)
    names = [ballot.name for ballot in ballots]  # seating order
    canonical = {name.casefold(): name for name in names}
    voted = {ballot.name: canonical[ballot.vote.casefold()] for ballot in ballots}
    card = {ballot.name: game.role(ballot.card) for ballot in ballots}

    def role_name(name: str) -> str:
        return language.role_name(card[name].id)

    def is_wolf(name: str) -> bool:  # a wolf card, or a card of the bewitched role
        return card[name].wolf or card[name].id == bewitched

    def is_human(name: str) -> bool:  # a human role, unless bewitched
        return card[name].side == "umani" and card[name].id != bewitched

    def on_wolves_side(name: str) -> bool:  # the wolves and the Mitomane
        return is_wolf(name) or card[name].side == "lupi"

    explanation: list[str] = []
    if bewitched is not None:
        explanation.append(say("bewitched", role=language.role_name(bewitched)))

    # Step 1, count: every player casts one vote, never for themselves.
    votes_cast = {name: 0 for name in names}
    for name in names:
        votes_cast[voted[name]] += 1
    explanation.append(say("tally", tally=", ".join(f"{name} {votes_cast[name]}" for name in names)))

    # Step 2, the Mortovivo: with 2 or more votes (passes_votes_at), all of them pass to the player
    # it voted for, who already has its own vote; it is left with 0. Also when bewitched (ruling).
    votes = dict(votes_cast)
    for name in names:
        threshold = card[name].passes_votes_at
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

    # Step 4, the Pinguino Mannaro: the only one lynched wins alone; lynched in a tie, it is
    # simply not a wolf and the vote goes on.
    alone = [name for name in lynched if card[name].wins_alone == "lynched-alone"]
    if len(lynched) == 1 and alone:
        explanation.append(say("alone_lynched_wins", name=alone[0], role=role_name(alone[0])))
        return _result(votes_cast, votes, lynched, card[alone[0]].id, (alone[0],), explanation, say)
    for name in alone:
        explanation.append(say("alone_lynched_tie", name=name, role=role_name(name)))

    # Step 5, the sides.
    wolves_lynched = [name for name in lynched if is_wolf(name)]
    if wolves_lynched:
        side: str | None = "umani"
        explanation.append(say("wolf_lynched", names=say.join(wolves_lynched)))
    elif lynched:
        side = "lupi" if any(on_wolves_side(name) for name in names) else None
        explanation.append(say("no_wolf_lynched" if side else "no_wolf_side_playing"))
    elif any(is_wolf(name) for name in names):
        side = "lupi"
        explanation.append(say("nobody_lynched_wolf"))
    else:
        side = "umani"  # ruling: a Mitomane, Pinguino or Criceto among the players does not stop this
        explanation.append(say("nobody_lynched_no_wolf"))

    # Step 6, the Criceto Mannaro: when the humans would win and it has no votes (after step 2),
    # it alone wins; with any vote, or when the wolves' side wins, it loses.
    if side == "umani":
        for name in names:
            if card[name].wins_alone == "unvoted-when-humans-win":
                if votes[name] == 0:
                    explanation.append(say("unvoted_steals", name=name, role=role_name(name)))
                    return _result(votes_cast, votes, lynched, card[name].id, (name,), explanation, say)
                explanation.append(say("unvoted_has_votes", name=name, role=role_name(name)))

    # Step 7, the winners: every human, or every wolf and the Mitomane.
    if side == "umani":
        winners = tuple(name for name in names if is_human(name))
    elif side == "lupi":
        winners = tuple(name for name in names if on_wolves_side(name))
    else:
        winners = ()
    return _result(votes_cast, votes, lynched, side, winners, explanation, say)


def _result(votes_cast, votes, lynched, side, winners, explanation, say) -> VoteResult:
    explanation.append(say("winners", names=say.join(winners)) if winners else say("no_winners"))
    return VoteResult(votes_cast, votes, tuple(lynched), side, tuple(winners), tuple(explanation))


def euphonic(text: str, euphony: Mapping[str, str]) -> str:
    """Each short word that changes before the same vowel changed where it stands before one.

    Italian's ``{"a": "ad", "e": "ed"}`` makes "passano a Anna" "passano ad Anna" and "Bruno e
    Elena" "Bruno ed Elena"; a language without such words has an empty mapping.
    """
    for word, before_vowel in euphony.items():
        vowel = word[-1]
        text = re.sub(rf"(?<!\w){re.escape(word)} (?=[{vowel.lower()}{vowel.upper()}])", before_vowel + " ", text)
    return text


class _Sentences:
    def __init__(self, language: Language):
        self.language = language

    def __call__(self, key: str, **values: Any) -> str:
        return euphonic(self.language.vote[key].format(**values), self.language.euphony)

    def join(self, names: Sequence[str]) -> str:
        """``Anna``, ``Anna and Bruno``, ``Anna, Bruno and Carla``."""
        if len(names) <= 1:
            return "".join(names)
        return f"{', '.join(names[:-1])} {self.language.vote['and']} {names[-1]}"


def ballots_from_data(game: Game, data: object, source: str) -> tuple[list[Ballot], str | None]:
    """Ballots from a parsed votes file: ``players`` (name, card, vote each) and ``bewitched``."""
    if not isinstance(data, Mapping) or "players" not in data:
        raise VoteError(msg("{file}: expected 'players:' with a name, card and vote for each player", file=source))
    unknown = sorted(set(map(str, data)) - {"players", "bewitched"})
    if unknown:
        raise VoteError(msg("{file}: unknown field '{field}' (a votes file has 'players' and 'bewitched')",
                            file=source, field=unknown[0]))
    if not isinstance(data["players"], list):
        raise VoteError(msg("{file}: players: expected a list, one entry per player in seating order", file=source))
    ballots = []
    for index, entry in enumerate(data["players"]):
        where = f"{source}: players[{index}]"
        if not isinstance(entry, Mapping):
            raise VoteError(msg("{where}: expected name, card and vote, got {value!r}", where=where, value=entry))
        extra = sorted(set(map(str, entry)) - {"name", "card", "vote"})
        if extra:
            raise VoteError(msg("{where}: unknown field '{field}' (each player has name, card and vote)", where=where,
                                field=extra[0]))
        fields = {}
        for key in ("name", "card", "vote"):
            value = entry.get(key)
            if value is None or not str(value).strip():
                who = entry.get("name") or msg("player {number}", number=index + 1)
                raise VoteError(msg("{where}: {name} has no {field}: add '{field}: ...'", where=where, name=who,
                                    field=key))
            fields[key] = str(value).strip()
        try:
            fields["name"] = player_name(fields["name"])
        except NarratorError as error:
            raise VoteError(msg("{where}: {error}", where=where, error=error)) from None
        try:
            card = game.resolve_role(fields["card"])
        except UnknownRoleError as error:
            raise VoteError(msg("{where}: {error}", where=where, error=error)) from None
        ballots.append(Ballot(fields["name"], card, fields["vote"]))
    bewitched = data.get("bewitched")
    if bewitched is not None:
        try:
            bewitched = game.resolve_role(str(bewitched))
        except UnknownRoleError as error:
            raise VoteError(msg("{file}: bewitched: {error}", file=source, error=error)) from None
    return ballots, bewitched
