"""What a moderator reads at the terminal in a game of many nights, line by line: the deal asked
before the first night is said (with a sound device or without one), and the prompts and notes
of each step worded for a person.

Each game is played whole in the process with a fake clock (test_game_lupus's planned_game), as
the group would type it; what it printed is then read as a careful moderator reads it."""

import json
import time

import pytest
from test_day import FakeClock, RecordingSpeaker
from test_game_lupus import game_command, invoke, lupus_env, planned_game, saved_game, typed_by_entry
from test_rounds import NAMES

from narrator.games import GAMES_DIR
from narrator.games.loader import load_game

MANY_NIGHTS = [("learts-variant", 10), ("lupus-in-tabula", 8), ("wherewolf-in-tabula", 12),
               ("wherewolf-revised", 12)]
DEAL = {"en": "Deal the cards; press Enter", "it": "Distribuite le carte; premete Invio"}
FIRST_DAY = {"en": "Day 1.", "it": "Giorno 1."}


def without_sound(env):
    """The environment of a laptop with no sound output and no command-line player: the night's
    lines are shown to be read aloud, and the sentences with names are shown only."""
    env.player = None
    env.sound_problem = lambda: "no sound output device (none here)"
    env.which = lambda program: None
    return env


def played(tmp_path, game_id: str, players: int, language: str, sound: bool, seed: int = 5):
    """A whole game at the terminal (the Enter of the deal first): the planned rounds and the output."""
    game = load_game(GAMES_DIR / game_id)
    env = lupus_env(tmp_path, language, seed=31)
    if not sound:
        without_sound(env)
    rounds, typed = planned_game(game, env, players, seed=seed)
    result = invoke(env, game_command(game_id, NAMES)(players), ["", *typed])
    assert result.exit_code == 0, result.output + result.stderr
    assert saved_game(env)["entries"] == rounds.entries  # the Enter went to the deal, every answer to its step
    return rounds, result.output


@pytest.mark.parametrize(("game_id", "players"), MANY_NIGHTS)
def test_without_sound_the_deal_is_asked_before_the_first_night_is_said(tmp_path, game_id, players):
    """(With a sound device, every whole game's test types the deal's Enter first.)"""
    language = "it" if game_id == "wherewolf-in-tabula" else "en"
    _rounds, output = played(tmp_path, game_id, players, language, sound=False)
    deal = output.index(DEAL[language])
    assert deal < output.index(FIRST_DAY[language])
    night = output[:output.index(FIRST_DAY[language])]
    assert output.count(DEAL[language]) == 1
    assert "»" not in night[:deal] and "0:0" not in night[:deal]  # not a line of the night before the deal
    assert "»" in night[deal:]  # the night's lines, shown to be read aloud once the cards are out


def test_a_one_night_game_without_sound_waits_for_the_deal_before_the_file_is_started(tmp_path, monkeypatch):
    from click.testing import CliRunner
    from conftest import make_env

    from narrator.shell.cli import cli

    monkeypatch.chdir(tmp_path)
    clock = FakeClock()
    env = without_sound(make_env(clock=clock, sleep=clock.sleep, speaker=lambda: RecordingSpeaker(clock),
                                 data_home=tmp_path / "data"))
    result = CliRunner().invoke(cli, ["--players", "4", "--lang", "en", "--no-ambience", "--day-seconds", "20",
                                      "--names", "Anna,Bruno,Carla,Dario"], obj=env, input="q\n")
    assert "Deal the cards; press Enter when everyone has theirs" in result.output
    assert "Press Enter as it starts playing" not in result.output  # q at the deal: the night is not followed
    assert result.exit_code == 130 and "Time is up" not in result.output  # q: stopped


def test_cards_typed_by_the_moderator_are_not_asked_to_be_dealt_again(tmp_path):
    from test_game_lupus import DEALT, command

    env = without_sound(lupus_env(tmp_path))
    result = invoke(env, [*command(8, NAMES[:8]), "--dealt"], [*DEALT, "q"])
    assert "Everyone has their card: press Enter to start the night" in result.output
    assert "Deal the cards" not in result.output and result.exit_code == 130


