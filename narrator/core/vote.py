"""The vote, the part every game shares: ballots, their checks, the tally, and the contract a
game's rules module fulfils to settle it (``VoteRules``).

Who is lynched and who wins differ from game to game: each game says it in its own ``rules.py``
(see ``scripts/README.md``). What they share is here: a ballot (the card in front of a
player at the end and whom they pointed at), the questions a game asks beyond that (the
Doppelgänger's copy, a turned token), the checks that refuse an impossible table, and the result.
"""

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from narrator.core.errors import DataError, NarratorError, UnknownRoleError
from narrator.core.game import Game, Language
from narrator.core.i18n import msg
from narrator.core.names import player_name, repeated
from narrator.core.nights import OneDay, Rules, reads_one_day
from narrator.core.procedures import Said

if TYPE_CHECKING:
    from narrator.core.card import Block
    from narrator.core.deck import Deck

NONE_WORDS = ("none", "nothing", "-")  # an answer of "nothing": besides the catalog's own word for it


class VoteError(NarratorError):
    """The ballots cannot be counted as given; the message says what to fix."""


@dataclass(frozen=True)
class Ballot:
    name: str
    card: str  # role id of the card in front of the player at the end
    vote: str  # the name of the player they pointed at
    answers: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # the game's questions


@dataclass(frozen=True)
class Question:
    """Something the vote needs beyond cards and votes, asked only when it can matter.

    Per player (``per_player``) it is asked of whoever holds one of ``holders`` (any card when
    empty); for the table it is asked once. Either way only when ``deck_has`` is empty or one of its
    roles was in the deck played (without a known deck it is asked, and "none" is the default).
    """

    key: str  # its field in a votes file
    prompt: str  # English (marked with N_): {name} the player, {card} their card, {roles} deck_has's names
    answers: str  # "roles" or "tokens": what an answer names
    allowed: tuple[str, ...]  # the ids accepted
    per_player: bool = True
    holders: frozenset[str] = frozenset()
    deck_has: frozenset[str] = frozenset()
    of_the_deck: bool = True  # a role answered must have been on the table (not so for a kind one became)
    only_if: Callable[[str, Mapping[str, str]], bool] | None = None  # given the card and the answers so far

    def asked_of(self, card: str, deck: "Deck | None", answers: Mapping[str, str] | None = None) -> bool:
        return (self.per_player and (not self.holders or card in self.holders) and self.in_play(deck)
                and (self.only_if is None or self.only_if(card, answers or {})))

    def in_play(self, deck: "Deck | None") -> bool:
        return not self.deck_has or deck is None or bool(self.deck_has & deck.role_ids)


@dataclass(frozen=True)
class VoteResult:
    votes_cast: dict[str, int]  # as pointed
    votes: dict[str, int]  # after any rule that moves votes (Una Notte da Lupi's Mortovivo)
    lynched: tuple[str, ...]  # every player who dies, in seating order
    winning_sides: tuple[str, ...]  # side ids, or ids of roles that win alone
    winners: tuple[str, ...]  # in seating order
    explanation: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"votes_cast": self.votes_cast, "votes": self.votes, "lynched": list(self.lynched),
                "winning_sides": list(self.winning_sides), "winners": list(self.winners),
                "explanation": list(self.explanation)}


class Sentences:
    """A game's explaining sentences in one language (its ``vote:`` section), with its euphony."""

    def __init__(self, language: Language):
        self.language = language

    def __call__(self, key: str, **values: Any) -> str:
        if key not in self.language.vote:  # a game's code asked for a sentence its rules never declared
            raise DataError(msg("{language}.yaml: vote: no sentence '{key}' (a game's rules declare each one they "
                                "say in SENTENCES)", language=self.language.code, key=key))
        return euphonic(self.language.vote[key].format(**values), self.language.euphony)

    def said(self, said: Any) -> str:
        """A sentence as a step of the day carries it (``narrator.core.procedures.Said``): its values said first where they are sentences too,
        and a tuple of names joined as the language joins them."""
        values = {name: self.said(value) if isinstance(value, Said) else
                  self.join(list(value)) if isinstance(value, tuple) else value
                  for name, value in said.values.items()}
        return self(said.key, **values)

    def optional(self, key: str, **values: Any) -> str | None:
        """A sentence the game's language may have (None when it has not)."""
        return self(key, **values) if key in self.language.vote else None

    def join(self, names: Sequence[str]) -> str:
        """``Anna``, ``Anna and Bruno``, ``Anna, Bruno and Carla``."""
        if len(names) <= 1:
            return "".join(names)
        return f"{', '.join(names[:-1])} {self.language.vote['and']} {names[-1]}"

    def role(self, role_id: str) -> str:
        return self.language.role_name(role_id)


