"""A game of many nights in the core (narrator.core.rounds): the course of Lupus in Tabula night
after night, one test per ruling the game loop applies, and whole games played to the end with
random choices, resumed from every entry and undone."""

import json
import random
from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.core.kinds import STOCK
from narrator.core.procedures import HandsStep, QuestionStep, VoteStep
from narrator.core.rounds import (
    ActStep,
    DawnStep,
    DayStep,
    EndQuestion,
    LynchStep,
    NightStep,
    Over,
    PhaseStep,
    Rounds,
    RoundsError,
    Setup,
    answer_for,
    entry_for,
    setup_as_dict,
    setup_from_dict,
)
from narrator.games import GAMES_DIR
from narrator.games.loader import load_game

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ugo", "Vera", "Zeno", "Luca", "Nina",
         "Olga", "Piero", "Rita", "Sara", "Teo", "Ivo", "Maria", "Jole", "Kai", "Ada", "Bea", "Ciro")


@pytest.fixture(scope="module")
def game():
    return load_game(GAMES_DIR / "lupus-in-tabula")


def setup_of(game, cards: dict | None, players: int | None = None, **options) -> Setup:
    """A table: ``cards`` (name: role) with a moderator, or ``players`` and no moderator."""
    chosen = {**game.option_defaults, **{name.replace("_", "-"): value for name, value in options.items()}}
    if cards is None:
        deck = game.recommended_decks[players]
        return Setup(NAMES[:players], MappingProxyType(dict(deck)), MappingProxyType(chosen), None)
    deck: dict[str, int] = {}
    for role_id in cards.values():
        deck[role_id] = deck.get(role_id, 0) + 1
    return Setup(tuple(cards), MappingProxyType(deck), MappingProxyType(chosen), MappingProxyType(dict(cards)))


def dealt(game, players: int, rng: random.Random) -> dict:
    deck = game.recommended_decks[players]
    cards = [role_id for role_id, copies in deck.items() for _copy in range(copies)]
    rng.shuffle(cards)
    return dict(zip(NAMES[:players], cards, strict=True))


def random_value(ask, rng: random.Random):
    """What a moderator might enter for an ask, by its kind: any allowed answer, sometimes none."""
    if not ask.required and rng.random() < 0.1:
        return None
    if ask.kind not in STOCK:  # a game's own kind: any answer its form offers
        from moderation import random_answer

        return random_answer(ask.of_kind.form(ask, "", NO_WORDS), rng)
    if ask.kind == "player":
        return rng.choice(ask.candidates)
    if ask.kind == "players":
        return rng.sample(ask.candidates, rng.randint(max(1, ask.least), min(len(ask.candidates), ask.most or 3)))
    if ask.kind == "each":
        return {chooser: rng.choice(ask.candidates) for chooser in ask.choosers
                if ask.required or rng.random() < 0.8} or None
    if ask.kind == "yes-no":
        return rng.random() < 0.5
    if ask.kind == "fields":
        return {part: rng.choice(allowed) for part, allowed in rng.choice(ask.forms)}
    return rng.choice(ask.choices)


class NO_WORDS:  # noqa: N801 - a game's sentences, none of them: the forms' own words
    @staticmethod
    def optional(key, **values):
        return None