def learts_planned(tmp_path):
    game = load_game(GAMES_DIR / "learts-variant")
    env = without_sound(lupus_env(tmp_path, "en", seed=31))
    rounds, _typed = planned_game(game, env, 10, seed=7)
    return game, env, rounds, typed_by_entry(game, env, rounds)


def after(output: str, marker: str) -> list[str]:
    """The night's lines shown after ``marker`` (the voice read aloud: no sound here), in order."""
    return [line.strip()[2:] for line in output[output.index(marker):].splitlines() if line.strip().startswith("» ")]


def test_an_undo_inside_a_night_closes_the_turn_called_and_calls_the_earlier_one_again(tmp_path):
    game, env, rounds, typed = learts_planned(tmp_path)
    wolves = next(index for index, entry in enumerate(rounds.entries) if entry.get("phase") == "lupi")
    flat = [line for lines in typed[:wolves] for line in lines]
    rest = [line for lines in typed[wolves - 1:] for line in lines]  # the Thief's answer given again
    result = invoke(env, game_command("learts-variant", NAMES)(10), ["", *flat, "undo", *rest])
    assert result.exit_code == 0, result.output
    assert saved_game(env)["entries"] == rounds.entries
    words = game.languages["en"]
    lines = after(result.output, "Undone: back to night 1, Thief.")
    assert lines[:2] == [words.line("lupi.close"), words.line("ladro.open")]  # the wolves close, the Thief opens


def test_an_undo_from_a_night_into_the_day_opens_everyone_s_eyes_and_the_night_falls_again(tmp_path):
    game, env, rounds, typed = learts_planned(tmp_path)
    second = next(index for index, entry in enumerate(rounds.entries) if entry.get("night") == 2
                  and entry.get("phase") == "cortigiana")
    last_vote = max(index for index, entry in enumerate(rounds.entries[:second]) if entry["kind"] == "vote")
    flat = [line for lines in typed[:second] for line in lines]
    rest = [line for lines in typed[last_vote:] for line in lines]
    result = invoke(env, game_command("learts-variant", NAMES)(10), ["", *flat, "undo", *rest])
    assert result.exit_code == 0, result.output
    assert saved_game(env)["entries"] == rounds.entries
    words = game.languages["en"]
    undone = result.output[result.output.index("Undone: back to "):]
    assert undone.startswith(f"Undone: back to {rounds.entries[last_vote]['voter']}'s vote, day 1.")
    lines = after(undone, "Undone")
    assert lines[0] == words.line("cortigiana.close") and words.line("night.start") in lines
    assert lines.index(words.line("night.start")) > 1  # everyone woke (the dawn's line) before the night fell again
    assert undone.count("── Night 2 ──") == 1  # night 2 begins again, with its heading


def test_an_undo_at_the_first_vote_goes_back_into_the_night_and_the_day_comes_again(tmp_path):
    game, env, rounds, typed = learts_planned(tmp_path)
    first_vote = next(index for index, entry in enumerate(rounds.entries) if entry["kind"] == "vote")
    flat = [line for lines in typed[:first_vote + 1] for line in lines]
    last_turn = max(index for index, entry in enumerate(rounds.entries[:first_vote]) if "choice" in entry)
    rest = [line for lines in typed[last_turn:] for line in lines]
    result = invoke(env, game_command("learts-variant", NAMES)(10), ["", *flat[:-1], "undo", *rest])
    assert result.exit_code == 0, result.output
    assert saved_game(env)["entries"] == rounds.entries
    words = game.languages["en"]
    undone = result.output[result.output.index("Undone: back to night 1, Medium."):]
    lines = after(undone, "Undone")
    assert lines[:2] == [words.line("night.start"), words.line("medium.open")]  # eyes closed, then the turn
    day = undone[:undone.index("── Night 2 ──")]
    assert day.count("Day 1. Living:") == 1 and day.count(words.line("day.discuss")) == 1  # and its countdown


