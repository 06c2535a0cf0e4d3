"""One Night Ultimate Werewolf's vote, ruling by ruling (shared/rules/one-night-ultimate-werewolf.md,
"The vote"): the digest's worked examples, one test per ruling, and properties of random games."""

import random
import re
from functools import cache
from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.core.vote import Ballot, VoteError, ballots_from_data, resolve_vote
from narrator.games.loader import load_game
from tests.conftest import GAMES_DIR

ONUW = "one-night-ultimate-werewolf"


@cache
def onuw():
    return load_game(GAMES_DIR / ONUW)


def seat(name, card, vote, **answers):
    return Ballot(name, card, vote, MappingProxyType(answers))


def vote(*seats, lang="en", deck=None):
    return resolve_vote(onuw(), list(seats), {}, lang, deck)


def outcome(result):
    return result.lynched, result.winning_sides, result.winners


# --- the digest's worked examples -------------------------------------------------------------

def test_example_a_werewolf_dies_the_village_wins():
    result = vote(seat("Ann", "werewolf", "Ben"), seat("Ben", "seer", "Ann"), seat("Cy", "robber", "Ann"),
                  seat("Dee", "villager", "Ann"))
    assert result.votes == {"Ann": 3, "Ben": 1, "Cy": 0, "Dee": 0}
    assert outcome(result) == (("Ann",), ("village",), ("Ben", "Cy", "Dee"))


def test_example_a_tie_kills_the_tanner_and_a_werewolf_village_and_tanner_win():
    result = vote(seat("Ann", "tanner", "Ben"), seat("Ben", "werewolf", "Ann"), seat("Cy", "villager", "Ann"),
                  seat("Dee", "villager", "Ben"))
    assert outcome(result) == (("Ann", "Ben"), ("village", "tanner"), ("Ann", "Cy", "Dee"))


def test_example_the_hunter_dies_and_shoots_the_werewolf_team_wins():
    result = vote(seat("Ann", "hunter", "Ben"), seat("Ben", "villager", "Ann"), seat("Cy", "werewolf", "Ann"),
                  seat("Dee", "minion", "Ann"))
    assert outcome(result) == (("Ann", "Ben"), ("werewolf",), ("Cy", "Dee"))


def test_example_nobody_dies_with_both_werewolves_in_the_centre_the_village_wins():
    result = vote(seat("Ann", "villager", "Ben"), seat("Ben", "seer", "Cy"), seat("Cy", "robber", "Dee"),
                  seat("Dee", "troublemaker", "Ann"))
    assert outcome(result) == ((), ("village",), ("Ann", "Ben", "Cy", "Dee"))


# --- one test per ruling ----------------------------------------------------------------------

def test_ruling_the_final_card_is_the_role():
    # Ann started as the Seer, but the Robber took it: the werewolf card in front of her is who she is.
    result = vote(seat("Ann", "werewolf", "Cy"), seat("Ben", "villager", "Ann"), seat("Cy", "robber", "Ann"))
    assert outcome(result) == (("Ann",), ("village",), ("Ben", "Cy"))


def test_ruling_the_doppelganger_is_the_role_she_copied():
    as_werewolf = vote(seat("Ann", "doppelganger", "Ben", copied="werewolf"), seat("Ben", "villager", "Cy"),
                       seat("Cy", "seer", "Ben"))
    assert outcome(as_werewolf) == (("Ben",), ("werewolf",), ("Ann",))
    as_hunter = vote(seat("Ann", "doppelganger", "Ben", copied="hunter"), seat("Ben", "werewolf", "Ann"),
                     seat("Cy", "seer", "Ann"))
    assert outcome(as_hunter) == (("Ann", "Ben"), ("village",), ("Ann", "Cy"))  # she shoots as a Hunter
    assert "Ann holds the Doppelgänger card and copied the Hunter" in as_hunter.explanation[0]


def test_ruling_a_doppelganger_who_copied_nothing_is_a_village_role():
    result = vote(seat("Ann", "doppelganger", "Ben"), seat("Ben", "villager", "Cy"), seat("Cy", "seer", "Ann"))
    assert outcome(result) == ((), ("village",), ("Ann", "Ben", "Cy"))
    assert result.explanation[0] == ("Ann holds the Doppelgänger card but copied no one: Ann plays as a Villager "
                                     "with no power.")