def random_entry(step, rng: random.Random) -> dict:
    """What a table might enter at ``step``: any allowed name, sometimes nobody."""
    given = {}
    if isinstance(step, PhaseStep) and step.enters or isinstance(step, ActStep):
        given["choice"] = random_value(step.ask, rng)
    elif isinstance(step, DawnStep) and step.dawn is None:
        given["dead"] = rng.sample(step.state.living, rng.choice((0, 1, 1, 1)))
    elif isinstance(step, EndQuestion):
        given["winner"] = rng.choice(("lupi", "umani")) if step.must_end or rng.random() < 0.1 else None
    elif isinstance(step, DayStep) and step.procedure.most_hands is not None and rng.random() < 0.4:
        hands = dict.fromkeys(step.procedure.candidates, 0)  # each voter's hands, counted for whom they voted
        for voter in step.procedure.voters:
            if rng.random() < 0.85:
                hands[rng.choice([name for name in hands if name != voter])] += step.procedure.weights.get(voter, 1)
        given["hands"] = hands
    elif isinstance(step, HandsStep) and rng.random() < 0.4:  # a count for each name, within the most
        given["hands"] = dict.fromkeys(step.candidates, 0)
        for _hand in range(rng.randint(0, step.most)):
            given["hands"][rng.choice(step.candidates)] += 1
    elif isinstance(step, VoteStep):
        abstains = step.may_pass and rng.random() < 0.15
        several = step.several and len(step.candidates) > 1 and rng.random() < 0.5
        given["voted"] = None if abstains else rng.sample(step.candidates, 2) if several else \
            rng.choice(step.candidates)
    elif isinstance(step, QuestionStep):
        given["choice"] = random_value(step.ask, rng)
    return entry_for(step, **given)


def settle_record(game, table: dict, *rounds, **options) -> dict:
    """``narrate replay``'s JSON for a record of ``table`` (name: card), its options and its rounds."""
    from narrator.core.replay import replay

    record = {"players": [{"name": name, "card": card} for name, card in table.items()],
              "options": {name.replace("_", "-"): value if isinstance(value, str) else "on" if value else "off"
                          for name, value in options.items()},
              "rounds": list(rounds)}
    return replay(game, record, "record.yaml").as_dict()


def play_to_the_end(game, setup, rng, most=5000) -> Rounds:
    rounds = Rounds(game, setup)
    for _entry in range(most):
        if isinstance(rounds.step, Over):
            return rounds
        rounds.enter(random_entry(rounds.step, rng))
    raise AssertionError("the game did not end")


def advance(rounds: Rounds, until, choices: dict | None = None, votes=None) -> None:
    """Enter what each step needs until a step ``until(step)`` is true: ``choices`` by phase id,
    votes by ``votes(step)``; everything else nobody."""
    for _entry in range(1000):
        step = rounds.step
        if until(step):
            return
        given = {}
        if isinstance(step, PhaseStep) and step.enters:
            given["choice"] = (choices or {}).get((step.state.night, step.phase))
        if isinstance(step, VoteStep):
            given["voted"] = votes(step)
        rounds.enter(entry_for(step, **given))
    raise AssertionError("never reached")


def votes_for(*names):
    """Votes for the first of ``names`` still a candidate (else the first candidate)."""
    return lambda step: next((name for name in names if name in step.candidates), step.candidates[0])


CARDS = {"Anna": "lupo-mannaro", "Bruno": "villico", "Carla": "veggente", "Dario": "guardia-del-corpo",
         "Elena": "criceto-mannaro", "Fabio": "lupo-mannaro", "Gino": "medium", "Ugo": "villico",
         "Vera": "gufo", "Zeno": "mitomane", "Luca": "indemoniato", "Nina": "villico"}


def phases_of(rounds: Rounds, night: int) -> list[str]:
    seen = []
    advance(rounds, lambda step: isinstance(step, PhaseStep) and step.state.night == night)
    while isinstance(rounds.step, PhaseStep):
        seen.append((rounds.step.phase, rounds.step.enters))
        rounds.enter(entry_for(rounds.step, choice=None))
    return seen


def test_the_first_night_calls_its_turns_and_the_quiet_lupi_choose_no_victim(game):
    rounds = Rounds(game, setup_of(game, CARDS))
    assert phases_of(rounds, 1) == [("night", False), ("veggente", True), ("gufo", True), ("lupo-mannaro", False),
                                    ("dawn", False)]
    rounds = Rounds(game, setup_of(game, CARDS, quiet_first_night=False))
    assert ("lupo-mannaro", True) in phases_of(rounds, 1)