def test_resume_says_where_the_game_is_and_closes_everyone_s_eyes_before_a_turn(tmp_path):
    game, env, rounds, typed = learts_planned(tmp_path)
    result = invoke(env, game_command("learts-variant", NAMES)(10), [""])  # the deal, then the input ends
    assert result.exit_code == 2
    path = next((env.data_home / "games").glob("[!.]*.json"))
    kept = json.loads(path.read_text(encoding="utf-8"))
    words = game.languages["en"]
    for stop, place, first in [("guardia", "night 1, Guard", ["night.start", "guardia.open"]),
                               ("day", "day 1", None)]:
        index = next(index for index, entry in enumerate(rounds.entries)
                     if stop in (entry.get("phase"), entry["kind"]))
        path.write_text(json.dumps({**kept, "entries": rounds.entries[:index]}), encoding="utf-8")
        rest = [line for lines in typed[index:] for line in lines]
        resumed = invoke(env, ["resume"], ["", *rest])
        assert resumed.exit_code == 0, resumed.output
        assert f"Resumed at {place}." in resumed.output
        if first:
            assert after(resumed.output, "Resumed")[:2] == [words.line(key) for key in first]
        else:
            assert resumed.output.index("Day 1. Living:") < resumed.output.index(" votes for")


PROMPT_END = {"en": "undo: go back): ", "it": "annulla: torna indietro): "}


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize(("game_id", "players"), MANY_NIGHTS)
def test_nothing_to_enter_is_never_followed_by_a_question_of_its_turn(tmp_path, game_id, players, language):
    """'Nothing to enter' ends a turn: the next thing the moderator meets is only the word that
    closes it (issue 40: every turn waits for it, dealt or not), never a question of its turn; and
    'out of the game' is said only of a turn some of whose cards were dealt (to the dead), never of
    one nobody holds."""
    rounds, output = played(tmp_path, game_id, players, language, sound=False)
    game = load_game(GAMES_DIR / game_id)
    nothing = {"en": "nothing to enter tonight)", "it": "stanotte niente da inserire)"}[language]
    close = {"en": ": close the turn after as long as a turn usually takes (Enter: close it; undo: go back): ",
             "it": ": chiudete il turno dopo il tempo che un turno prende di solito (Invio: chiudetelo; "
                   "annulla: torna indietro): "}[language]
    lines = output.splitlines()
    for index, line in enumerate(lines):
        if line.endswith(nothing):
            following = next(later for later in lines[index + 1:] if later.strip())
            assert PROMPT_END[language] not in following + " " or close.strip() in following, (line, following)
    words = game.languages[language]
    dealt = set(rounds.setup.cards.values())
    out = {"en": ": out of the game", "it": ": fuori gioco"}[language]
    for slot in game.night.slots:
        named = {words.slot_name(slot, copies) for copies in (1, 2)}
        for name in named:
            if f"  ({name}{out}" in output:
                assert dealt & set(slot.roles), f"{name}: said out of the game, never dealt"


def test_a_turn_followed_by_its_silent_turns_says_nothing_of_entering(tmp_path):
    """Wherewolf Revised's Criminals' chance: what they did is typed in the silent turns after it."""
    _rounds, output = played(tmp_path, "wherewolf-revised", 12, "en", sound=False)
    assert "(Criminals' chance: nothing to enter tonight)" not in output
    assert "(Thief: nobody holds this card)" in output  # a possible role not drawn: not "out of the game"
    assert "(Thief: out of the game" not in output


def test_a_turn_whose_character_is_busy_says_why(tmp_path):
    """LeartS' variant: the Guard the Courtesan visited stays home with her, and the moderator is told so."""
    from narrator.core.rounds import Rounds

    game = load_game(GAMES_DIR / "learts-variant")
    env = without_sound(lupus_env(tmp_path, "en", seed=31))
    rounds, _typed = planned_game(game, env, 10, seed=7)
    guard = next(name for name, role in rounds.setup.cards.items() if role == "guardia")
    entries = [{"kind": "phase", "night": 1, "phase": "night"},
               {"kind": "phase", "night": 1, "phase": "cortigiana", "choice": guard}]
    step = Rounds(game, rounds.setup, entries).step
    assert step.phase == "guardia" and step.ask is None and step.idle is not None
    typed = [guard]  # the Courtesan visits the Guard; then the input ends
    result = invoke(env, game_command("learts-variant", NAMES)(10), ["", *typed])
    assert f"  (Guard: {guard} spends the night with the Courtesan and does not go out)" in result.output