def test_ruling_a_doppelganger_who_copied_the_minion_is_on_the_werewolf_team():
    result = vote(seat("Ann", "doppelganger", "Cy", copied="minion"), seat("Ben", "werewolf", "Cy"),
                  seat("Cy", "villager", "Ben"), seat("Dee", "seer", "Cy"))
    assert outcome(result) == (("Cy",), ("werewolf",), ("Ann", "Ben"))


def test_ruling_the_investigator_who_saw_a_werewolf_is_one():
    result = vote(seat("Ann", "paranormal-investigator", "Ben", became="werewolf"), seat("Ben", "villager", "Ann"),
                  seat("Cy", "seer", "Ann"))
    assert outcome(result) == (("Ann",), ("village",), ("Ben", "Cy"))
    spared = vote(seat("Ann", "paranormal-investigator", "Ben", became="werewolf"), seat("Ben", "villager", "Cy"),
                  seat("Cy", "seer", "Ben"))
    assert outcome(spared) == (("Ben",), ("werewolf",), ("Ann",))


def test_ruling_the_investigator_who_saw_the_tanner_is_a_tanner():
    result = vote(seat("Ann", "paranormal-investigator", "Ben", became="tanner"), seat("Ben", "werewolf", "Ann"),
                  seat("Cy", "seer", "Ann"))
    assert outcome(result) == (("Ann",), ("tanner",), ("Ann",))  # a Tanner died, no werewolf: the wolves lose


def test_ruling_clay_makes_a_werewolf_brand_a_villager_cudgel_a_tanner():
    clay = vote(seat("Ann", "villager", "Ben", artifact="clay-of-the-werewolf"), seat("Ben", "seer", "Ann"),
                seat("Cy", "robber", "Ann"))
    assert outcome(clay) == (("Ann",), ("village",), ("Ben", "Cy"))
    brand = vote(seat("Ann", "werewolf", "Ben", artifact="brand-of-the-villager"), seat("Ben", "seer", "Cy"),
                 seat("Cy", "robber", "Ben"))
    assert outcome(brand) == (("Ben",), (), ())  # no werewolf among the players, yet someone died
    cudgel = vote(seat("Ann", "villager", "Ben", artifact="cudgel-of-the-tanner"), seat("Ben", "werewolf", "Ann"),
                  seat("Cy", "seer", "Ann"))
    assert outcome(cudgel) == (("Ann",), ("tanner",), ("Ann",))


def test_ruling_the_other_artifacts_change_nothing():
    for artifact in ("void-of-nothingness", "mask-of-muting", "shroud-of-shame"):
        result = vote(seat("Ann", "werewolf", "Ben", artifact=artifact), seat("Ben", "seer", "Ann"),
                      seat("Cy", "robber", "Ann"))
        assert outcome(result) == (("Ann",), ("village",), ("Ben", "Cy"))
        assert "it changes nothing in the vote" in result.explanation[0]


def test_ruling_a_role_changed_by_an_artifact_loses_its_vote_power():
    hunter = vote(seat("Ann", "hunter", "Ben", artifact="brand-of-the-villager"), seat("Ben", "werewolf", "Cy"),
                  seat("Cy", "villager", "Ann"), seat("Dee", "seer", "Ann"))
    assert hunter.lynched == ("Ann",)  # no shot
    bodyguard = vote(seat("Ann", "bodyguard", "Ben", artifact="brand-of-the-villager"), seat("Ben", "werewolf", "Ann"),
                     seat("Cy", "villager", "Ben"), seat("Dee", "seer", "Cy"))
    assert bodyguard.lynched == ("Ben",)  # no protection: Ann's vote counts as any other


def test_ruling_the_bodyguard_protects_from_the_vote_and_the_next_most_voted_die():
    result = vote(seat("Ann", "bodyguard", "Ben"), seat("Ben", "werewolf", "Cy"), seat("Cy", "villager", "Ben"),
                  seat("Dee", "seer", "Ben"), seat("Eve", "robber", "Cy"))
    assert result.votes == {"Ann": 0, "Ben": 3, "Cy": 2, "Dee": 0, "Eve": 0}
    assert outcome(result) == (("Cy",), ("werewolf",), ("Ben",))
    assert "Ben would have died with the most votes, but a Bodyguard protects them." in result.explanation