def test_the_second_night_adds_the_medium_the_guardia_and_the_mitomane(game):
    rounds = Rounds(game, setup_of(game, CARDS))
    first_vote = lambda step: "Bruno"  # noqa: E731
    advance(rounds, lambda step: isinstance(step, PhaseStep) and step.state.night == 2, votes=first_vote)
    assert [phase for phase, _asked in phases_of(rounds, 2)] == [
        "night", "medium", "veggente", "gufo", "guardia-del-corpo", "lupo-mannaro", "mitomane", "dawn"]


def test_a_dead_characters_turn_is_called_and_asks_nothing(game):
    rounds = Rounds(game, setup_of(game, CARDS))
    advance(rounds, lambda step: isinstance(step, PhaseStep) and step.state.night == 2,
            votes=lambda step: "Carla")  # the Veggente is lynched on the first day
    assert rounds.step.state.dead == ("Carla",)
    advance(rounds, lambda step: isinstance(step, PhaseStep) and step.phase == "veggente")
    assert rounds.step.ask is None and rounds.step.nobody_alive


def test_the_medium_learns_whether_yesterdays_lynched_was_a_lupo(game):
    for lynched, answer in (("Anna", "wolf"), ("Elena", "not-wolf"), ("Bruno", "not-wolf")):  # the Criceto counts as human
        rounds = Rounds(game, setup_of(game, CARDS))
        advance(rounds, lambda step: isinstance(step, PhaseStep) and step.phase == "medium",
                votes=lambda step, name=lynched: name)
        step = rounds.step
        assert (step.ask.about, answer_for(game, step.state, step.ask, None, step.tonight)) == (lynched, answer)


def test_the_veggente_is_answered_about_the_player_it_points_at(game):
    rounds = Rounds(game, setup_of(game, CARDS))
    advance(rounds, lambda step: isinstance(step, PhaseStep) and step.phase == "veggente")
    step = rounds.step
    assert answer_for(game, step.state, step.ask, "Fabio", step.tonight) == "wolf"
    assert answer_for(game, step.state, step.ask, "Elena", step.tonight) == "not-wolf"
    assert "Carla" not in step.ask.candidates  # the Veggente never points at itself


def test_the_guardia_cannot_protect_itself_and_saves_the_victim(game):
    rounds = Rounds(game, setup_of(game, CARDS))
    choices = {(2, "guardia-del-corpo"): "Bruno", (2, "lupo-mannaro"): "Bruno"}
    advance(rounds, lambda step: isinstance(step, PhaseStep) and step.phase == "guardia-del-corpo",
            votes=lambda step: "Ugo")
    assert "Dario" not in rounds.step.ask.candidates
    advance(rounds, lambda step: isinstance(step, DawnStep), choices)
    assert rounds.step.dawn.dead == () and rounds.step.dawn.reasons == (("protected", "Bruno"),)


def test_the_night_victim_dies_at_dawn_and_takes_the_benvenuto(game):
    rounds = Rounds(game, setup_of(game, CARDS, quiet_first_night=False))
    advance(rounds, lambda step: isinstance(step, DayStep), {(1, "lupo-mannaro"): "Bruno"})
    assert rounds.step.state.dead == ("Bruno",) and rounds.step.procedure.anchor == "Bruno"
    advance(rounds, lambda step: isinstance(step, VoteStep))
    assert rounds.step.voter == "Carla"  # the nomination starts at the left of the Benvenuto holder...
    assert rounds.step.procedure.voting_order()[-1] == "Bruno"  # ...who votes last, a ghost voting too


def test_before_anyone_dies_the_moderator_keeps_the_benvenuto(game):
    rounds = Rounds(game, setup_of(game, CARDS))
    advance(rounds, lambda step: isinstance(step, VoteStep))
    assert rounds.step.procedure.anchor is None and rounds.step.voter == "Anna"  # the moderator's left


def test_the_gufato_is_a_suspect_at_the_next_vote(game):
    rounds = Rounds(game, setup_of(game, CARDS))
    advance(rounds, lambda step: isinstance(step, VoteStep), {(1, "gufo"): "Ugo"})
    assert rounds.step.procedure.forced == "Ugo"
    advance(rounds, lambda step: isinstance(step, VoteStep) and step.round == "runoff", votes=lambda step: "Anna")
    assert rounds.step.suspects == ("Anna", "Ugo")  # every vote for Anna, and the gufato