def test_questions_agree_with_how_many_choose_and_say_how_many_names(tmp_path):
    from narrator.core.kinds import STOCK
    from narrator.core.state import Ask
    from narrator.shell.translation import load_catalog, say, use

    use(load_catalog("it", None), "it")
    try:
        players = STOCK["players"]
        one = Ask("capo-branco", "players", ("Anna",), ("Bruno", "Carla"), most=1)
        two = Ask("negromante", "players", ("Anna",), ("Bruno", "Carla", "Dario"), least=2, most=2)
        assert say(players.question(one, "Capo Branco", 1)) == "Capo Branco: chi indica?"
        assert say(players.question(one, "Lupi", 2)) == "Lupi: chi indicano?"
        assert say(players.form(one, "q", None)["count"]) == "un nome"
        assert say(players.form(two, "q", None)["count"]) == "due nomi"
    finally:
        use(load_catalog("en", None), "en")


@pytest.mark.parametrize("game_id", ["wherewolf-in-tabula", "wherewolf-revised", "learts-variant"])
def test_the_italian_prompts_name_every_character_the_same_way(tmp_path, game_id):
    """No article before one role and none before another: every question names the role as a label."""
    _rounds, output = played(tmp_path, game_id, 12, "it", sound=False)
    game = load_game(GAMES_DIR / game_id)
    words = game.languages["it"]
    names = {words.role_name(role) for role in game.role_ids} | {
        words.slot_name(slot, copies) for slot in game.night.slots for copies in (1, 2)}
    prompts = [line for line in output.splitlines() if PROMPT_END["it"] in line + " "]
    assert prompts
    for line in prompts:
        for article in ("Il ", "La ", "Lo ", "L'", "I ", "Gli ", "Le "):
            assert not any(line.startswith(article + name) for name in names), line
    assert "(due nomi) (" not in output
    if game_id == "wherewolf-in-tabula":
        assert "Negromante: chi maledice? (due nomi;" in output


@pytest.mark.parametrize(("typed", "value"), [("sì", "signal"), ("no", None), ("dà", "signal"), ("", None)])
def test_a_single_choice_takes_a_yes_or_a_no_as_well(typed, value):
    import click
    from click.testing import CliRunner

    from narrator.shell.cli.prompts import ask_form
    from narrator.shell.translation import load_catalog, use

    @click.command()
    def asked():
        click.echo(repr(ask_form({"kind": "pick", "question": "Bracconiere: dà il suo segnale?", "none": True,
                                  "options": [{"label": "dà il suo segnale", "value": "signal"}]})))

    use(load_catalog("it", None), "it")
    try:
        result = CliRunner().invoke(asked, input=typed + "\n")
    finally:
        use(load_catalog("en", None), "en")
    assert result.exit_code == 0, result.output
    assert "(dà il suo segnale o sì; Invio o no: niente; annulla: torna indietro)" in result.output
    assert result.output.rstrip().endswith(repr(value))


def test_a_tie_is_said_plainly_before_the_runoff_and_recounted_after(tmp_path):
    """LeartS' variant: who is tied, joined as the language joins names, who votes again, and what
    another tie means; after the runoff the tie is told as past."""
    _rounds, output = played(tmp_path, "learts-variant", 10, "en", sound=False, seed=7)
    before = next(line for line in output.splitlines() if "are tied." in line)
    assert " and " in before and ", " in before.split(" and ")[0]  # "Anna, Bruno, Dario and Zeno are tied."
    assert before.endswith("The others vote again, for one of them; if the tie holds, nobody burns today.")
    assert "another tie spares them all" not in output
    assert "were tied: the others voted again, between them only." in output


