"""Proof that a game of many nights is a folder (issue 38): Mafia minima (tests/games/mafia-minima)
exists only here, brings its own day procedure (an accusation that must be seconded, then a yes/no
vote, lynched by a strict majority of the living) and its own kind of entry (a player by seat), and
is played whole through the core's Rounds, ``narrate replay --json``, the terminal and the phone
console, with nothing outside its folder."""

import json
import random
import shutil
from pathlib import Path

import pytest
from conftest import REPO, RecordingPlayer, make_env
from moderation import Served, bot_game
from test_day import FakeClock, RecordingSpeaker
from test_game_lupus import game_command, invoke, planned_game, saved_game
from test_rounds import play_to_the_end

from narrator.core.procedures import QuestionStep, VoteStep
from narrator.core.rounds import ActStep, LynchStep, Over, PhaseStep, Rounds, RoundsError, Setup, entry_for
from narrator.core.vote import Sentences
from narrator.games.loader import load_game

FOLDER = Path(__file__).parent / "games" / "mafia-minima"
GAME_ID = FOLDER.name
NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ugo")
CARDS = {"Anna": "mafioso", "Bruno": "cittadino", "Carla": "cittadino", "Dario": "cittadino", "Elena": "cittadino"}
RECORD = """\
game: mafia-minima
players:
  - {name: Anna, card: mafioso}
  - {name: Bruno, card: cittadino}
  - {name: Carla, card: cittadino}
  - {name: Dario, card: cittadino}
  - {name: Elena, card: cittadino}
rounds:
  - night: {mafioso: 3}          # the third chair: Carla
  - day:
      first: 1                    # Anna speaks first: the game's own kind, asked by its procedure
      accusation-1: {Anna: null, Bruno: Dario}
      second-1: {Anna: null, Elena: null}   # nobody seconds: Dario is not tried
      accusation-2: {Anna: null, Bruno: Anna}
      second-2: {Dario: Anna}
      trial-2: {Anna: null, Bruno: Anna, Dario: Anna, Elena: Anna}
      testament: Bruno
      accepted: sì
"""


@pytest.fixture(scope="module")
def game():
    return load_game(FOLDER)


def setup(game, cards=CARDS):
    deck = {role: list(cards.values()).count(role) for role in set(cards.values())}
    return Setup(tuple(cards), deck, game.option_defaults, cards)


def test_the_fixture_needs_nothing_outside_its_folder(tmp_path):
    """A copy of the folder anywhere loads and plays; no file of narrate names the game or its words."""
    copy = tmp_path / "elsewhere" / GAME_ID
    shutil.copytree(FOLDER, copy)
    game = load_game(copy)
    rounds = play_to_the_end(game, setup(game), random.Random(3))
    assert isinstance(rounds.step, Over)
    words = {GAME_ID, "mafioso", "cittadino", "accusation-1", "who_accuses", "trial-1"}
    for path in (REPO / "narrator").rglob("*"):
        if path.suffix in (".py", ".js", ".html", ".po", ".yaml", ".css"):
            text = path.read_text(encoding="utf-8")
            assert not [word for word in words if word in text], path


def test_its_own_procedure_asks_a_seconder_then_a_yes_or_no_and_a_majority_lynches(game):
    rounds = Rounds(game, setup(game))
    while not isinstance(rounds.step, QuestionStep):
        step = rounds.step
        rounds.enter(entry_for(step, choice="Carla") if isinstance(step, PhaseStep) and step.enters else entry_for(step))
    opener = rounds.step.ask  # who speaks first: a question of the procedure's, of the game's own kind
    assert opener.kind == "seat" and opener.of_kind is game.rules.ENTRY_KINDS["seat"] and "Carla" not in opener.candidates
    with pytest.raises(RoundsError, match="'Carla' is not one of"):
        rounds.enter(entry_for(rounds.step, choice="Carla"))
    rounds.enter(entry_for(rounds.step, choice="Anna"))
    asked = []

    def vote(voted):
        asked.append((rounds.step.round, rounds.step.voter, rounds.step.candidates))
        rounds.enter(entry_for(rounds.step, voted=voted))

    vote(None)  # Anna does not accuse
    vote("Anna")  # Bruno accuses Anna: the round ends
    assert rounds.step.round == "second-1" and rounds.step.voter == "Dario" and rounds.step.candidates == ("Anna",)
    vote(None)
    vote(None)  # nobody seconds: the second accusation
    assert rounds.step.round == "accusation-2" and rounds.step.voter == "Anna" and "Anna" not in rounds.step.candidates
    vote("Bruno")  # Anna accuses Bruno
    vote(None)  # Carla is dead: Dario seconds
    assert asked[-1][:2] == ("second-2", "Dario")
    vote("Bruno")
    for voter in ("Anna", "Bruno", "Dario", "Elena"):
        assert rounds.step.round == "trial-2" and rounds.step.voter == voter
        vote("Bruno" if voter in ("Anna", "Dario") else None)  # 2 of 4: no strict majority
    assert isinstance(rounds.step, LynchStep) and rounds.step.verdict.lynched is None
    lines = game.rules.explain_day(game, rounds.step.procedure, rounds.step.verdict,
                                   Sentences(game.languages["en"]))
    assert lines[-2:] == ["Bruno is acquitted.", "Nobody is lynched today."]


