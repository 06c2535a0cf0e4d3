"""Every bad input is one line on stderr and exit status 2: never a traceback, never a wrong status.

A sweep puts each of a list of nasty values into every option and argument of every command
(the commands and options are read from the command line itself, so a new one is swept too), and
a table holds each case found by hand, by name.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from narrator.shell.cli import cli
from narrator.shell.cli.errors import MAX_LINE
from tests.conftest import RecordingPlayer, make_env
from tests.test_day import FakeClock, RecordingSpeaker
from tests.test_voices import CountingEngine

NASTY = [
    "", " ", "²", "٣", "9" * 5000, "-1", "0", "nan", "inf", "1e309", "\x00", "\x1b[2J", "é" * 300, "a," * 3000,
    "/", ".", "/nonexistent/x.yaml", "x" * 5000, "yes", "\udcff\udcfe", "LUPO-MANNARO X99",
]

# What each command needs besides the value under test, so that a good value runs quickly and a
# bad one is the only thing wrong: its options, then its one argument, if it has one. {tmp} is a
# fresh folder.
BASE = {
    (): (["--players", "3", "--no-day", "--no-ambience"], []),
    ("script",): (["--players", "3"], []),
    ("deck",): (["--players", "3"], []),
    ("roles",): ([], []),
    ("render",): (["--players", "3", "--no-ambience", "-o", "{tmp}/n.wav"], []),
    ("card",): (["--players", "3", "-o", "{tmp}/c.pdf"], []),
    ("timer",): ([], ["2s"]),
    ("votes",): ([], ["{tmp}/votes.yaml"]),
    ("replay",): ([], ["{tmp}/votes.yaml"]),
    ("resume",): ([], []),
    ("serve",): (["--players", "3", "--no-ambience", "--no-laptop-audio", "--host", "127.0.0.1", "--port", "0"], []),
    ("voices", "list"): ([], []),
    ("voices", "render"): ([], ["{tmp}/pack"]),
    ("voices", "record"): ([], ["{tmp}/own"]),
    ("doctor",): ([], []),
    ("games",): ([], []),
}

VOTES = """players:
  - {name: Anna, card: lupo-mannaro, vote: Bruno}
  - {name: Bruno, card: contadino, vote: Anna}
  - {name: Carla, card: veggente, vote: Anna}
"""


class Quiet(Exception):
    """Raised where a good input would start waiting for people (the speaker box's Enter)."""


def commands(group=cli, path=()):
    for name in group.list_commands(None):
        command = group.get_command(None, name)
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))
        else:
            yield (*path, name), command
    if group is cli:
        yield (), cli


def settings(path):
    """Where each value goes: every option that takes a value, and every argument."""
    command = cli
    for name in path:
        command = command.get_command(None, name)
    for param in command.params:
        if isinstance(param, click.Option) and (param.is_flag or param.count or param.name == "version"):
            continue
        yield param


def environment(tmp_path, cache=None):
    """``cache``: a cache folder shared by many runs, as a user's is (lines measured once)."""
    clock = FakeClock()

    def no_waiting(seconds):
        raise Quiet

    env = make_env(player=lambda: RecordingPlayer(), speaker=lambda: RecordingSpeaker(clock), clock=clock,
                   sleep=no_waiting, speech_engine=CountingEngine, data_home=tmp_path / "data",
                   config_dir=tmp_path / "config", cache_dir=cache or tmp_path / "cache")
    env.recorder = lambda: None  # the input quits before anything is recorded
    return env


def invoke(tmp_path, args, cache=None):
    (tmp_path / "votes.yaml").write_text(VOTES, encoding="utf-8")
    return CliRunner().invoke(cli, [arg.replace("{tmp}", str(tmp_path)) for arg in args], obj=environment(tmp_path, cache),
                              prog_name="narrate", input="q\n" * 3)