def test_the_mitomane_who_points_at_a_lupo_becomes_one_and_wakes_with_them(game):
    rounds = Rounds(game, setup_of(game, CARDS))
    advance(rounds, lambda step: isinstance(step, PhaseStep) and step.state.night == 3,
            {(2, "mitomane"): "Fabio"}, votes=votes_for("Ugo", "Nina"))
    assert rounds.step.state.cards["Zeno"] == "lupo-mannaro"
    advance(rounds, lambda step: isinstance(step, PhaseStep) and step.phase == "lupo-mannaro")
    assert rounds.step.ask.choosers == ("Anna", "Fabio", "Zeno")
    other = Rounds(game, setup_of(game, CARDS))
    advance(other, lambda step: isinstance(step, PhaseStep) and step.state.night == 3,
            {(2, "mitomane"): "Bruno"}, votes=votes_for("Ugo", "Nina"))
    assert other.step.state.cards["Zeno"] == "mitomane"  # a villico: the Mitomane stays as it was


def test_the_humans_win_when_the_last_lupo_is_lynched(game):
    cards = {"Anna": "lupo-mannaro", "Bruno": "villico", "Carla": "veggente", "Dario": "villico", "Elena": "villico",
             "Fabio": "lupo-mannaro", "Gino": "villico", "Ugo": "villico"}
    rounds = Rounds(game, setup_of(game, cards))
    advance(rounds, lambda step: isinstance(step, Over),
            votes=lambda step: "Anna" if "Anna" in step.candidates else "Fabio")
    assert rounds.step.sides == ("umani",) and rounds.step.state.dead == ("Anna", "Fabio")
    assert rounds.step.winners == ("Bruno", "Carla", "Dario", "Elena", "Gino", "Ugo")


def test_the_lupi_win_as_soon_as_they_are_as_many_as_the_humans(game):
    cards = {"Anna": "lupo-mannaro", "Bruno": "villico", "Carla": "veggente", "Dario": "villico", "Elena": "villico",
             "Fabio": "lupo-mannaro", "Gino": "villico", "Ugo": "villico"}
    rounds = Rounds(game, setup_of(game, cards))
    humans = iter(["Bruno", "Carla", "Dario", "Elena", "Gino", "Ugo"])
    victims = {(night, "lupo-mannaro"): next(humans) for night in (2, 3)}
    lynched = iter(["Gino", "Ugo", "Carla"])
    day_choice = {}

    def vote(step):
        if step.state.night not in day_choice:
            day_choice[step.state.night] = next(lynched)
        target = day_choice[step.state.night]
        return target if target in step.candidates else step.candidates[0]

    advance(rounds, lambda step: isinstance(step, Over), victims, votes=vote)
    assert rounds.step.sides == ("lupi",)
    living = rounds.step.state.living
    assert sum(cards[name] == "lupo-mannaro" for name in living) * 2 >= len(living)
    assert rounds.step.winners == ("Anna", "Fabio")


def test_without_a_moderator_the_group_says_who_died_and_when_a_side_won(game):
    rounds = Rounds(game, setup_of(game, None, players=8, vecchio_saggio=True))
    assert isinstance(rounds.step, NightStep)
    rounds.enter(entry_for(rounds.step))
    assert isinstance(rounds.step, DawnStep) and rounds.step.dawn is None
    rounds.enter(entry_for(rounds.step, dead=["Bruno"]))
    assert isinstance(rounds.step, EndQuestion)
    rounds.enter(entry_for(rounds.step, winner=None))
    assert isinstance(rounds.step, DayStep) and rounds.step.procedure.anchor == "Bruno"
    advance(rounds, lambda step: isinstance(step, EndQuestion), votes=lambda step: step.candidates[0])
    rounds.enter(entry_for(rounds.step, winner="lupi"))
    assert isinstance(rounds.step, Over) and rounds.step.sides == ("lupi",) and rounds.step.winners is None