class VoteRules(Protocol):
    """What a game's ``rules.py`` provides (module-level names; see scripts/README.md). Its names
    are read, never set: a module's own (a dict, a tuple of so many keys) fits them."""

    @property
    def ROLE_FIELDS(self) -> Mapping[str, Any]: ...  # role fields of game.yaml the rules read: "flag", "count" or choices

    @property
    def SENTENCES(self) -> tuple[str, ...]: ...  # keys of each language's vote: section

    @property
    def CARD_TEXTS(self) -> tuple[str, ...]: ...  # keys of each language's card: section used by card_back

    def questions(self, game: Game) -> tuple[Question, ...]: ...

    def check(self, game: Game, ballots: Sequence[Ballot], table: Mapping[str, str],
              deck: "Deck | None") -> None: ...

    def resolve(self, game: Game, ballots: Sequence[Ballot], table: Mapping[str, str],
                say: Sentences) -> VoteResult: ...

    def card_back(self, game: Game, language: Language, deck: "Deck") -> "tuple[Block, ...]": ...


def rules_of(game: Game) -> VoteRules:
    if game.rules is None:
        raise VoteError(msg("{game} has no vote rules yet: settle the vote by its rulebook", game=game.title))
    if isinstance(game.rules, Rules):  # a game of many nights (is_day_vote)
        day_file_rules(game)  # a game of many nights without a votes file of one day says so
        raise VoteError(msg("{game} votes in two rounds each day: give the day's votes in a file, narrate votes "
                            "FILE (the README shows one)", game=game.title))
    return game.rules


def day_file_rules(game: Game) -> OneDay:
    """The rules of a game of many nights that read a votes file of one day (narrator.core.nights.OneDay);
    VoteError for one that does not."""
    if not isinstance(game.rules, Rules) or not reads_one_day(game.rules):
        raise VoteError(msg("{game} settles each day's vote as the game is played; 'narrate replay FILE' settles a "
                            "whole game record (the README shows one)", game=game.title))
    return game.rules


def is_day_vote(game: Game) -> bool:
    """The game's vote is each day's, in a game of many nights, not the cards held at the end of one."""
    return game.plays_rounds


def resolve_vote(game: Game, ballots: Sequence[Ballot], table: Mapping[str, str], lang: str,
                 deck: "Deck | None" = None) -> VoteResult:
    """Check the ballots, then settle the vote by the game's rules, with the reasons.

    ``table`` holds the answers asked once for the table (a turned token); ``deck``, when given,
    is the deck that was played: the ballots are checked against it too.
    """
    rules = rules_of(game)
    check_ballots(game, ballots, table, deck)
    return rules.resolve(game, ballots, table, Sentences(game.languages[lang]))


def check_ballots(game: Game, ballots: Sequence[Ballot], table: Mapping[str, str], deck: "Deck | None" = None) -> None:
    """Refuse what cannot be a real game: the message names the player and the fix.

    With the ``deck`` that was played, the ballots must fit it too: one per player, only its cards.
    """
    from narrator.core.deck import players_for

    rules = rules_of(game)
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
    if deck is not None and len(ballots) != players_for(game, deck):
        raise VoteError(msg("the deck played was for {players} players; these ballots have {count}",
                            players=players_for(game, deck), count=len(ballots)))
    check_cards(game, ballots, deck)
    questions = rules.questions(game)
    for ballot in ballots:
        for key, answer in ballot.answers.items():
            question = _question(questions, key, True)
            check_answer(game, question, ballot, answer, deck)
            if question.only_if is not None and not question.only_if(ballot.card, ballot.answers):
                given = ", ".join(f"{other}: {value}" for other, value in ballot.answers.items() if other != key)
                raise VoteError(msg("{name} holds '{card}' ({given}): '{field}' does not apply to that card",
                                    name=ballot.name, card=ballot.card, given=given or "-", field=key))
    for key, answer in table.items():
        check_answer(game, _question(questions, key, False), None, answer, deck)
    rules.check(game, ballots, table, deck)