def problem(result) -> str | None:
    """What is wrong with how narrate answered, or None if it answered as it must."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        if isinstance(result.exception, Quiet):
            return None  # a good input: the speaker box is waiting for the group
        return f"raised {type(result.exception).__name__}: {result.exception!r}"[:300]
    lines = result.stderr.splitlines()
    seed = [line for line in lines if line.startswith("narrate: random deck drawn with --seed ")]  # a drawn set's
    if result.exit_code == 0 or (result.exit_code, [line for line in lines if line not in seed]) == (
            130, ["narrate: stopped"]):
        return None  # a good input, played until the input's q stopped it (at the deal, say)
    if result.exit_code != 2:
        return f"exit {result.exit_code}: {result.stderr[:200]!r}"
    if len(lines) != 1 or not lines[0].startswith("narrate") or len(lines[0]) > MAX_LINE + 40:
        return f"not one short line: {result.stderr[:300]!r}"
    return None


def placed(param, value, base):
    """The command line with ``value`` given to ``param``."""
    options, argument = base
    if isinstance(param, click.Argument):
        return [*options, "--", value]
    return [*options, param.opts[0], value, *argument]


@pytest.mark.parametrize("path", [path for path, _ in commands()], ids=lambda path: " ".join(path) or "narrate")
def test_every_option_of_every_command_answers_a_nasty_value_in_one_line(tmp_path_factory, path):
    failures = []
    cache = tmp_path_factory.mktemp("cache")  # (one for the whole sweep: its lines are measured once)
    for param in settings(path):
        for value in NASTY:
            tmp_path = tmp_path_factory.mktemp("fuzz")
            args = [*path, *placed(param, value, BASE[path])]
            result = invoke(tmp_path, args, cache)
            if (reason := problem(result)) is not None:
                failures.append(f"{param.name}={value[:20]!r}: {reason}")
    assert not failures, "\n".join(failures)


def test_the_sweep_covers_every_command():
    assert {path for path, _ in commands()} == set(BASE)


# Each case found by hand: the command line, and the one line it must answer with.
CASES = {
    "unicode digits in a duration": (["timer", "²"],
                                     "narrate: '²' is not a duration: write it like 5m, 90s, 2m30s or 1:30"),
    "a number of thousands of digits": (["deck", "--players", "9" * 5000],
                                        "narrate deck: Invalid value for '--players' / '-p': "
                                        "'999999999999999999999999999999…' is not a valid integer. "
                                        "(see 'narrate deck --help')"),
    "a deck longer than a file name": (["deck", "--deck", "v" * 5000],
                                       "narrate: no role 'vvvvvvvvvvvvvvvvvvvvvvvvvvvvvv…' (known roles: lupo-mannaro, "
                                       "veggente, massone, mitomane, guastafeste, apprendista-stregone, truffatore, "
                                       "mortovivo, contadino, pinguino-mannaro, criceto-mannaro)"),
    "an empty output name": (["render", "-p", "3", "-o", ""],
                             "narrate render: Invalid value for '--output' / '-o': give a file name, such as "
                             "notte.wav or tessera.pdf (see 'narrate render --help')"),
    "an empty pack name": (["voices", "record", ""],
                           "narrate voices record: Invalid value for FOLDER: '' is not a name for a voice pack: give "
                           "one, such as nonna (see 'narrate voices record --help')"),
    "an address that is not the machine's": (["serve", "-p", "3", "--no-ambience", "--host", "999.1.1.1"], None),
    "a bed for the timer, which has none": (["timer", "--ambience", "/missing.wav"],
                                            "narrate timer: No such option '--ambience'. Did you mean '--game'? (see 'narrate timer --help')"),
    "a player list of thousands of characters": (["votes", "--names", ",".join(["abcdefghij" * 2] * 100)],
                                                 "narrate: a game has 3 to 10 players, and this list has more: list "
                                                 "each player once, separated by commas"),
    "a name that is not text": (["votes", "--names", "An\udcffna,Bruno,Carla"],
                                "narrate: a name holds bytes that are not text (check the terminal's encoding): type "
                                "the names again"),
    "a file name that is not text": (["deck", "--deck", "\udcff\udcfe.yaml"], "narrate: \\xff\\xfe.yaml: no such file"),
    "names that do not fit the deck": (["--players", "4", "--names", "A,B,C"],
                                       "narrate: the deck is for 4 players and 3 names are given: name each of the 4"),
    "an empty voice pack": (["--players", "3", "--no-day", "--voice-pack", ""],
                            "narrate: Invalid value for '--voice-pack': give a voice pack's name or folder ('narrate "
                            "voices list' shows them), or leave --voice-pack out (see 'narrate --help')"),
    "a blank voice": (["--players", "3", "--no-day", "--voice", " "],
                      "narrate: Invalid value for '--voice': give a voice's name ('narrate doctor' lists them), or "
                      "leave --voice out (see 'narrate --help')"),
    "a player's name that is a list": (["votes", "{tmp}/list-name.yaml"],
                                       "narrate: {tmp}/list-name.yaml: players[0]: name: ['C', 'a'] is not one name: "
                                       "write one word or name, such as 'name: Anna'"),
}


@pytest.mark.parametrize("case", CASES)
def test_each_case_found_by_hand_is_one_line(tmp_path, case):
    args, line = CASES[case]
    (tmp_path / "list-name.yaml").write_text(VOTES.replace("{name: Anna,", "{name: [C, a],"), encoding="utf-8")
    result = invoke(tmp_path, args)
    assert problem(result) is None and result.exit_code == 2, result.output
    if line is not None:
        assert result.stderr == line.replace("{tmp}", str(tmp_path)) + "\n"


def test_a_group_called_alone_shows_its_help(run):
    result = run("voices")
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: narrate voices [OPTIONS] COMMAND [ARGS]...\n\n")
    assert "\n  list " in result.stdout and "\n  record " in result.stdout


def test_name_yes_in_a_votes_file_stays_the_name_yes(tmp_path, run):
    votes = tmp_path / "v.yaml"
    votes.write_text("players:\n  - {name: yes, card: contadino, vote: Bruno}\n"
                     "  - {name: Bruno, card: contadino, vote: Carla}\n  - {name: Carla, card: lupo-mannaro, vote: yes}\n")
    result = run("votes", str(votes), "--json")
    assert result.exit_code == 0, result.stderr
    assert '"yes": 1' in result.stdout and "True" not in result.stdout


def test_deep_nesting_and_huge_numbers_in_files_are_one_line(tmp_path, run):
    deep = tmp_path / "deep.yaml"
    deep.write_text("cards: " + "[" * 100_000 + "]" * 100_000)  # libyaml's composer used to crash on this
    result = run("deck", "--deck", str(deep))
    assert (result.exit_code, result.stderr) == (2, f"narrate: {deep}: nested more than 64 levels deep; this is not "
                                                    "a file narrate reads\n")
    huge = tmp_path / "huge.yaml"
    huge.write_text(f"players: {'9' * 5000}\ncards: {{lupo-mannaro: 2}}\n")
    result = run("deck", "--deck", str(huge))
    assert (result.exit_code, result.stderr) == (2, f"narrate: {huge}: holds a number far too long to mean anything "
                                                    "here\n")


def test_nan_in_a_voice_pack_and_a_damaged_ambience_are_refused(tmp_path, run):
    import numpy as np
    import soundfile

    bed = tmp_path / "bed.wav"
    soundfile.write(bed, np.full(48000, np.nan, dtype=np.float32), 48000, subtype="FLOAT")
    result = run("render", "-p", "3", "--ambience", str(bed), "-o", str(tmp_path / "n.wav"))
    assert (result.exit_code, result.stderr) == (2, f"narrate: {bed}: holds samples that are not numbers (NaN or "
                                                    "infinity): the file is damaged\n")
    slow = tmp_path / "slow.wav"
    soundfile.write(slow, np.zeros(10, dtype=np.float32), 1)
    result = run("render", "-p", "3", "--ambience", str(slow), "-o", str(tmp_path / "n.wav"))
    assert (result.exit_code, result.stderr) == (2, f"narrate: {slow}: sampled at 1 Hz; narrate reads audio at 8 to "
                                                    "384 kHz: convert it (44100 or 48000 Hz)\n")
    assert not (tmp_path / "n.wav").exists()


def test_a_voice_pack_with_nan_seconds_is_refused(tmp_path):
    from narrator.core.errors import NarratorError
    from narrator.shell.voicepacks import load_pack

    (tmp_path / "pack.yaml").write_text("name: x\nlanguage: it\ngame: una-notte-da-lupi\nlicence: x\nsource: tts\n"
                                        "clips:\n  night.start: {text: Cala la notte, seconds: .nan}\n")
    with pytest.raises(NarratorError, match=r"clips.night.start.seconds: expected a number from 0, got nan"):
        load_pack(tmp_path)


def test_an_hour_long_ambience_is_read_only_as_far_as_a_loop_needs(tmp_path):
    import numpy as np
    import soundfile

    from narrator.shell.audio.beds import BED_MAX_SECONDS, load_bed

    long_bed = tmp_path / "hour.flac"
    with soundfile.SoundFile(long_bed, "w", samplerate=8000, channels=1, format="FLAC") as out:
        block = (0.1 * np.sin(np.arange(8000 * 60) * 0.05)).astype(np.float32)
        for _ in range(60):
            out.write(block)
    bed = load_bed(str(long_bed), 8000)
    assert bed.seconds <= BED_MAX_SECONDS


def test_ctrl_c_at_start_up_is_one_line(tmp_path):
    """A Ctrl-C while the command line is still being imported: no KeyboardInterrupt traceback.

    The installed ``narrate`` script is what a user runs. Its first ~15 ms are Python's start-up
    and pip's launcher (which imports ``re`` before any narrate code): a Ctrl-C then is Python's
    own, and out of narrate's reach. From then on it must be one line.
    """
    script = Path(sys.executable).with_name("narrate")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "narrator"]
    environ = {**os.environ, "LANG": "C.UTF-8"}
    whole = []
    for _ in range(3):  # how long this machine takes, so that the interrupts land in narrate's own start-up
        started = time.monotonic()
        subprocess.run([*command, "roles"], capture_output=True, env=environ, check=True)
        whole.append(time.monotonic() - started)
    for fraction in (0.4, 0.55, 0.7, 0.85):
        process = subprocess.Popen([*command, "roles"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   env=environ)
        time.sleep(sorted(whole)[1] * fraction)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
        assert "Traceback" not in err, err
        assert process.returncode in (0, 130, -signal.SIGINT), (process.returncode, err)
        if process.returncode == 130:
            assert err == "narrate: interrotto\n"  # the C locale speaks Italian
        if process.returncode == -signal.SIGINT:
            assert err == ""  # ended by the signal before Python could even raise: silent


class Pressed:
    """A dataclass's field as Ctrl-C interrupts it while its class is made."""

    def __set_name__(self, owner, name):
        from narrator.core.errors import Interrupted

        raise Interrupted


