"""Lupus in Tabula as a group meets it at the terminal: a Vecchio Saggio game of 8 and a moderated
game of 12 played from the first night to a winner, a game stopped in the middle and resumed
(the input ending, and a real process killed), undo at a prompt, and the errors of ``narrate resume``.

The answers typed are those of a game played with random choices in the core (test_rounds.py):
the terminal must end in the same game, entry for entry."""

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from types import MappingProxyType

import pytest
from click.testing import CliRunner
from conftest import RecordingPlayer, make_env
from test_day import FakeClock, RecordingSpeaker
from test_rounds import NAMES, random_entry

from narrator.core.deck import build_deck, make_deck
from narrator.core.errors import NarratorError
from narrator.core.procedures import HandsStep, QuestionStep, VoteStep
from narrator.core.rounds import ActStep, DawnStep, DayStep, EndQuestion, Over, PhaseStep, Rounds, Setup
from narrator.core.script import INTRO_PHASE
from narrator.games import GAMES_DIR
from narrator.games.loader import load_game
from narrator.shell.cli import cli
from narrator.shell.cli.rounds import dealt_cards

LUPUS = "lupus-in-tabula"
LOCALES = {"it": "it_IT.UTF-8", "en": "en_GB.UTF-8"}
# Eight cards typed with --dealt: the Veggente (Carla) points at a lupo (Anna), the lupi at Bruno.
DEALT = ["lupo-mannaro", "villico", "veggente", "lupo-mannaro", "villico", "villico", "villico", "villico"]


@pytest.fixture(scope="module")
def game():
    return load_game(GAMES_DIR / LUPUS)


def lupus_env(tmp_path, language="en", seed=777):
    clock = FakeClock()
    speaker = RecordingSpeaker(clock)
    player = RecordingPlayer()
    env = make_env({"LANG": LOCALES[language]}, seed=seed, data_home=tmp_path / "data", config_dir=tmp_path / "config",
                   clock=clock, sleep=clock.sleep, speaker=lambda: speaker, player=lambda: player)
    env.speaker_said, env.played = speaker.said, player.nights
    return env


def game_command(game_id: str, names):
    """``command(players, *options, day_seconds=20)``: the command line of a terminal game of
    ``game_id`` for the first ``players`` of ``names``, with options turned on or off."""
    def command(players, *options, day_seconds=20):
        return ["--game", game_id, "--players", str(players), "--no-ambience", "--day-seconds", str(day_seconds),
                "--names", ",".join(names[:players]), *[part for option in options for part in ("--option", option)]]
    return command


def command(players, names, *options, day_seconds=20):
    return ["--game", LUPUS, "--players", str(players), "--no-ambience", "--day-seconds", str(day_seconds), "--names",
            ",".join(names), *[part for option in options for part in ("--option", option)]]


def planned_game(game, env, players, seed, **options):
    """The game the terminal will play (the same deal as narrate's), played in the core with random
    choices: its setup, its entries, and the lines a group types for them (any game of many nights)."""
    chosen = {**game.option_defaults, **options}
    names = NAMES[:players]
    if game.draws_set:  # the set narrate draws: with the environment's seed, as choose_deck does
        deck = build_deck(game, players=players, rng=random.Random(env.new_seed()), options=chosen)[0].as_dict()
    else:
        deck = game.recommended_decks[players]
    cards = None
    if game.moderated(frozenset(deck), chosen):
        cards = dealt_cards(env, names, make_deck(game, deck))
    setup = Setup(names, MappingProxyType(dict(deck)), MappingProxyType(chosen), cards)
    rounds = Rounds(game, setup)
    rng = random.Random(seed)
    typed = []
    while not isinstance(rounds.step, Over):
        step = rounds.step
        entry = random_entry(step, rng)
        typed += typed_for(game, step, entry, env)
        rounds.enter(entry)
    return rounds, typed


def _(text, env):
    """A word of the interface in the language the environment's run speaks."""
    from narrator.shell.translation import load_catalog

    return load_catalog(env.default_language(), None).gettext(text)


def typed_by_entry(game, env, rounds) -> list[list[str]]:
    """What the group types for each of the planned game's entries, entry by entry."""
    replayed, typed = Rounds(game, rounds.setup), []
    for entry in rounds.entries:
        typed.append(typed_for(game, replayed.step, entry, env))
        replayed.enter(entry)
    return typed