def test_the_ghosts_lay_the_sword_and_the_shield_first_and_second_to_die(game):
    rounds = Rounds(game, setup_of(game, CARDS, minaccia_fantasma=True, quiet_first_night=False))
    advance(rounds, lambda step: isinstance(step, PhaseStep) and step.phase == "dawn",
            {(1, "lupo-mannaro"): "Bruno"})
    assert rounds.step.ask is None  # the ghosts wake from the second night
    advance(rounds, lambda step: isinstance(step, PhaseStep) and step.phase == "dawn" and step.state.night == 2,
            {(1, "lupo-mannaro"): "Bruno"}, votes=votes_for("Ugo"))
    ask = rounds.step.ask
    assert (ask.key, ask.kind, ask.choosers, ask.labels) == ("fantasmi", "each", ("sword", "shield"), ("Bruno", "Ugo"))
    rounds.enter(entry_for(rounds.step, choice={"sword": "Anna", "shield": "Nina"}))
    advance(rounds, lambda step: isinstance(step, DayStep))
    assert (rounds.step.procedure.plus, rounds.step.procedure.minus) == ("Anna", "Nina")  # a vote more, one fewer


def test_without_a_moderator_the_group_says_which_marks_were_turned_up_and_they_count(game):
    """Vecchio Saggio with La Minaccia Fantasma: the marks lie face down, so the laptop learns of
    them only when the group says one was turned up (a living player voted for the one it lies
    before); then they count as with a moderator."""
    rounds = Rounds(game, setup_of(game, None, players=8, vecchio_saggio=True, minaccia_fantasma=True))
    dead = {1: ["Bruno"], 2: ["Ugo"]}  # at each dawn; Carla is lynched on day 1
    day_two = {"Anna": "Elena", "Dario": "Elena", "Elena": "Anna", "Fabio": "Anna", "Gino": "Dario",  # the living
               "Bruno": "Dario", "Carla": "Gino", "Ugo": "Gino"}  # the ghosts: Gino has only their votes
    for _entry in range(100):
        step = rounds.step
        if isinstance(step, QuestionStep):
            break
        given = {}
        if isinstance(step, DawnStep):
            given["dead"] = dead[step.state.night]
        elif isinstance(step, VoteStep) and step.state.night == 1:
            given["voted"] = "Carla" if "Carla" in step.candidates else step.candidates[0]
        elif isinstance(step, VoteStep):
            given["voted"] = day_two[step.voter]
        rounds.enter(entry_for(step, **given))
    step = rounds.step
    assert isinstance(step, QuestionStep) and step.ask.kind == "each"
    # laid before Ugo died, after the ghosts' turn: each mark with its holder
    assert (step.ask.choosers, step.ask.labels) == (("plus", "minus"), ("Bruno", "Carla"))
    assert step.ask.candidates == ("Anna", "Dario", "Elena")  # a living player voted for them
    with pytest.raises(RoundsError, match=": 'Gino' is not one of Anna, Dario, Elena"):
        rounds.enter(entry_for(step, choice={"plus": "Gino"}))
    rounds.enter(entry_for(step, choice={"plus": "Elena", "minus": "Anna"}))
    advance(rounds, lambda step: isinstance(step, LynchStep), votes=votes_for("Elena"))
    vote, outcome = rounds.step.verdict.outcome
    assert (vote.plus, vote.minus) == ("Elena", "Anna")
    assert dict(outcome.nomination) == {"Anna": 1, "Dario": 2, "Elena": 3, "Fabio": 0, "Gino": 2}
    assert "Elena" in outcome.suspects  # the sword's player: alone at the top
    while not isinstance(rounds.undo(), QuestionStep):  # back to the marks: neither was turned up this time
        pass
    rounds.enter(entry_for(rounds.step, choice=None))
    advance(rounds, lambda step: isinstance(step, LynchStep), votes=votes_for("Elena"))
    assert dict(rounds.step.verdict.outcome[1].nomination) == {"Anna": 2, "Dario": 2, "Elena": 2, "Fabio": 0,
                                                              "Gino": 2}