def _question(questions: Sequence[Question], key: str, per_player: bool) -> Question:
    for question in questions:
        if question.key == key and question.per_player == per_player:
            return question
    raise VoteError(msg("'{field}' is not a question of this game's vote", field=key))


def check_answer(game: Game, question: Question, ballot: Ballot | None, answer: str, deck: "Deck | None") -> None:
    """One answer: asked of this card, and one of the ids allowed (of the deck played, for roles)."""
    if ballot is not None and question.holders and ballot.card not in question.holders:
        holders = ", ".join(f"'{role}'" for role in sorted(question.holders))
        raise VoteError(msg("{name} holds '{card}': '{field}' is only for a player holding {holders}",
                            name=ballot.name, card=ballot.card, field=question.key, holders=holders))
    if not question.in_play(deck):
        raise VoteError(msg("'{field}: {answer}' cannot be: no role of the deck played makes it happen",
                            field=question.key, answer=answer))
    if answer not in question.allowed:
        raise VoteError(msg("'{field}: {answer}' cannot be: one of {allowed}", field=question.key, answer=answer,
                            allowed=", ".join(question.allowed)))
    if question.answers == "roles" and question.of_the_deck and deck is not None and answer not in deck.table_role_ids:
        raise VoteError(msg("'{field}: {answer}' cannot be: '{answer}' was not in the deck played", field=question.key,
                            answer=answer))


def check_cards(game: Game, ballots: Sequence[Ballot], deck: "Deck | None" = None) -> None:
    """The cards held could all be on the table together: no more copies than the box (or the deck
    played, when given) has, and no two roles that never share a deck. The prompt checks each card
    as it is typed with this, the whole ballot sheet is checked with it too."""
    from narrator.core.deck import excluded

    for role in game.roles:
        holders = [ballot.name for ballot in ballots if ballot.card == role.id]
        if len(holders) > role.copies:
            raise VoteError(msg("{count} players hold '{role}' ({players}), but the box has {copies}: check the "
                                "cards", count=len(holders), role=role.id, players=", ".join(holders),
                                copies=role.copies))
        if deck is not None and len(holders) > deck.all_copies(role.id):
            if not deck.all_copies(role.id):
                raise VoteError(msg("'{role}' is not in the deck played ({players}): one of {roles}", role=role.id,
                                    players=", ".join(holders), roles=", ".join(sorted(deck.table_role_ids))))
            raise VoteError(msg("{count} players hold '{role}' ({players}), but the deck played has {copies}: "
                                "check the cards", count=len(holders), role=role.id, players=", ".join(holders),
                                copies=deck.all_copies(role.id)))
    held = sorted({ballot.card for ballot in ballots})
    clash = next(((one, other) for one in held for other in held if excluded(game, one, other)), None)
    if clash:
        raise VoteError(msg("'{role}' and '{other}' are never in the same deck, yet both are held: check the cards",
                            role=clash[0], other=clash[1]))


def tally(ballots: Sequence[Ballot]) -> dict[str, int]:
    """Votes received by each player, in seating order (names as the ballots spell them)."""
    canonical = {ballot.name.casefold(): ballot.name for ballot in ballots}
    votes = {ballot.name: 0 for ballot in ballots}
    for ballot in ballots:
        votes[canonical[ballot.vote.casefold()]] += 1
    return votes


def voted_for(ballots: Sequence[Ballot]) -> dict[str, str]:
    """Each player's vote, spelled as that player's own name."""
    canonical = {ballot.name.casefold(): ballot.name for ballot in ballots}
    return {ballot.name: canonical[ballot.vote.casefold()] for ballot in ballots}


def euphonic(text: str, euphony: Mapping[str, str]) -> str:
    """Each short word that changes before the same vowel changed where it stands before one.

    Italian's ``{"a": "ad", "e": "ed"}`` makes "passano a Anna" "passano ad Anna" and "Bruno e
    Elena" "Bruno ed Elena"; a language without such words has an empty mapping.
    """
    for word, before_vowel in euphony.items():
        vowel = word[-1]
        text = re.sub(rf"(?<!\w){re.escape(word)} (?=[{vowel.lower()}{vowel.upper()}])", before_vowel + " ", text)
    return text