def typed_for(game, step, entry, env) -> list[str]:
    """What a group types at the terminal for ``entry``."""
    if isinstance(step, PhaseStep | ActStep | QuestionStep):
        language = game.languages[env.default_language()]
        typed = typed_value(step.ask, entry["choice"], language, _("yes", env), _("no", env)) \
            if "choice" in entry else []
        return [*typed, ""] if getattr(step, "confirm", False) else typed  # the turn closed by hand
    if isinstance(step, DawnStep) and step.dawn is None:
        return [", ".join(entry["dead"])]
    if isinstance(step, EndQuestion):
        language = game.languages[env.default_language()]
        return [language.sides[entry["winner"]] if entry["winner"] else ""]
    if isinstance(step, HandsStep):  # each vote (Enter), or the hands for each name called
        if entry["hands"] is None:
            return [""]
        return [_("h", env), *(str(entry["hands"].get(name, 0)) for name in step.candidates)]
    if isinstance(step, VoteStep):
        voted = entry["voted"]
        return [", ".join(voted) if isinstance(voted, list) else voted or ""]
    if isinstance(step, DayStep):
        # A discussion off the timer ends when the moderator presses Enter.
        typed = [] if game.day is None or game.day.on_timer(step.state.options) else [""]
        if step.procedure.most_hands is None:
            return typed
        if "hands" not in entry:  # each vote, or the hands
            return [*typed, ""]
        return [*typed, _("h", env), *(str(entry["hands"][name]) for name in step.procedure.candidates)]
    return []


def typed_value(ask, value, language, yes="yes", no="no") -> list[str]:
    """The lines a moderator types for an ask's value, by its kind (a choice as the language words it,
    a yes or a no as the interface's)."""
    if ask.kind == "each":
        return [(value or {}).get(chooser) or "" for chooser in ask.choosers]
    if ask.kind == "players":
        return [", ".join(value or [])]
    if ask.kind == "yes-no":
        return [yes if value else no]
    if ask.kind == "choice" and value is not None:
        return [language.vote.get(f"choice_{value}", value)]
    if ask.kind == "fields":  # each form in turn: a yes or a no, or its open parts (Enter: not this one)
        typed = []
        for form in ask.forms:
            taken = value is not None and set(value) == {part for part, _allowed in form} and ask.fits(value)
            open_parts = [part for part, allowed in form if len(allowed) > 1]
            if not open_parts:
                typed.append(yes if taken else no)
            else:
                typed += [value[part] for part in open_parts] if taken else [""]
            if taken:
                break
        return typed
    return [value or ""]


def play_stopped_and_resumed(env, rounds, typed, args):
    """Play ``narrate ARGS`` with the input cut halfway (it stops, saved), then ``narrate resume``
    with the rest: the saved entries are those of the planned game, a prefix first, then all."""
    cut = len(typed) // 2
    first = invoke(env, args, ["", *typed[:cut]])
    assert first.exit_code == 2 and "the input ended" in first.stderr
    assert "the game is saved; 'narrate resume' goes on from here" in first.stderr
    stopped = saved_game(env)
    assert stopped["over"] is False and 0 < len(stopped["entries"]) < len(rounds.entries)
    assert stopped["entries"] == rounds.entries[:len(stopped["entries"])]
    second = invoke(env, ["resume"], ["", *typed[cut:]])
    assert second.exit_code == 0, second.output
    assert saved_game(env)["entries"] == rounds.entries
    return second