def test_the_language_may_come_before_replay_as_the_game_may(run, tmp_path):
    from test_game_learts import RECORD

    path = tmp_path / "record.yaml"
    path.write_text(RECORD, encoding="utf-8")
    before = run("--lang", "it", "replay", str(path))
    after_it = run("replay", str(path), "--lang", "it")
    assert before.exit_code == 0, before.stderr
    assert before.stdout == after_it.stdout and before.stdout.startswith("Notte 1\n")
    assert run("--lang", "it", "replay", str(path), "--lang", "en").stdout.startswith("Night 1\n")  # the later wins
    refused = run("--lang", "en", "resume")
    assert refused.exit_code == 2 and "narrate resume takes no --lang" in refused.stderr


def test_replay_tells_the_morning_s_news_as_play_does_even_when_nobody_died(run, tmp_path):
    """Wherewolf in Tabula: the second cursed player burned by day is announced at the next dawn,
    where nobody died; the laptop says it, and narrate replay prints it."""
    from test_wherewolf_rules import GRAVEDIGGER_JOINS

    path = tmp_path / "record.yaml"
    path.write_text("game: wherewolf-in-tabula\n" + GRAVEDIGGER_JOINS + "  - day: {lynched: Delia}\n  - night: {}\n"
                    "  - day: {lynched: Ettore}\n  - night: {}\n", encoding="utf-8")
    result = run("replay", str(path), "--lang", "en")
    assert result.exit_code == 0, result.stderr
    night = result.stdout[result.stdout.index("Night 3"):]
    assert night.splitlines()[1:3] == ["  Two have died under a curse. Beware the next dawn.", "  Dead: nobody"]


@pytest.mark.parametrize(("record", "refusal"), [
    ("wherewolf-in-tabula", "round 1: negromante: missing: two names required here (this turn cannot pass)"),
    ("learts-variant", "round 1: lupi: Olga: 'Zorro' is not one of Rita,"),
])
def test_a_replay_refusal_says_why_without_repeating_the_key(run, tmp_path, record, refusal):
    """The record's key is named once, where the refusal says which; the reason is in words (how
    many names a turn needs), never the key again ('lupi Olga:', \"'negromante' needs an answer\")."""
    players = {"wherewolf-in-tabula": "  - {name: Anna, card: veggente}\n  - {name: Bice, card: negromante}\n"
                                      "  - {name: Carlo, card: capo-branco}\n  - {name: Delia, card: contadino-semplice}\n"
                                      "  - {name: Ettore, card: contadino-semplice}\n  - {name: Franca, card: becchino}\n"
                                      "  - {name: Guido, card: mago}\n  - {name: Irma, card: bardo}\n",
               "learts-variant": "  - {name: Olga, card: lupo-capobranco}\n  - {name: Piero, card: lupo-docile}\n"
                                 "  - {name: Rita, card: amante}\n  - {name: Sara, card: amante}\n"
                                 "  - {name: Teo, card: sindaco}\n  - {name: Ugo, card: becchino}\n"
                                 "  - {name: Vera, card: martire}\n  - {name: Walter, card: guardia}\n"
                                 "  - {name: Zoe, card: cortigiana}\n"}[record]
    night = {"wherewolf-in-tabula": "{veggente: Carlo}", "learts-variant": "{lupi: {Olga: Zorro}, guardia: Ugo}"}[record]
    path = tmp_path / "r.yaml"
    path.write_text(f"game: {record}\nplayers:\n{players}rounds:\n  - night: {night}\n", encoding="utf-8")
    result = run("replay", str(path), "--lang", "en")
    assert result.exit_code == 2 and refusal in result.stderr, result.stderr