def test_an_entry_that_does_not_fit_is_refused_and_changes_nothing(game):
    rounds = Rounds(game, setup_of(game, CARDS))
    advance(rounds, lambda step: isinstance(step, PhaseStep) and step.phase == "veggente")
    before = (rounds.step, list(rounds.entries))
    for entry in (entry_for(rounds.step, choice="Nobody"), {"kind": "day", "night": 1},
                  {**entry_for(rounds.step, choice="Anna"), "extra": 1}, "veggente", {**entry_for(rounds.step), "night": 2},
                  {**entry_for(rounds.step, choice="Anna"), "voted": "x"}, entry_for(rounds.step, choice="Carla"),
                  {**entry_for(rounds.step), "choice": ["Anna"]}):
        with pytest.raises(RoundsError):
            rounds.enter(entry)
    assert (rounds.step, rounds.entries) == before


def test_undo_takes_back_the_last_thing_typed(game):
    rounds = Rounds(game, setup_of(game, CARDS))
    advance(rounds, lambda step: isinstance(step, PhaseStep) and step.phase == "gufo")
    veggente_entry = rounds.entries[-1]
    assert rounds.undo().phase == "veggente"
    rounds.enter(veggente_entry)
    assert rounds.step.phase == "gufo"
    with pytest.raises(RoundsError):
        Rounds(game, setup_of(game, CARDS)).undo()
    advance(rounds, lambda step: isinstance(step, VoteStep))  # past the Gufo, the lupi, the dawn and the day
    assert rounds.undo().phase == "gufo"  # the steps between were no answers: back to the last one
    assert [entry["kind"] for entry in rounds.entries] == ["phase", "phase"]


def test_a_saved_setup_reads_back_and_a_broken_one_is_refused(game):
    setup = setup_of(game, CARDS, minaccia_fantasma=True)
    assert setup_from_dict(setup_as_dict(setup)) == setup
    for broken in (None, {}, {**setup_as_dict(setup), "deck": ["veggente"]}, {**setup_as_dict(setup), "extra": 1},
                   {**setup_as_dict(setup), "options": {"x": "on"}}):
        with pytest.raises(RoundsError):
            setup_from_dict(broken)
    with pytest.raises(RoundsError):  # a moderator's game needs the cards, and the cards must be the deck's
        Rounds(game, Setup(setup.seating, setup.deck, setup.options, None))
    with pytest.raises(RoundsError):
        Rounds(game, Setup(setup.seating, setup.deck, setup.options, {**CARDS, "Anna": "veggente"}))


@pytest.mark.parametrize("players, moderator", [(8, True), (12, True), (16, True), (20, True), (24, True),
                                                (8, False)])  # the Vecchio Saggio is played by eight
def test_whole_games_with_random_choices_end_as_the_rules_say_and_resume_from_any_entry(game, players, moderator):
    for seed in range(6 if moderator else 30):
        rng = random.Random(players * 100 + seed)
        options = {"minaccia_fantasma": seed % 2 == 0, "quiet_first_night": seed % 3 != 0}
        setup = (setup_of(game, dealt(game, players, rng), **options) if moderator
                 else setup_of(game, None, players=players, vecchio_saggio=True, **options))
        rounds = play_to_the_end(game, setup, rng)
        over = rounds.step
        if moderator:  # the end, checked against the digest's words on the cards as they are at the end
            assert_the_end_is_the_digests(game, over)
        assert_replays_and_resumes_from_any_entry(game, setup, rounds, rng)