def invoke(env, args, lines):
    result = CliRunner().invoke(cli, args, obj=env, input="".join(line + "\n" for line in lines),
                                prog_name="narrate")
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def saved_game(env) -> dict:
    (path,) = (env.data_home / "games").glob("[!.]*.json")
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("language", ["en", "it"])
def test_an_eight_player_vecchio_saggio_game_plays_to_a_winner(game, tmp_path, language):
    env = lupus_env(tmp_path, language)
    rounds, typed = planned_game(game, env, 8, seed=3, **{"vecchio-saggio": True})
    result = invoke(env, command(8, NAMES[:8], "vecchio-saggio=on"), ["", *typed])  # Enter: the cards are dealt
    assert result.exit_code == 0, result.output
    assert {"en": "Deal the cards; press Enter when everyone has theirs (q: stop).",
            "it": "Distribuite le carte; premete Invio quando ognuno ha la sua (q: esci)."}[language] in result.output
    saved = saved_game(env)
    assert saved["entries"] == rounds.entries and saved["over"] is True
    nights = rounds.step.state.night
    text = {"en": ("Who found their card turned?", "Has a side won?", "The game is over. The"),
            "it": ("Chi ha trovato la propria carta girata?", "Ha vinto una fazione?", "La partita è finita. Vinc")}
    for words in text[language]:
        assert words in result.output
    assert result.output.count("── " + {"en": "Night", "it": "Notte"}[language]) == nights
    assert env.speaker_said[-1][1] == f"end.{rounds.step.sides[0]}"  # the end is said aloud, from the pack
    assert game.languages[language].card["setup_alone"] in result.output  # the setup shown before the night...
    assert "moderat" not in result.output.lower()  # ...and nothing else speaks of a moderator: there is none


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_ghosts_marks_turned_up_are_typed_in_a_vecchio_saggio_game(game, tmp_path, language):
    env = lupus_env(tmp_path, language)
    plans = (planned_game(game, env, 8, seed, **{"vecchio-saggio": True, "minaccia-fantasma": True})
             for seed in range(100))
    rounds, typed = next(plan for plan in plans  # the first in which a mark was turned up, and counted
                         if any(entry["kind"] == "question" and entry["choice"] for entry in plan[0].entries))
    result = invoke(env, command(8, NAMES[:8], "vecchio-saggio=on", "minaccia-fantasma=on"), ["", *typed])
    assert result.exit_code == 0, result.output
    assert saved_game(env)["entries"] == rounds.entries
    words = {"en": ("The marks laid face down: one is turned up", "'s card (the sword) was turned up before"),
             "it": ("Le carte posate coperte: una si scopre", "(la spada) è stata scoperta davanti a")}[language]
    for text in words:
        assert text in result.output


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_twelve_player_moderated_game_plays_to_a_winner(game, tmp_path, language):
    env = lupus_env(tmp_path, language)
    rounds, typed = planned_game(game, env, 12, seed=5, **{"minaccia-fantasma": True})
    result = invoke(env, command(12, NAMES[:12], "minaccia-fantasma=on"), ["", *typed])
    assert result.exit_code == 0, result.output
    deal = {"en": "Deal the cards; press", "it": "Distribuite le carte;"}[language]
    first_card = next(f"{name.ljust(5)}  " for name in rounds.setup.cards)
    assert result.output.index(first_card) < result.output.index(deal)  # the cards shown, then the group waited for
    saved = saved_game(env)
    assert saved["entries"] == rounds.entries and saved["over"] is True
    over = rounds.step
    assert {"en": "Winners: ", "it": "Vincitori: "}[language] + ", ".join(over.winners) in result.output
    for name, role_id in rounds.setup.cards.items():  # the moderator's secret table
        assert f"{name.ljust(5)}  {game.languages[language].role_name(role_id)}" in result.output
    werewolves = game.languages[language].role_name("lupo-mannaro", 2)  # the customary first night: they only meet
    assert {"en": f"  ({werewolves}: nothing to enter tonight)",
            "it": f"  ({werewolves}: stanotte niente da inserire)"}[language] in result.output
    mourns = {"en": "Dawn breaks. The village mourns", "it": "È l'alba. Il villaggio piange"}[language]
    deaths = [said for _time, said in env.speaker_said if said.startswith(mourns)]
    assert deaths, env.speaker_said  # the dead are said by name
    # A night is spoken a part at a time: the bed opens the night, then comes straight back for each part.
    first_words = [night.clips[0].start / night.rate for night in env.played]
    openings = [night.clips[0].cue.phase == INTRO_PHASE for night in env.played]
    assert sum(openings) == over.state.night and openings[0]
    assert {start for start, opening in zip(first_words, openings, strict=True) if opening} == {2.0}
    assert {start for start, opening in zip(first_words, openings, strict=True) if not opening} == {0.5}


def test_a_game_stopped_in_the_middle_resumes_where_it_was(game, tmp_path):
    env = lupus_env(tmp_path)
    rounds, typed = planned_game(game, env, 12, seed=8)
    second = play_stopped_and_resumed(env, rounds, typed, command(12, NAMES[:12]))
    assert "Press Enter when everyone is back at the table (q: stop)." in second.output
    assert invoke(env, ["resume"], []).exit_code == 2  # nothing left to resume


def test_undo_at_a_prompt_takes_back_the_last_answer(game, tmp_path):
    env = lupus_env(tmp_path)
    rounds, typed = planned_game(game, env, 8, seed=4)
    first_vote = next(index for index, (step_entry) in enumerate(rounds.entries) if step_entry["kind"] == "vote")
    # the first typed line that is a vote: the night's choices (and the turns closed by hand) come before it
    night_lines = sum(len(lines) for lines in typed_by_entry(game, env, rounds)[:first_vote])
    wrong = "Bruno" if typed[night_lines] != "Bruno" else "Carla"
    lines = ["", *typed[:night_lines], wrong, "undo", *typed[night_lines:]]
    result = invoke(env, command(8, NAMES[:8]), lines)
    assert result.exit_code == 0, result.output
    assert "Undone: back to" in result.output
    assert saved_game(env)["entries"] == rounds.entries


@pytest.mark.parametrize("language, undo, prompt, undone", [
    ("it", "annulla", "Chi ha trovato la propria carta girata? (nomi, o Invio: nessuno; annulla: torna indietro): ",
     "Annullato. Si riprende da: l'alba dopo la notte 1."),
    ("en", "undo", "Who found their card turned? (names, or Enter: nobody; undo: go back): ",
     "Undone: back to the dawn after night 1."),
])
def test_every_prompt_shows_the_undo_word_of_its_language_and_takes_it(game, tmp_path, language, undo, prompt,
                                                                        undone):
    env = lupus_env(tmp_path, language)
    rounds, typed = planned_game(game, env, 8, seed=3, **{"vecchio-saggio": True})
    lines = [typed[0], undo, *typed]  # the first dawn's answer, taken back and typed again
    result = invoke(env, command(8, NAMES[:8], "vecchio-saggio=on"), ["", *lines])  # Enter: the cards are dealt
    assert result.exit_code == 0, result.output
    assert saved_game(env)["entries"] == rounds.entries
    assert prompt in result.output and undone in result.output.splitlines()
    hint = prompt[prompt.index(f"{undo}: "):]  # every line typed answered a prompt that named the undo word
    assert sum(hint in line for line in result.output.splitlines()) == len(lines)