def making_a_class(*args):
    class Language:  # Python 3.11 wraps what __set_name__ raises in a RuntimeError
        moments = Pressed()


def failing_as_it_unwinds(*args):
    from narrator.core.errors import Interrupted

    try:
        raise Interrupted
    except Interrupted:
        raise ValueError("a cleanup that failed")  # noqa: B904 (its context is the signal, as a real one would have)


def failing(*args):
    raise ValueError("a bug")


@pytest.mark.parametrize("roles_text", [making_a_class, failing_as_it_unwinds])
def test_a_ctrl_c_that_lands_while_a_command_makes_a_class_is_one_line(monkeypatch, roles_text):
    """A command imports what it needs as it runs; a Ctrl-C that lands while Python makes a class
    there (naming a dataclass's fields) reaches narrate wrapped in a RuntimeError. Seen once in
    the suite, a traceback from 'narrate roles' interrupted at start-up: it is one line, as is
    any error raised while the signal unwinds. An error with no signal behind it is not hidden."""
    from narrator.core import views

    monkeypatch.setattr(views, "roles_text", roles_text)
    result = CliRunner().invoke(cli, ["roles", "--lang", "en"], obj=make_env(), prog_name="narrate")
    assert isinstance(result.exception, SystemExit) and result.exit_code == 130, result.exception
    assert result.stderr == "narrate: interrupted\n"
    monkeypatch.setattr(views, "roles_text", failing)
    result = CliRunner().invoke(cli, ["roles", "--lang", "en"], obj=make_env(), prog_name="narrate")
    assert isinstance(result.exception, ValueError) and str(result.exception) == "a bug"


def shipped_games():
    from narrator.games import GAMES_DIR
    from narrator.games.loader import available_games, load_game

    return [load_game(GAMES_DIR / game_id) for game_id in available_games(GAMES_DIR)]


@pytest.mark.parametrize("game", shipped_games(), ids=lambda game: game.id)
def test_every_command_of_every_shipped_game_answers_without_a_traceback(tmp_path_factory, game):
    """As a new user would meet them: each command with its usual arguments (the game's own number
    of players), the input ending at the first question; an answer or one line, never a traceback."""
    failures = []
    for path, (options, arguments) in BASE.items():
        options = [str(game.min_players) if option == "3" else option for option in options]
        if path in ((), ("serve",)):  # the players' names given: the game starts
            options += ["--names", ",".join(f"P{number}" for number in range(1, game.min_players + 1))]
        tmp_path = tmp_path_factory.mktemp("game")
        result = invoke(tmp_path, ["--game", game.id, *path, *options, *arguments])
        if (reason := problem(result)) is not None:
            failures.append(f"{' '.join(path) or 'narrate'}: {reason}")
    assert not failures, "\n".join(failures)