def test_ruling_the_next_most_voted_die_only_with_two_votes_or_more():
    result = vote(seat("Ann", "bodyguard", "Ben"), seat("Ben", "werewolf", "Cy"), seat("Cy", "villager", "Ben"),
                  seat("Dee", "seer", "Ben"))
    assert outcome(result) == ((), ("werewolf",), ("Ben",))


def test_ruling_the_bodyguard_protects_from_the_hunter():
    result = vote(seat("Ann", "hunter", "Cy"), seat("Ben", "bodyguard", "Cy"), seat("Cy", "werewolf", "Ann"),
                  seat("Dee", "villager", "Ann"))
    assert outcome(result) == (("Ann",), ("werewolf",), ("Cy",))
    assert "Ann, the Hunter, dies and points at Cy, but a Bodyguard protects Cy." in result.explanation


def test_ruling_nobody_with_two_votes_nobody_dies():
    result = vote(seat("Ann", "werewolf", "Ben"), seat("Ben", "seer", "Cy"), seat("Cy", "villager", "Ann"))
    assert outcome(result) == ((), ("werewolf",), ("Ann",))


def test_ruling_ties_at_the_top_all_die():
    result = vote(seat("Ann", "werewolf", "Cy"), seat("Ben", "werewolf", "Cy"), seat("Cy", "seer", "Ann"),
                  seat("Dee", "villager", "Ann"), seat("Eve", "robber", "Fay"), seat("Fay", "tanner", "Eve"))
    assert result.lynched == ("Ann", "Cy")
    assert result.winning_sides == ("village",)


def test_ruling_a_hunter_shot_by_a_hunter_shoots_too():
    result = vote(seat("Ann", "hunter", "Ben"), seat("Ben", "doppelganger", "Cy", copied="hunter"),
                  seat("Cy", "werewolf", "Ann"), seat("Dee", "villager", "Ann"))
    assert result.lynched == ("Ann", "Ben", "Cy")
    assert outcome(result)[1:] == (("village",), ("Ann", "Ben", "Dee"))


def test_ruling_a_dead_tanner_stops_the_werewolves():
    result = vote(seat("Ann", "tanner", "Ben"), seat("Ben", "werewolf", "Ann"), seat("Cy", "villager", "Ann"))
    assert outcome(result) == (("Ann",), ("tanner",), ("Ann",))
    assert "A Tanner died (Ann) and no werewolf did: the werewolf team cannot win." in result.explanation


def test_ruling_with_no_werewolf_the_minion_wins_if_someone_else_dies():
    result = vote(seat("Ann", "minion", "Ben"), seat("Ben", "villager", "Cy"), seat("Cy", "seer", "Ben"))
    assert outcome(result) == (("Ben",), ("werewolf",), ("Ann",))
    minion_dies = vote(seat("Ann", "minion", "Ben"), seat("Ben", "villager", "Ann"), seat("Cy", "seer", "Ann"))
    assert outcome(minion_dies) == (("Ann",), (), ())
    nobody = vote(seat("Ann", "minion", "Ben"), seat("Ben", "villager", "Cy"), seat("Cy", "seer", "Ann"))
    assert outcome(nobody) == ((), ("village",), ("Ben", "Cy"))


def test_ruling_no_werewolf_and_a_death_without_minion_nobody_wins():
    result = vote(seat("Ann", "villager", "Ben"), seat("Ben", "seer", "Ann"), seat("Cy", "robber", "Ann"))
    assert outcome(result) == (("Ann",), (), ())
    assert result.explanation[-2:] == ("Neither the village nor the werewolf team wins.", "Nobody wins.")


def test_ruling_the_dream_wolf_alpha_and_mystic_wolves_are_werewolves():
    for card in ("alpha-wolf", "mystic-wolf", "dream-wolf"):
        result = vote(seat("Ann", card, "Ben"), seat("Ben", "seer", "Ann"), seat("Cy", "villager", "Ann"))
        assert outcome(result) == (("Ann",), ("village",), ("Ben", "Cy"))