def test_resume_says_in_one_line_what_is_wrong(tmp_path, run):
    env = lupus_env(tmp_path)
    result = invoke(env, ["resume"], [])
    assert result.exit_code == 2 and result.stderr.startswith("narrate: no game to resume in ")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    result = invoke(env, ["resume", str(broken)], [])
    assert (result.exit_code, result.stderr) == (2, f"narrate: {broken}: not a saved game (it is not JSON)\n")
    assert invoke(env, command(8, NAMES[:8]), ["", "Anna"]).exit_code == 2  # a game stopped at its first night
    good = saved_game(env)
    edits = {"count_seconds": ({**good, "options": {**good["options"], "count_seconds": "ten"}},
                               "options: 'count_seconds' is missing or not what narrate saved"),
             "extra option": ({**good, "options": {**good["options"], "mood": 1}},
                              "options: 'mood' is not an option narrate keeps"),
             "deck": ({**good, "setup": {**good["setup"], "seating": NAMES[:3], "cards": None,
                                         "deck": {"villico": 3}}}, "8 to 24"),
             "entry": ({**good, "entries": [*good["entries"][:1], {**good["entries"][1], "choice": "Zorro"}]},
                       "entry 2: 'Zorro' is not one of"),
             "answer where none is asked": ({**good, "entries": [{**good["entries"][0], "choice": "Anna"}]},
                                            "entry 1: the game expects kind=phase, night=1, phase=night here, not "
                                            "kind=phase, night=1, phase=night, choice"),
             "a count of no seconds": ({**good, "options": {**good["options"], "count_seconds": 0}},
                                       "options: the count lasts 5 to 30 seconds, not 0"),
             "a day of no seconds": ({**good, "options": {**good["options"], "day_seconds": 0}},
                                     "options: the day lasts 1 to 3600 seconds"),
             "a turn's seconds as text": ({**good, "options": {**good["options"], "slot_seconds": {"gufo": "x"}}},
                                          "'slot_seconds' holds seconds that are not whole numbers")}
    for what, (data, words) in edits.items():
        edited = tmp_path / "edited.json"
        edited.write_text(json.dumps(data), encoding="utf-8")
        result = invoke(env, ["resume", str(edited)], [])
        assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1 and words in result.stderr, (
            what, result.stderr)
    read_only = next((env.data_home / "games").glob("[!.]*.json"))
    read_only.chmod(0o444)
    result = invoke(env, ["resume", str(read_only)], [])  # said before anything is asked
    assert result.exit_code == 2 and result.stderr.endswith(
        f"narrate: {read_only} is read-only: make it writable (chmod u+w) to go on with the game\n"), result.stderr
    assert json.loads(read_only.read_text(encoding="utf-8")) == good  # nothing of it lost


def test_the_moderator_may_type_the_cards_dealt_by_hand(game, tmp_path):
    env = lupus_env(tmp_path)
    lines = ["Werewolf", "villager", "Seer", "seer", "villager", "lupo-mannaro", "villico", "villico", "villico"]
    result = invoke(env, [*command(8, NAMES[:8]), "--dealt"], lines)
    assert "Error: no Seer card is left in the deck: Werewolf, Villager" in result.output  # Dario's "seer", asked again
    assert result.exit_code == 2 and "the input ended" in result.stderr  # the game had begun: night 1, the Seer
    assert saved_game(env)["setup"]["cards"] == {
        "Anna": "lupo-mannaro", "Bruno": "villico", "Carla": "veggente", "Dario": "villico", "Elena": "lupo-mannaro",
        "Fabio": "villico", "Gino": "villico", "Ugo": "villico"}