def test_the_day_asks_the_heir_only_once_the_lynched_has_named_one(game):
    """The day's questions depend on the answers before them (issue 38, part 7)."""
    def lynching(testament):
        rounds = Rounds(game, setup(game))
        while not isinstance(rounds.step, ActStep):
            step = rounds.step
            if isinstance(step, PhaseStep) and step.enters:
                rounds.enter(entry_for(step, choice="Carla"))
            elif isinstance(step, QuestionStep):
                rounds.enter(entry_for(step, choice="Anna"))
            elif isinstance(step, VoteStep):
                rounds.enter(entry_for(step, voted="Anna" if step.voter != "Anna" else None))
            else:
                rounds.enter(entry_for(step))
        keys = []
        while isinstance(rounds.step, ActStep):
            keys.append(rounds.step.ask.key)
            assert "Anna" not in rounds.step.ask.candidates  # the lynched names another
            rounds.enter(entry_for(rounds.step, choice=testament if keys == ["testament"] else True))
        return keys, rounds.step

    assert lynching(None)[0] == ["testament"]
    keys, lynch = lynching("Bruno")
    assert keys == ["testament", "accepted"] and isinstance(lynch, LynchStep)
    assert lynch.dusk.dead == ("Anna",) and lynch.dusk.state.own["heir"] == "Bruno"


def test_whole_random_games_end_and_resume_from_any_entry(game):
    for seed in range(6):
        rng = random.Random(seed)
        players = rng.randint(5, 8)
        cards = dict(zip(NAMES[:players], rng.sample([role for role, copies in game.recommended_decks[players].items()
                                                      for _ in range(copies)], players), strict=True))
        rounds = play_to_the_end(game, setup(game, cards), rng)
        cut = rng.randrange(len(rounds.entries))
        resumed = Rounds(game, rounds.setup, rounds.entries[:cut])
        for entry in rounds.entries[cut:]:
            resumed.enter(entry)
        assert resumed.step == rounds.step


def test_narrate_replay_settles_its_record_with_its_own_kind_and_rounds(run, tmp_path):
    path = tmp_path / "partita.yaml"
    path.write_text(RECORD, encoding="utf-8")
    result = run("replay", str(path), "--json", env=make_env(games_dir=FOLDER.parent))
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [item.get("dead") for item in data["rounds"]] == [["Carla"], ["Anna"]]
    assert data["rounds"][1]["lynched"] == "Anna"
    assert data["winner"] == {"sides": ["citta"], "players": ["Bruno", "Carla", "Dario", "Elena"]}
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(RECORD.replace("mafioso: 3", "mafioso: 1"), encoding="utf-8")  # the mafioso's own chair
    refused = run("replay", str(wrong), env=make_env(games_dir=FOLDER.parent))
    assert refused.exit_code == 2 and "round 1: mafioso:" in refused.stderr and "Traceback" not in refused.stderr


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_whole_game_at_the_terminal(game, tmp_path, language):
    clock = FakeClock()
    speaker, player = RecordingSpeaker(clock), RecordingPlayer()
    env = make_env({"LANG": {"en": "en_US.UTF-8", "it": "it_IT.UTF-8"}[language]}, games_dir=FOLDER.parent,
                   data_home=tmp_path / "data", config_dir=tmp_path / "config", clock=clock, sleep=clock.sleep,
                   speaker=lambda: speaker, player=lambda: player)
    env.use_game(GAME_ID)
    rounds, typed = planned_game(game, env, 6, seed=4)
    result = invoke(env, game_command(GAME_ID, NAMES)(6), ["", *typed])
    assert result.exit_code == 0, result.output
    saved = saved_game(env)
    assert saved["entries"] == rounds.entries and saved["over"] is True
    words = game.languages[language].vote
    assert words["round_accusation"].format(number=1) in result.output  # its procedure's words, and questions
    assert words["ask_first"] in result.output  # the procedure's question, of the game's own kind
    assert any(words["who_accuses"].format(voter=name) in result.output for name in rounds.setup.seating)


def test_a_whole_game_from_the_phone_console(tmp_path, monkeypatch):
    monkeypatch.setenv("NARRATOR_GAMES", str(FOLDER.parent))
    served = Served.start(tmp_path, GAME_ID, 6, "en")
    try:
        seen = bot_game(served, seed=6, seconds=240)
        assert served.process.wait(timeout=30) == 0, served.errors()[-2000:]
    finally:
        served.stop()
    (saved,) = (tmp_path / "data" / "narrator" / "games").glob("[!.]*.json")
    assert json.loads(saved.read_text())["over"] is True
    assert "Traceback" not in served.errors()
    forms = [step["form"] for step in seen.steps if step["form"]]
    seat_forms = [form for form in forms if any(" · " in option["label"] for option in form.get("options", ()))]
    assert seat_forms and all(form["kind"] == "one" for form in seat_forms)  # its own kind, as a form of names
    assert any("accuses" in form["question"] for form in forms)  # its own procedure's words


def test_its_rules_type_check_against_the_contract(tmp_path):
    """The typed seam holds for a game outside scripts/ too (dev/typecheck.py, as tests/test_types.py runs it)."""
    from test_types import typecheck

    result = typecheck(tmp_path, "--games", str(FOLDER.parent), "--games-only")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 games' rules.py" in result.stdout and "Success" in result.stdout


def test_narrator_games_names_the_folder_of_games_and_one_that_is_not_there_is_one_line(run, tmp_path):
    from narrator.shell.environment import _games_dir

    assert _games_dir({"NARRATOR_GAMES": str(FOLDER.parent)}) == FOLDER.parent
    assert _games_dir({"NARRATOR_GAMES": " "}) == _games_dir({})  # unset or empty: the games narrate ships
    listed = run("games", env=make_env(games_dir=FOLDER.parent))
    assert listed.exit_code == 0 and GAME_ID in listed.stdout
    missing = run("games", env=make_env(games_dir=tmp_path / "nowhere"))
    assert missing.exit_code == 2 and len(missing.stderr.splitlines()) == 1
    assert "NARRATOR_GAMES" in missing.stderr and str(tmp_path / "nowhere") in missing.stderr