def test_explanation_in_italian_names_nobody_with_a_gendered_word():
    result = vote(seat("Ann", "hunter", "Ben"), seat("Ben", "villager", "Ann"), seat("Cy", "werewolf", "Ann"),
                  seat("Dee", "minion", "Ann"), lang="it")
    assert result.explanation == (
        "Voti ricevuti: Ann 3, Ben 1, Cy 0, Dee 0.",
        "Muore Ann, con più voti di tutti (3).",
        "Ann, che gioca come Cacciatore, muore e porta con sé Ben.",
        "Almeno un giocatore è un lupo, e non sono morti né lupi né il Conciatore: vince la squadra dei lupi.",
        "Vincono: Cy e Dee.",
    )


@pytest.mark.parametrize("lang, sentences", [
    ("en", ("Tanners died (Ann and Ben) and no werewolf did: the werewolf team cannot win.",
            "Ann and Ben died as Tanners, and each of them wins.")),
    ("it", ("Tra i morti ci sono dei Conciatori (Ann e Ben) e nessun lupo: la squadra dei lupi non può vincere.",
            "Ann e Ben muoiono come Conciatori, ed è la vittoria di ciascuno."))])
def test_two_players_dying_as_the_tanner_are_spoken_of_in_the_plural(lang, sentences):
    result = vote(seat("Ann", "tanner", "Ben"), seat("Ben", "doppelganger", "Ann", copied="tanner"),
                  seat("Cy", "villager", "Ann"), seat("Dee", "villager", "Ben"), seat("Eve", "werewolf", "Cy"),
                  lang=lang)
    assert outcome(result) == (("Ann", "Ben"), ("tanner",), ("Ann", "Ben"))
    assert result.explanation[-3:-1] == sentences


def test_in_italian_a_power_is_the_role_played_not_the_card_held():
    result = vote(seat("Ann", "werewolf", "Cy"), seat("Ben", "doppelganger", "Ann", copied="bodyguard"),
                  seat("Cy", "villager", "Ann"), seat("Dee", "hunter", "Ann"), seat("Eve", "seer", "Dee"),
                  seat("Fay", "villager", "Dee"), lang="it")
    assert result.explanation[2:6] == (
        "Ben, che gioca come Guardia del Corpo, indica Ann: Ann non può morire.",
        "Con più voti di tutti sarebbe toccato ad Ann, ma la Guardia del Corpo lo impedisce.",
        "Muore Dee, con più voti di tutti (2).",
        "Dee, che gioca come Cacciatore, muore e indica Ann, ma la Guardia del Corpo protegge Ann.")


# --- the votes file and bad ballots -----------------------------------------------------------

def test_the_issue_votes_file_reads_copied_became_and_artifact():
    data = {"game": ONUW, "players": [
        {"name": "Ann", "card": "werewolf", "vote": "Ben"},
        {"name": "Ben", "card": "doppelganger", "copied": "hunter", "vote": "Ann"},
        {"name": "Cy", "card": "paranormal-investigator", "became": "tanner", "vote": "Ann"},
        {"name": "Dee", "card": "villager", "artifact": "clay-of-the-werewolf", "vote": "Ann"},
    ]}
    ballots, table = ballots_from_data(onuw(), data, "votes.yaml")
    assert [dict(ballot.answers) for ballot in ballots] == [{}, {"copied": "hunter"}, {"became": "tanner"},
                                                            {"artifact": "clay-of-the-werewolf"}]
    result = resolve_vote(onuw(), ballots, table, "en")
    # Ann dies; Dee is a werewolf by the Claw and lives: a werewolf died, the village wins.
    assert outcome(result) == (("Ann",), ("village",), ("Ben",))