def test_a_killed_narrate_resumes_from_its_saved_file(tmp_path):
    """A real process, killed with SIGKILL in the middle of the first night, then resumed."""
    home = tmp_path / "home"
    environ = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
               "XDG_CONFIG_HOME": str(home / "config"), "XDG_CACHE_HOME": str(home / "cache"), "LANG": "en_US.UTF-8"}
    args = [sys.executable, "-m", "narrator", *command(8, NAMES[:8], day_seconds=4), "--dealt"]
    with open(tmp_path / "output.txt", "w") as output:
        process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=output, stderr=subprocess.STDOUT,
                                   env=environ, cwd=tmp_path, text=True)
    # The cards, Enter to start the night (read from the screen: no sound here), the Veggente's choice
    process.stdin.write("".join(line + "\n" for line in [*DEALT, "", "Anna"]))
    process.stdin.flush()
    games = home / "data" / "narrator" / "games"
    chosen = {"kind": "phase", "night": 1, "phase": "veggente", "choice": "Anna"}
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # the choice is saved before the next turn is spoken
        assert process.poll() is None, (tmp_path / "output.txt").read_text()  # it did not stop by itself
        paths = [path for path in games.glob("*.json") if not path.name.startswith(".")] if games.is_dir() else []
        if paths and chosen in json.loads(paths[0].read_text(encoding="utf-8"))["entries"]:
            break
        time.sleep(0.05)
    (path,) = paths
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=60)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["over"] is False and chosen in saved["entries"]
    resumed = subprocess.run([sys.executable, "-m", "narrator", "resume"], input="", capture_output=True,
                             env=environ, cwd=tmp_path, text=True, timeout=300)
    assert [file.name for file in games.iterdir()] == [path.name]  # a write the kill cut short is gone
    assert "Resumed at " in resumed.stdout, resumed.stdout
    assert "Seer points at" not in resumed.stdout  # what was entered is not asked again
    assert resumed.returncode == 2 and "the input ended" in resumed.stderr  # at the day's first vote
    assert json.loads(path.read_text(encoding="utf-8"))["entries"][:len(saved["entries"])] == saved["entries"]


@pytest.mark.skipif(__import__("test_playback").portaudio_missing(), reason="PortAudio (libportaudio2) is not installed")
def test_the_night_and_the_names_go_through_the_real_sound_path(tmp_path):
    """PortAudio into ALSA's null device: each part of the night played, the dead said by the
    text-to-speech engine (no voice pack holds a name), until the first vote."""
    config = tmp_path / "asound.conf"
    config.write_text("pcm.!default { type null }\nctl.!default { type hw card 0 }\n")
    environ = {**os.environ, "ALSA_CONFIG_PATH": str(config), "LANG": "en_US.UTF-8",
               "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    args = [sys.executable, "-m", "narrator", *command(8, NAMES[:8], "quiet-first-night=off", day_seconds=4),
            "--dealt"]
    process = subprocess.run(args, input="\n".join([*DEALT, "", "Anna", "Bruno", ""]), capture_output=True, text=True,
                             env=environ, cwd=tmp_path, timeout=300)
    assert process.returncode == 2 and "the input ended" in process.stderr, process.stderr
    assert "Dawn breaks. The village mourns Bruno." in process.stdout
    assert "names are shown, not said" not in process.stderr and "shown here" not in process.stderr
    phases = [line.split("  ", 1)[1] for line in process.stderr.splitlines() if line[:1].isdigit()]
    assert phases[:4] == ["Night falls", "Seer", "Seer", "Werewolves"], process.stderr  # a turn: its count, then its close


def test_undo_at_the_first_vote_goes_back_to_the_night_and_the_day_comes_again(game, tmp_path):
    env = lupus_env(tmp_path)
    rounds, typed = planned_game(game, env, 8, seed=4)
    by_entry = typed_by_entry(game, env, rounds)
    first_vote = next(index for index, entry in enumerate(rounds.entries) if entry["kind"] == "vote")
    last_choice = max(index for index, entry in enumerate(rounds.entries[:first_vote]) if "choice" in entry)
    night = [line for lines in by_entry[:first_vote] for line in lines]
    again = [line for lines in by_entry[last_choice:first_vote] for line in lines]  # the choice, and what followed
    lines = night + ["undo", *again] + typed[len(night):]
    result = invoke(env, command(8, NAMES[:8]), ["", *lines])  # Enter: the cards are dealt
    assert result.exit_code == 0, result.output
    assert saved_game(env)["entries"] == rounds.entries
    days_heard = [said for _time, said in env.speaker_said if said == "day.discuss"]
    # The night's answer given again, the day is had again: its lines and its countdown
    assert len(days_heard) == sum(entry["kind"] == "day" for entry in rounds.entries) + 1


def test_a_variant_is_its_option_turned_on_by_its_name_or_another(run):
    ghosts = run("--game", LUPUS, "script", "--players", "9", "--night", "2", "--variant", "fantasmi").stdout
    assert "fantasmi.open" in ghosts
    alone = run("--game", LUPUS, "script", "--players", "8", "--variant", "vecchio-saggio").stdout
    assert "veggente.open-alone" in alone
    wrong = run("--game", LUPUS, "script", "--players", "8", "--variant", "ghosts")
    assert wrong.exit_code == 2 and wrong.stderr.startswith("narrate: no narration option 'ghosts' in Lupus in Tabula")