def assert_replays_and_resumes_from_any_entry(game, setup, rounds, rng):
    """The entries replayed come to the same end; a game killed at any entry resumes where it was."""
    over = rounds.step
    keys = []
    replayed = Rounds(game, setup)
    for entry in rounds.entries:
        keys.append(replayed.step.key)
        replayed.enter(entry)
    assert replayed.step == over
    cut = rng.randrange(len(rounds.entries))
    resumed = Rounds(game, setup, rounds.entries[:cut])
    assert resumed.step.key == keys[cut]
    for entry in rounds.entries[cut:]:
        resumed.enter(entry)
    assert resumed.step == over


def wolves_and_humans(game, table):
    living = table.living
    wolves = [name for name in living if game.role(table.cards[name]).trait("wolf")]
    return wolves, [name for name in living if name not in wolves]


def assert_the_end_is_the_digests(game, over):
    """Umani when every lupo is dead, lupi when as many as the humans (the Indemoniato and the
    Criceto count as humans), a living Criceto alone; the whole side wins, the dead too."""
    cards = over.state.cards
    wolves, humans = wolves_and_humans(game, over.state)
    hamsters = [name for name in humans if cards[name] == "criceto-mannaro"]
    if hamsters:
        assert (over.sides, over.winners) == (("criceto-mannaro",), tuple(hamsters))
    elif not wolves:
        assert over.sides == ("umani",)
        assert over.winners == tuple(name for name in over.state.seating if game.role(cards[name]).side == "umani")
    else:
        assert len(wolves) >= len(humans) and over.sides == ("lupi",)
        assert over.winners == tuple(name for name in over.state.seating if game.role(cards[name]).side == "lupi")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(8, 24))
def test_every_lynching_and_death_keeps_the_table_consistent(seed, players):
    game = load_game(GAMES_DIR / "lupus-in-tabula")
    rng = random.Random(seed)
    rounds = Rounds(game, setup_of(game, dealt(game, players, rng)))
    while not isinstance(rounds.step, Over):
        step = rounds.step
        table = step.state
        assert len(set(table.dead)) == len(table.dead) and set(table.dead) <= set(table.seating)
        json.dumps(table.as_dict())  # the state is plain values
        if isinstance(step, DayStep):
            assert step.procedure.anchor == (table.dead[-1] if table.dead else None)
        if isinstance(step, VoteStep):
            assert step.voter in table.seating and set(step.candidates) <= set(table.living)
            if step.round == "runoff":
                assert step.voter in table.living and step.voter not in step.suspects
        if isinstance(step, LynchStep):
            assert step.verdict.lynched in step.verdict.outcome[1].suspects and step.dusk.dead == (step.verdict.lynched,)
        if isinstance(step, DayStep):  # no day once a side has won
            wolves, humans = wolves_and_humans(game, table)
            assert wolves and len(wolves) < len(humans)
        if isinstance(step, PhaseStep) and step.enters and step.ask.kind == "player":  # never the chooser
            assert not set(step.ask.choosers) & set(step.ask.candidates)
        rounds.enter(random_entry(step, rng))


def test_before_anyone_dies_a_tie_goes_to_the_one_closer_to_the_moderator(game):
    from narrator.core.vote import Sentences

    rounds = Rounds(game, setup_of(game, CARDS))
    nomination = {"Anna": "Bruno", "Bruno": "Ugo", "Carla": "Bruno", "Dario": "Ugo"}  # Bruno 2, Ugo 2, Fabio 8
    advance(rounds, lambda step: isinstance(step, LynchStep),
            votes=lambda step: nomination.get(step.voter, "Fabio") if step.round == "nomination" else "Ugo")
    assert rounds.step.verdict.outcome[1].suspects == ("Fabio", "Ugo")  # Ugo sits later: closer to the moderator
    explained = game.rules.explain_day(game, rounds.step.procedure, rounds.step.verdict,
                                       Sentences(game.languages["en"]))
    assert "A tie: nobody holds the Welcome card yet, so it goes to the one who voted later in the round." in explained


def test_the_vecchio_saggio_is_played_by_eight_and_nobody_else(game):
    with pytest.raises(RoundsError, match="vecchio-saggio is played by 8 players, not 12"):
        Rounds(game, setup_of(game, None, players=12, vecchio_saggio=True))