@pytest.mark.parametrize("seats, message", [
    ([("Ann", "villager", "Ann"), ("Ben", "seer", "Ann"), ("Cy", "werewolf", "Ann")],
     "Ann votes for themselves: everyone points at another player"),
    ([("Ann", "villager", "Zed"), ("Ben", "seer", "Ann"), ("Cy", "werewolf", "Ann")],
     "Ann votes for 'Zed', who is not playing (players: Ann, Ben, Cy)"),
    ([("Ann", "werewolf", "Ben"), ("Ben", "werewolf", "Ann"), ("Cy", "werewolf", "Ann")],
     "3 players hold 'werewolf' (Ann, Ben, Cy), but the box has 2: check the cards"),
    ([("Ann", "villager", "Ben", {"copied": "hunter"}), ("Ben", "seer", "Ann"), ("Cy", "werewolf", "Ann")],
     "Ann holds 'villager': 'copied' is only for a player holding 'doppelganger'"),
    ([("Ann", "doppelganger", "Ben", {"copied": "doppelganger"}), ("Ben", "seer", "Ann"), ("Cy", "werewolf", "Ann")],
     "'copied: doppelganger' cannot be: one of werewolf, minion"),
    ([("Ann", "paranormal-investigator", "Ben", {"became": "seer"}), ("Ben", "seer", "Ann"),
      ("Cy", "werewolf", "Ann")], "'became: seer' cannot be: one of werewolf, tanner, alpha-wolf"),
    ([("Ann", "doppelganger", "Ben", {"copied": "seer", "became": "werewolf"}), ("Ben", "seer", "Ann"),
      ("Cy", "werewolf", "Ann")], "Ann holds 'doppelganger' (copied: seer): 'became' does not apply to that card"),
    ([("Ann", "villager", "Ben", {"artifact": "mask-of-muting"}), ("Ben", "seer", "Ann", {"artifact": "mask-of-muting"}),
      ("Cy", "werewolf", "Ann")], "'mask-of-muting' lies on two cards (Ann, Ben), but there is one of each"),
])
def test_bad_ballots_are_refused_with_the_fix(seats, message):
    ballots = [seat(name, card, target, **(extra[0] if extra else {})) for name, card, target, *extra in seats]
    with pytest.raises(VoteError, match=re.escape(message)):
        resolve_vote(onuw(), ballots, {}, "en")


@pytest.mark.parametrize("entry, message", [
    ({"name": "Ann", "card": "werewolf", "vote": "Ben", "artifact": "hammer"},
     "votes.yaml: players[0].artifact: no token 'hammer' (known tokens: clay-of-the-werewolf,"),
    ({"name": "Ann", "card": "wherewolf", "vote": "Ben"}, "votes.yaml: players[0]: no role 'wherewolf' — did you mean"),
    ({"name": "Ann", "card": "werewolf", "vote": "Ben", "bewitched": "seer"},
     "votes.yaml: players[0]: unknown field 'bewitched' (each player has name, card, vote, copied, became, artifact)"),
])
def test_bad_votes_files_are_one_line(entry, message):
    with pytest.raises(VoteError, match=re.escape(message)):
        ballots_from_data(onuw(), {"players": [entry]}, "votes.yaml")


def test_artifact_names_in_either_language_are_accepted():
    data = {"players": [{"name": "Ann", "card": "Lupo Mannaro", "vote": "Ben", "artifact": "Marchio del Paesano"},
                        {"name": "Ben", "card": "Seer", "vote": "Ann", "artifact": "void of nothingness"}]}
    ballots, _table = ballots_from_data(onuw(), data, "votes.yaml")
    assert [ballot.answers["artifact"] for ballot in ballots] == ["brand-of-the-villager", "void-of-nothingness"]


def test_after_a_night_the_artifacts_need_the_curator_and_cards_may_include_the_centre_werewolf():
    from narrator.core.deck import parse_deck_list

    deck = parse_deck_list(onuw(), "alpha-wolf, werewolf, seer, robber, villager, minion")  # the other werewolf apart
    assert deck.apart == (("werewolf", 1),)
    # The Alpha Wolf gave the centre werewolf to Cy: two players may hold a werewolf card.
    result = vote(seat("Ann", "werewolf", "Cy"), seat("Ben", "alpha-wolf", "Cy"), seat("Cy", "werewolf", "Ann"),
                  deck=deck)
    assert result.lynched == ("Cy",)
    with pytest.raises(VoteError, match="no role of the deck played makes it happen"):
        vote(seat("Ann", "werewolf", "Cy", artifact="mask-of-muting"), seat("Ben", "alpha-wolf", "Cy"),
             seat("Cy", "seer", "Ann"), deck=deck)


# --- properties over random legal games -------------------------------------------------------

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]