@pytest.mark.parametrize("moderator", [False, True])
def test_the_speaker_box_follows_a_game_of_many_nights_to_its_end(game, tmp_path, moderator):
    """A game served to a tablet (a WebSocket client that presses Start, skips each night or part
    of one and calls each vote): every night (with a moderator, every part of one) is new audio for
    the tablets, every lynching and the end are shown on them, and the laptop's answers play the
    same game as the core."""
    env = lupus_env(tmp_path)
    variant = ["--dealt"] if moderator else ["--variant", "vecchio-saggio"]  # narrate's own deal is random
    rounds, typed = planned_game(game, env, 8, seed=13, **({} if moderator else {"vecchio-saggio": True}))
    if moderator:
        typed = [rounds.setup.cards[name] for name in rounds.setup.seating] + typed
    args = [*command(8, NAMES[:8], day_seconds=2), *variant]
    seen, output = follow_on_a_tablet(tmp_path, args, typed)
    saved = saved_game_in(tmp_path / "data" / "narrator")
    assert saved["entries"] == rounds.entries
    assert saved["options"]["speaker_box"] is True  # narrate resume serves it to the tablets again
    nights = sum(entry["kind"] == "day" for entry in rounds.entries)
    assert nights >= 2
    if moderator:  # each part of the night heard: up to a turn's opening and count, then its close
        parts = sum(entry["kind"] == "phase" for entry in rounds.entries)
        assert parts <= len(seen["nights"]) <= 2 * parts
        # the bed opens each night, then comes straight back for each part (not two seconds before every turn)
        assert sorted(set(seen["first words"])) == [0.5, 2.0]
        assert seen["first words"].count(2.0) == rounds.step.state.night  # the last may have ended at its dawn
    else:
        assert len(seen["nights"]) == sum(entry["kind"] == "night" for entry in rounds.entries)
    lynchings = [entry for entry in rounds.entries if entry["kind"] == "lynch"]
    assert len(seen["results"]) == len(lynchings) + 1  # each lynching, then the end
    assert seen["results"][-1][0] == game.languages["en"].line(f"end.{rounds.step.sides[0]}")
    assert any(line.endswith("is lynched.") for line in seen["results"][0])  # said, with what follows it
    assert game.languages["en"].line(f"end.{rounds.step.sides[0]}") in output


def assert_the_box_follows_the_game(game, tmp_path, command, players: int) -> None:
    """A game with a moderator played with ``narrate ARGS --dealt --speaker-box`` (``command(players,
    day_seconds=...)`` the arguments) to its end: the saved entries are the planned game's, and a
    tablet saw each day's result, then the end."""
    env = lupus_env(tmp_path, seed=8)
    rounds, typed = planned_game(game, env, players, seed=2)
    typed = [rounds.setup.cards[name] for name in rounds.setup.seating] + typed  # --dealt: the cards typed
    seen, output = follow_on_a_tablet(tmp_path, [*command(players, day_seconds=2), "--dealt", "--random", "--seed",
                                                 "8"], typed)
    assert saved_game_in(tmp_path / "data" / "narrator")["entries"] == rounds.entries
    days = [entry for entry in rounds.entries if entry["kind"] == "lynch"]
    assert len(seen["results"]) == len(days) + 1  # each day's result, then the end
    over = rounds.step
    end = game.languages["en"].line(f"end.{over.sides[0]}" if over.sides else "end.none")
    assert seen["results"][-1][0] == end and end in output


def follow_on_a_tablet(tmp_path, args, typed):
    """Play ``narrate ARGS --speaker-box`` in a process, answering ``typed`` at the laptop, with a
    tablet (a WebSocket client) that presses Start, skips each night or part of one and calls each
    vote: what the tablet saw (each night's audio, each result) and what the laptop printed."""
    import asyncio

    import aiohttp

    environ = {**os.environ, "LANG": "en_US.UTF-8", "XDG_DATA_HOME": str(tmp_path / "data"),
               "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    args = [sys.executable, "-m", "narrator", *args, "--speaker-box", "--host", "127.0.0.1", "--port", "0",
            "--no-laptop-audio", "--lang", "en"]
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"  # files: a full pipe would hold the game up
    with open(out, "w") as stdout, open(err, "w") as stderr:
        process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=stdout, stderr=stderr, env=environ,
                                   cwd=tmp_path, text=True)
    try:
        process.stdin.write("".join(answer + "\n" for answer in typed))  # read as each question comes
        process.stdin.close()
        deadline = time.monotonic() + 120
        while not (found := re.search(r"(http://\S+\?token=\S+)", out.read_text())) and time.monotonic() < deadline:
            time.sleep(0.1)
        control = found[1]
        token = control.split("token=")[1]
        seen = {"nights": [], "results": [], "first words": []}

        async def tablet():
            async with aiohttp.ClientSession() as session:
                async with session.ws_connect(control.split("?")[0] + "ws") as ws:
                    await ws.send_json({"type": "hello", "role": "control", "token": token})  # else closed in 5 s
                    while process.poll() is None:
                        try:
                            message = await ws.receive_json(timeout=1)
                        except (asyncio.TimeoutError, TypeError):
                            continue
                        if message.get("type") != "state":
                            continue
                        if message["night_id"] not in seen["nights"]:
                            seen["nights"].append(message["night_id"])
                            seen["first words"].append(message["night"]["phases"][0]["start"])
                        if message["result"] and message["result"] not in seen["results"]:
                            seen["results"].append(message["result"])
                        action = {"waiting": "start", "night": "next"}.get(message["stage"])
                        if message["stage"] == "day" and not message["day"]["voting"]:
                            action = "next"
                        if action:
                            await ws.send_json({"type": "control", "action": action, "token": token})

        asyncio.run(asyncio.wait_for(tablet(), 240))
        assert process.wait(timeout=60) == 0, err.read_text()
        output = out.read_text()
    finally:
        process.kill()
    return seen, output