@pytest.mark.parametrize("system", ["linux", "windows"])
def test_tab_completes_a_name_at_the_laptop_while_the_console_watches_the_phone(monkeypatch, capfd, system):
    """A real terminal (a pseudo-terminal) at the console's prompt: Tab completes the last name, as
    far as the names agree, and lists them when several remain; Backspace takes a key back; the
    terminal is given back as it was. On Windows the console's keys go through the same editor."""
    import os
    import pty
    import sys
    import termios
    import threading

    from narrator.shell.cli.prompts import Undo
    from narrator.shell.platform import keyboard
    from narrator.shell.speakerbox.moderator import Console

    keys = ["Ca\t", ", Da\t", "r\t", ", Zz\x7f\x7fEl\t", "\r"]
    if system == "windows":  # msvcrt's keys, one at a time, as a Windows console gives them
        pressed = list("".join(keys).replace("\x7f", "\x08"))
        fake = type("msvcrt", (), {"kbhit": lambda: bool(pressed), "getwch": lambda: pressed.pop(0),
                                   "putwch": lambda character: sys.stdout.write(character)})
        monkeypatch.setitem(sys.modules, "msvcrt", fake)
        monkeypatch.setattr(keyboard.platform, "windows", lambda: True)
    leader, follower = pty.openpty()
    before = termios.tcgetattr(follower)
    stdin = os.fdopen(follower, "r", encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)

    def typist():
        for part in keys:
            time.sleep(0.15)
            os.write(leader, part.encode())

    if system == "linux":
        threading.Thread(target=typist, daemon=True).start()
    try:
        with keyboard.completion(["Anna", "Carla", "Dario", "Daniele", "Elena"]):
            line = Console(Undo).prompt("Seer points at: ")
    finally:
        after = termios.tcgetattr(follower)
        stdin.close()
        os.close(leader)
    assert line == "Carla, Dario, Elena"
    shown = capfd.readouterr().out
    assert "Dario  Daniele" in shown  # "Da": two names, listed, then the question and the line again
    assert "Seer points at: Carla, Da" in shown.split("Dario  Daniele")[1]
    assert after == before  # cbreak and no echo only while the line was typed


def test_a_criminal_whose_power_is_spent_is_said_so_not_only_that_nothing_is_entered(tmp_path):
    """Wherewolf Revised: the Assassino who struck on night 2 has nothing to enter in the later beats
    of that night (he has acted) and of every night after (his power is spent)."""
    _rounds, output = played(tmp_path, "wherewolf-revised", 12, "en", sound=False)
    assert "(Assassin: has already acted tonight)" in output
    assert "(Assassin: once-a-game power already spent)" in output
    assert "(Assassin: nothing to enter tonight)" not in output


def test_a_value_of_named_parts_tapped_on_the_phone_is_told_at_the_laptop_without_ids():
    """Wherewolf Revised's Assassino acting in the Seer's beat: 'Anna', or a plain yes, never 'turn: veggente'."""
    from narrator.shell.speakerbox.forms import in_words

    form = {"kind": "fields", "question": "Assassin: acts in this turn?", "none": True, "forms": [
        {"fixed": {"turn": "veggente"}, "parts": []},
        {"fixed": {"turn": "mago"}, "parts": [{"key": "kill", "label": "kill", "options": [
            {"label": "Anna", "value": "Anna"}]}]}]}
    assert in_words(form, {"turn": "veggente"}) == "yes"
    assert in_words(form, {"turn": "mago", "kill": "Anna"}) == "Anna"


@pytest.mark.parametrize(("game_id", "round_name", "line"), [("wherewolf-revised", "accusation", "Nobody was accused."),
                                                             ("wherewolf-in-tabula", "vote", "No hand was raised.")])
def test_a_round_with_no_vote_at_all_says_so_not_a_dash(game_id, round_name, line):
    """Everyone answered nobody: the count is said in words, never 'Accusations counted: -.'"""
    from narrator.core.procedures import Verdict
    from narrator.core.vote import Sentences

    game = load_game(GAMES_DIR / game_id)
    verdict = Verdict(None, tallies={round_name: {"Anna": 0, "Bruno": 0}})
    lines = game.rules.explain_day(game, None, verdict, Sentences(game.languages["en"]))
    assert lines[0] == line and not any(": -." in shown for shown in lines)