@st.composite
def games(draw):
    from narrator.core.deck import random_deck

    game = onuw()
    players = draw(st.integers(3, 10))
    deck = random_deck(game, players, random.Random(draw(st.integers(0, 2**32))))
    table_cards = [role for role, copies in (*deck.counts, *deck.apart) for _ in range(copies)]
    cards = draw(st.permutations(table_cards))[:players]
    names = NAMES[:players]
    ballots = []
    artifacts = list(game.tokens) if "curator" in deck.role_ids else []
    turns = game.rules.artifact_turns(game, deck)  # no more than the night's turns could place
    for name, card in zip(names, cards, strict=True):
        answers = {}
        if card == "doppelganger" and draw(st.booleans()):
            answers["copied"] = draw(st.sampled_from([r for r in sorted(deck.table_role_ids) if r != "doppelganger"]
                                                     or ["villager"]))
        if card == "paranormal-investigator" and draw(st.booleans()):
            answers["became"] = draw(st.sampled_from(["werewolf", "tanner"]))
        if artifacts and len(game.tokens) - len(artifacts) < turns and draw(st.booleans()):
            answers["artifact"] = artifacts.pop(draw(st.integers(0, len(artifacts) - 1)))
        target = draw(st.sampled_from([other for other in names if other != name]))
        ballots.append(seat(name, card, target, **answers))
    return deck, ballots


def _final_roles(ballots):
    rules = onuw().rules
    return {ballot.name: rules.final_role(onuw(), ballot)[0] for ballot in ballots}


@settings(max_examples=400, deadline=None)
@given(case=games())
def test_properties_of_every_result(case):
    deck, ballots = case
    game = onuw()
    result = resolve_vote(game, ballots, {}, "en", deck)
    names = [ballot.name for ballot in ballots]
    roles = _final_roles(ballots)
    werewolf = {name for name in names if game.role(roles[name]).trait("werewolf")}
    tanner = {name for name in names if game.role(roles[name]).trait("wins_if_dies")}
    assert sum(result.votes.values()) == len(ballots) and list(result.votes) == names
    assert list(result.lynched) == [n for n in names if n in result.lynched]  # seating order
    assert list(result.winners) == [n for n in names if n in result.winners]
    most = max(result.votes.values())
    if most < 2:
        assert result.lynched == ()  # nobody dies without two votes
    if set(result.lynched) & werewolf:
        assert "village" in result.winning_sides and "werewolf" not in result.winning_sides
    if set(result.lynched) & tanner:
        assert "tanner" in result.winning_sides and "werewolf" not in result.winning_sides
        assert set(result.lynched) & tanner <= set(result.winners)
    assert not (tanner - set(result.lynched)) & set(result.winners)  # a living Tanner never wins
    for name in result.winners:  # every winner is on a side that won
        side = game.role(roles[name]).side
        assert side in result.winning_sides
    assert all(isinstance(line, str) and line for line in result.explanation)
    assert list(result.as_dict()) == ["votes_cast", "votes", "lynched", "winning_sides", "winners", "explanation"]


@settings(max_examples=200, deadline=None)
@given(case=games(), seed=st.integers(0, 1000))
def test_results_do_not_depend_on_the_order_of_the_ballots(case, seed):
    deck, ballots = case
    shuffled = list(ballots)
    random.Random(seed).shuffle(shuffled)
    one = resolve_vote(onuw(), ballots, {}, "en", deck)
    other = resolve_vote(onuw(), shuffled, {}, "en", deck)
    assert set(one.lynched) == set(other.lynched) and set(one.winners) == set(other.winners)
    assert set(one.winning_sides) == set(other.winning_sides)


def test_no_more_artifacts_than_the_night_could_place():
    from narrator.core.deck import make_deck

    game = onuw()
    three = [seat("Ann", "villager", "Ben", artifact="mask-of-muting"),
             seat("Ben", "seer", "Ann", artifact="shroud-of-shame"), seat("Cy", "werewolf", "Ann", artifact="void-of-nothingness")]
    with pytest.raises(VoteError, match=re.escape("3 artifacts lie on cards, but this deck places at most 2 (one at "
                                                  "each turn that places one): check the tokens")):
        resolve_vote(game, three, {}, "en")  # the box: the Curator, and a Doppelgänger who copied her
    with_a_curator = make_deck(game, {"villager": 1, "seer": 1, "werewolf": 1, "curator": 1, "robber": 1, "drunk": 1})
    with pytest.raises(VoteError, match=re.escape("2 artifacts lie on cards, but this deck places at most 1")):
        resolve_vote(game, three[:2] + [seat("Cy", "werewolf", "Ann")], {}, "en", with_a_curator)
    assert resolve_vote(game, three[:1] + [seat("Ben", "seer", "Ann"), seat("Cy", "werewolf", "Ann")], {}, "en",
                        with_a_curator).lynched