def saved_game_in(folder) -> dict:
    (path,) = (folder / "games").glob("[!.]*.json")
    return json.loads(path.read_text(encoding="utf-8"))


def test_a_save_cut_short_is_never_taken_for_a_game_and_goes_at_the_next_save(tmp_path):
    from narrator.shell.savedgames import SavedGame, unfinished

    games = tmp_path / "games"
    games.mkdir()
    cut = games / ".lupus-in-tabula-20261123-070000.k3j2.json"
    cut.write_text(json.dumps({"format": 1, "over": False}), encoding="utf-8")  # whole, but never renamed
    assert unfinished(games) == []
    saved = SavedGame(games / "lupus-in-tabula-20261123-070000.json", LUPUS, "en", {},
                      Setup(("A", "B", "C"), MappingProxyType({"villico": 3}), MappingProxyType({}), None))
    saved.save()
    assert sorted(path.name for path in games.iterdir()) == ["lupus-in-tabula-20261123-070000.json"]
    assert unfinished(games) == [saved.path]


def test_the_vecchio_saggio_is_played_by_eight(run):
    result = run("--game", LUPUS, "--players", "12", "--variant", "vecchio-saggio", "--names",
                 ",".join(NAMES[:12]))
    assert (result.exit_code, result.stderr) == (2, "narrate: vecchio-saggio is played by 8 players, not 12: add "
                                                    "--players 8 (see 'narrate --help')\n")


def test_without_a_text_to_speech_engine_the_names_are_shown_only(game, tmp_path):
    """Sound, but no engine to say a name: the dead are shown; the pack's lines still play."""
    from test_voices import no_engine

    env = lupus_env(tmp_path)
    env.speaker, env.speech_engine = None, no_engine
    result = invoke(env, [*command(8, NAMES[:8], "quiet-first-night=off"), "--dealt"], [*DEALT, "", "Anna", "Bruno"])
    assert "Dawn breaks. The village mourns Bruno." in result.output
    assert "narrate: names are shown, not said: " in result.stderr
    assert result.exit_code == 2 and "the input ended" in result.stderr  # at the first vote


def test_a_resumed_game_plays_where_it_was_started_laptop_or_speaker_box(game, tmp_path):
    from narrator.shell.cli.nightvoice import BoxVoice, NightVoice
    from narrator.shell.cli.rounds import GameTable
    from narrator.shell.savedgames import load

    env = lupus_env(tmp_path)
    env.use_game(LUPUS)
    invoke(env, command(8, NAMES[:8]), [])  # stopped at the first question
    (path,) = (env.data_home / "games").glob("[!.]*.json")
    saved = load(path)
    assert saved.options["speaker_box"] is False and type(GameTable(env, saved, None).voice) is NightVoice
    saved.options.update(speaker_box=True, host="127.0.0.1", port=0)  # as --speaker-box keeps them
    voice = GameTable(env, saved, None).voice
    assert isinstance(voice, BoxVoice) and voice.box_options == {"host": "127.0.0.1", "port": 0, "laptop_audio": True,
                                                                 "listen": False}
    # A game saved before --listen came has no "listen": it is resumed without listening.
    saved.options.update(speaker_box=True, listen=True)
    assert GameTable(env, saved, None).voice.box_options["listen"] is True
    del saved.options["listen"]
    from narrator.shell.cli.rounds import check_options

    check_options(env.game, saved)
    assert GameTable(env, saved, None).voice.box_options["listen"] is False


def test_the_sentences_of_a_game_look_for_the_sound_output_once(tmp_path, capsys):
    """Sentences with names are made as the game goes; how they are said here is found at the
    first (probing the sound output and trying a command-line player take a moment), not at each."""
    from test_voices import CountingEngine

    from narrator.shell.cli.nightvoice import NightVoice
    from narrator.shell.cli.options import choose_audio

    played = tmp_path / "played.txt"
    aplay = tmp_path / "aplay"  # a stand-in for the command-line player: notes each file it is given
    aplay.write_text(f'#!/bin/sh\necho "$2" >> "{played}"\n')
    aplay.chmod(0o755)
    probes = []

    def sound_problem():
        probes.append("probed")
        return "no sound output device (none here)"

    env = make_env(speech_engine=CountingEngine, player=lambda: RecordingPlayer(), cache_dir=tmp_path / "cache",
                   sound_problem=sound_problem, which=lambda program: str(aplay) if program == "aplay" else None)
    voice = NightVoice(env, "en", choose_audio(None, None, None, None, no_ambience=True), None)
    for name in ("Anna", "Bruno", "Carla"):
        voice.announce(f"{name} is lynched.")
    assert probes == ["probed"]
    assert len(played.read_text().splitlines()) == 1 + 3  # the player tried once with silence, then each sentence
    assert capsys.readouterr().err.count("the day's lines play through aplay") == 1  # and why, said once