def ballots_from_data(game: Game, data: object, source: str) -> tuple[list[Ballot], dict[str, str]]:
    """Ballots and the table's answers from a parsed votes file (see ``narrate votes --help``):
    ``players`` (name, card, vote and the game's questions for each) and the table's questions."""
    questions = rules_of(game).questions(game)
    per_player = {question.key: question for question in questions if question.per_player}
    for_table = {question.key: question for question in questions if not question.per_player}
    fields = ", ".join(f"'{key}'" for key in ("players", "game", *for_table))
    if not isinstance(data, Mapping) or "players" not in data:
        raise VoteError(msg("{file}: expected 'players:' with a name, card and vote for each player", file=source))
    unknown = sorted(set(map(str, data)) - {"players", "game", *for_table})
    if unknown:
        raise VoteError(msg("{file}: unknown field '{field}' (a votes file of {game} has {fields})", file=source,
                            field=unknown[0], game=game.title, fields=fields))
    if data.get("game") is not None and str(data["game"]) != game.id:
        raise VoteError(msg("{file}: game: these votes are of '{file_game}', the game chosen is '{game}': give "
                            "--game {file_game}", file=source, file_game=data["game"], game=game.id))
    if not isinstance(data["players"], list):
        raise VoteError(msg("{file}: players: expected a list, one entry per player in seating order", file=source))
    ballots = []
    for index, entry in enumerate(data["players"]):
        where = f"{source}: players[{index}]"
        if not isinstance(entry, Mapping):
            raise VoteError(msg("{where}: expected name, card and vote, got {value!r}", where=where, value=entry))
        extra = sorted(set(map(str, entry)) - {"name", "card", "vote", *per_player})
        if extra:
            player_fields = ", ".join(("name", "card", "vote", *per_player))
            raise VoteError(msg("{where}: unknown field '{field}' (each player has {fields})", where=where,
                                field=extra[0], fields=player_fields))
        values = {}
        for key in ("name", "card", "vote"):
            value = entry.get(key)
            if value is None or not str(value).strip():
                who = entry.get("name") or msg("player {number}", number=index + 1)
                raise VoteError(msg("{where}: {name} has no {field}: add '{field}: ...'", where=where, name=who,
                                    field=key))
            if isinstance(value, list | dict | bool):
                raise VoteError(msg("{where}: {field}: {value} is not one name: write one word or name, such as "
                                    "'{field}: Anna'", where=where, field=key, value=value))
            values[key] = str(value).strip()
        try:
            values["name"] = player_name(values["name"])
        except NarratorError as error:
            raise VoteError(msg("{where}: {error}", where=where, error=error)) from None
        try:
            card = game.resolve_role(values["card"])
        except UnknownRoleError as error:
            raise VoteError(msg("{where}: {error}", where=where, error=error)) from None
        answers = {}
        for key, question in per_player.items():
            answer = _answer(game, question, entry.get(key), f"{where}.{key}")
            if answer is not None:
                answers[key] = answer
        ballots.append(Ballot(values["name"], card, values["vote"], MappingProxyType(answers)))
    table = {}
    for key, question in for_table.items():
        answer = _answer(game, question, data.get(key), f"{source}: {key}")
        if answer is not None:
            table[key] = answer
    return ballots, table


def _answer(game: Game, question: Question, value: object, where: str) -> str | None:
    try:
        return read_answer(game, question, "" if value is None else str(value))
    except UnknownRoleError as error:
        raise VoteError(msg("{where}: {error}", where=where, error=error)) from None


def read_answer(game: Game, question: Question, text: str) -> str | None:
    """An answer as written (an id or a name in any language) as the id of a role or a token, or
    None for "none"; ``UnknownRoleError`` names what it could not find. Whether the answer is
    allowed is ``check_answer``'s (and the prompt's) business."""
    if text.strip().casefold() in ("", *NONE_WORDS):
        return None
    return game.resolve_role(text) if question.answers == "roles" else game.resolve_token(text)