def test_resume_names_a_newest_save_it_cannot_read_and_asks_before_an_older_game(game, tmp_path):
    env = lupus_env(tmp_path)
    rounds, typed = planned_game(game, env, 8, seed=8)
    first = invoke(env, command(8, NAMES[:8]), ["", *typed[:3]])
    assert first.exit_code == 2
    games = env.data_home / "games"
    broken = games / "lupus-in-tabula-29991231-000000.json"
    broken.write_text("{not json", encoding="utf-8")
    os.utime(broken, (time.time() + 60, time.time() + 60))  # the newest save
    refused = invoke(env, ["resume"], ["n"])
    assert refused.exit_code == 2
    assert f"narrate: {broken}: not a saved game (it is not JSON)" in refused.stderr
    assert "Go on with the older game saved in" in refused.output
    assert refused.stderr.rstrip().endswith("no game resumed: 'narrate resume FILE' goes on with the one you name")
    resumed = invoke(env, ["resume"], ["y", "", *typed[3:]])
    assert resumed.exit_code == 0, resumed.output
    assert broken.read_text(encoding="utf-8") == "{not json"  # the user's file is left as it was
    only_broken = tmp_path / "other"
    env.data_home = only_broken
    (only_broken / "games").mkdir(parents=True)
    (only_broken / "games" / "x.json").write_text("[]", encoding="utf-8")
    alone = invoke(env, ["resume"], [])
    assert alone.exit_code == 2 and "x.json: not a game saved by this narrate" in alone.stderr


def test_a_saved_game_keeps_the_pages_tokens_and_refuses_bad_ones(game, tmp_path):
    """A game served to tablets keeps its pages' tokens (so that a page open when narrate stopped
    comes back to the resumed game); a file without them is an older save or a game never served;
    tokens edited into something else make the file one narrate did not save."""
    from narrator.shell.savedgames import load

    env = lupus_env(tmp_path)
    rounds, typed = planned_game(game, env, 8, seed=8)
    assert invoke(env, command(8, NAMES[:8]), ["", *typed[:3]]).exit_code == 2
    (path,) = (env.data_home / "games").glob("*.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "tokens" not in data and load(path).tokens is None  # not served: nothing to keep
    for tokens, good in (({"controls": "a1", "moderator": "b2"}, True), ({"controls": "a1"}, False),
                         ({"controls": "a1", "moderator": 7}, False), ({"controls": "", "moderator": "b"}, False),
                         ([], False), ({"controls": "a", "moderator": "b", "x": "c"}, False)):
        path.write_text(json.dumps({**data, "tokens": tokens}), encoding="utf-8")
        if good:
            saved = load(path)
            assert saved.tokens == tokens
            saved.save()
            assert json.loads(path.read_text(encoding="utf-8"))["tokens"] == tokens
        else:
            with pytest.raises(NarratorError, match="not a game saved by this narrate"):
                load(path)


@pytest.mark.parametrize(("stage", "shown"), [("vote", ("day", True, "night")), ("day", ("waiting", None, "day"))])
def test_a_game_resumed_on_the_speaker_box_is_at_its_stage_before_a_page_can_connect(game, tmp_path, monkeypatch,
                                                                                       stage, shown):
    """``narrate resume`` serves the box already where the game stopped: a page that connects the
    moment it can is shown the vote (not the wait for Start a moment before it), or a Start that
    opens the day. (Seen once: a tablet's first state after a resume at a vote was 'waiting'.)"""
    from narrator.shell.cli.rounds import GameTable
    from narrator.shell.savedgames import load
    from narrator.shell.speakerbox.server import BoxServer

    class Serving(Exception):
        pass

    first: list[dict] = []

    def start(server):  # the first moment a page could connect: what it would be sent
        first.append(server.snapshot())
        raise Serving

    monkeypatch.setattr(BoxServer, "start", start)
    env = lupus_env(tmp_path)
    env.use_game(LUPUS)
    invoke(env, command(8, NAMES[:8]), [])  # stopped at the first question
    (path,) = (env.data_home / "games").glob("[!.]*.json")
    saved = load(path)
    saved.options.update(speaker_box=True, host="127.0.0.1", port=0, laptop_audio=False)
    table = GameTable(env, saved, None)
    with pytest.raises(Serving):
        table.voice.resumed(table.script(1, frozenset()), stage)
    (state,) = first
    voting = state["day"]["voting"] if state["day"] else None
    assert (state["stage"], voting, state["opens"]) == shown and state["in_parts"] is True
