"""The day: its schedule as pure logic, the timer on a fake clock, the screen, and the commands."""

import io

import pytest
from click.testing import CliRunner

from narrator.core.bigdigits import big, clock_face
from narrator.core.day import DayTimer, day_schedule, parse_duration
from narrator.core.errors import NarratorError
from narrator.core.game import DayRules
from narrator.shell.audio.clip import read_clip
from narrator.shell.cli import cli
from narrator.shell.dayrun import DayScreen, run_day
from tests.conftest import RecordingPlayer, make_env

RULES = DayRules(seconds=300, warnings=(120, 60, 30), countdown=10)
COUNTDOWN = [f"count.{n}" for n in range(10, 0, -1)]  # RULES' countdown
GAME_COUNTDOWN = ["count.3", "count.2", "count.1"]  # the game's: the rulebook's "3… 2… 1… votate!"


class FakeClock:
    """Monotonic time that moves only when the code under test waits."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds


def test_schedule_for_five_minutes():
    events = day_schedule(RULES, 300)
    assert [e.key for e in events] == ["day.discuss", "day.left-120", "day.left-60", "day.left-30", *COUNTDOWN,
                                       "day.vote"]
    assert [e.left for e in events] == [300, 120, 60, 30, *range(10, 0, -1), 0]


def test_schedule_leaves_out_warnings_longer_than_the_day():
    assert [e.key for e in day_schedule(RULES, 45)] == ["day.discuss", "day.left-30", *COUNTDOWN, "day.vote"]
    assert [e.key for e in day_schedule(RULES, 5)] == ["day.discuss", "count.4", "count.3", "count.2", "count.1",
                                                      "day.vote"]


@pytest.mark.parametrize("text, seconds", [("5m", 300), ("90s", 90), ("2m30s", 150), ("1:30", 90), ("300", 300),
                                           (" 3 min ", 180), ("45sec", 45)])
def test_durations(text, seconds):
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text, message", [
    ("5x", "'5x' is not a duration: write it like 5m, 90s, 2m30s or 1:30"),
    ("", "'' is not a duration"),
    ("2h", "'2h' is not a duration"),
    ("61m", "a day of '61m' is out of reach: choose from 1 second to 60 minutes"),
    ("0s", "a day of '0s' is out of reach"),
])
def test_bad_durations(text, message):
    with pytest.raises(NarratorError, match=message):
        parse_duration(text)


def drive(timer, clock, step, until_finished=True, actions=None):
    """Run the timer's clock forward in ``step`` seconds; return (elapsed, key) for every line due."""
    start, said, actions = clock.now, [], dict(actions or {})
    while not timer.finished:
        elapsed = round(clock.now - start, 6)
        for at in [at for at in actions if at <= elapsed]:
            actions.pop(at)(timer)
        said += [(elapsed, event.key) for event in timer.due()]
        clock.sleep(step)
        if clock.now - start > 10_000:
            raise AssertionError("the day never ended")
    return said


def test_every_line_comes_when_its_time_is_left():
    clock = FakeClock()
    said = drive(DayTimer(RULES, 300, clock), clock, 0.01)
    assert [key for _, key in said] == [e.key for e in day_schedule(RULES, 300)]
    for elapsed, key in said:
        left = next(e.left for e in day_schedule(RULES, 300) if e.key == key)
        assert elapsed == pytest.approx(300 - left, abs=0.011)


def test_a_busy_machine_does_not_make_the_day_longer():
    clock = FakeClock()
    timer = DayTimer(RULES, 300, clock)
    said = drive(timer, clock, 2.7)  # the loop wakes late, every 2.7 s
    assert said[-1][1] == "day.vote"
    assert said[-1][0] == pytest.approx(300, abs=2.7)  # the vote is called when the time is up, not later
    assert [k for _, k in said if not k.startswith("count.")] == ["day.discuss", "day.left-120", "day.left-60",
                                                                 "day.left-30", "day.vote"]
    counted = [k for _, k in said if k.startswith("count.")]
    assert counted == sorted(counted, key=lambda k: -int(k.split(".")[1]))  # never two seconds at once, never back


def test_pause_stops_the_time():
    clock = FakeClock()
    timer = DayTimer(RULES, 60, clock)
    clock.sleep(10)
    timer.toggle_pause()
    clock.sleep(500)
    assert timer.left() == pytest.approx(50) and timer.paused
    timer.toggle_pause()
    clock.sleep(5)
    assert timer.left() == pytest.approx(45)


def test_more_time_brings_a_passed_warning_back():
    clock = FakeClock()
    timer = DayTimer(RULES, 100, clock)
    said = drive(timer, clock, 0.05, actions={50.0: lambda t: t.add_time()})
    keys = [key for _, key in said]
    assert keys.count("day.left-60") == 2  # at 60 s left, then again after 30 more at 50 s left
    assert said[-1] == (pytest.approx(130, abs=0.06), "day.vote")


def test_adding_time_while_paused():
    clock = FakeClock()
    timer = DayTimer(RULES, 60, clock)
    timer.toggle_pause()
    timer.add_time()
    assert timer.left() == pytest.approx(90)


def test_vote_now_calls_the_vote_at_once():
    clock = FakeClock()
    timer = DayTimer(RULES, 300, clock)
    timer.due()
    clock.sleep(42)
    timer.vote_now()
    assert [e.key for e in timer.due()] == ["day.vote"]
    assert timer.finished and timer.left() == 0
    assert timer.due() == []


def test_big_digits():
    rows = big("4:59")
    assert len(rows) == 5 and len({len(row) for row in rows}) == 1
    assert clock_face(299.2) == "5:00" and clock_face(0.2) == "0:01" and clock_face(0) == "0:00"
    assert clock_face(65) == "1:05"


def test_screen_redraws_in_place_and_shows_the_last_line_said():
    clock = FakeClock()
    timer = DayTimer(RULES, 90, clock)
    out = io.StringIO()
    screen = DayScreen(out, interactive=True, size=lambda: (80, 12))  # room for digits of five rows
    screen.show(timer)
    clock.sleep(1)
    screen.said("Two minutes left.", timer.left())
    screen.show(timer)
    first, second = out.getvalue().split("\x1b[9A")
    assert first.count("\n") == 9 and "space: pause" in first
    assert "Two minutes left." in second and second.count("█") > 20


def run_with_keys(total, presses):
    """Run a day of ``total`` seconds; ``presses`` maps a poll number to the key pressed then."""
    clock = FakeClock()
    timer = DayTimer(RULES, total, clock)
    polls = []

    def read_key(timeout):
        polls.append(timeout)
        key = presses.get(len(polls))
        clock.sleep(timeout)
        return key

    said = []
    run_day(timer, said.append, read_key, DayScreen(io.StringIO(), interactive=False), {})
    return clock.now - 1000.0, said


def test_run_day_keys_plus_adds_thirty_seconds():
    elapsed, said = run_with_keys(40, {3: "+"})
    assert elapsed == pytest.approx(70, abs=0.2) and said[-1] == "day.vote"


def test_run_day_keys_space_pauses_and_resumes():
    elapsed, _ = run_with_keys(40, {3: " ", 200: " "})  # paused for about 197 polls of 0.1 s
    assert elapsed == pytest.approx(40 + 19.7, abs=0.3)


def test_run_day_keys_enter_votes_now():
    elapsed, said = run_with_keys(40, {5: "\n"})
    assert elapsed < 1 and said == ["day.discuss", "day.vote"]


@pytest.fixture(params=["en", "it"])
def language(request, tmp_path):
    """The shell speaking English, then Italian; English again afterwards."""
    from narrator.shell import translation

    translation.use(translation.load_catalog(request.param, tmp_path), request.param)
    yield request.param
    translation.use(translation.ENGLISH, translation.SOURCE_LANGUAGE)


def day_log(total, presses):
    """The log of a day of ``total`` seconds with ``presses`` (poll number → key), as in run_with_keys."""
    clock = FakeClock()
    timer = DayTimer(RULES, total, clock)
    polls, out = [], io.StringIO()

    def read_key(timeout):
        polls.append(timeout)
        clock.sleep(timeout)
        return presses.get(len(polls))

    run_day(timer, lambda key: None, read_key, DayScreen(out, interactive=False), {"day.vote": "Vote!"})
    return out.getvalue().splitlines()


ENDS = {"en": ("Time is up.", "Vote called with 0:40 left."),
        "it": ("Tempo scaduto.", "Voto anticipato: mancavano ancora 0:40.")}


def test_time_is_up_is_shown_only_when_the_time_ran_out(language):
    time_up, called = ENDS[language]
    assert day_log(40, {})[-2:] == ["0:00  Vote!", f"0:00  {time_up}"]
    early = day_log(40, {3: "\n"})  # Enter, with forty seconds left
    assert early[-2:] == ["0:40  Vote!", f"0:40  {called}"]
    assert not [line for line in early if time_up in line]


def test_the_screen_says_how_the_day_ended(language):
    time_up, called = ENDS[language]
    for press, words in (((), time_up), ((0,), called)):
        clock = FakeClock()
        timer = DayTimer(RULES, 40, clock)
        if press:
            timer.vote_now()
        else:
            clock.sleep(41)
        timer.due()
        out = io.StringIO()
        DayScreen(out, interactive=True, size=lambda: (80, 24)).show(timer)
        assert words in out.getvalue() and (time_up in out.getvalue()) == (not press)


class RecordingSpeaker:
    def __init__(self, clock):
        self.clock = clock
        self.said = []
        self.closed = False

    def say(self, key):
        self.said.append((round(self.clock.now - 1000.0, 2), key))

    def close(self):
        self.closed = True


def test_timer_command_speaks_on_time_with_a_fake_clock():
    clock = FakeClock()
    speaker = RecordingSpeaker(clock)
    env = make_env(clock=clock, sleep=clock.sleep, speaker=lambda: speaker)
    result = CliRunner().invoke(cli, ["timer", "45s", "--lang", "en"], obj=env)
    assert result.exit_code == 0, result.output
    assert [key for _, key in speaker.said] == ["day.discuss", "day.left-30", *GAME_COUNTDOWN, "day.vote"]
    assert speaker.said[1][0] == pytest.approx(15, abs=0.11) and speaker.said[-1][0] == pytest.approx(45, abs=0.11)
    assert speaker.closed
    assert "0:30  Thirty seconds left." in result.stderr and "0:00  Vote!" in result.stderr


def test_timer_bad_duration_is_one_line(run):
    result = run("timer", "5x")
    assert (result.exit_code, result.stderr) == (2, "narrate: '5x' is not a duration: write it like 5m, 90s, 2m30s "
                                                    "or 1:30\n")


def test_a_whole_game_from_night_to_verdict():
    clock = FakeClock()
    speaker = RecordingSpeaker(clock)
    player = RecordingPlayer()
    env = make_env(clock=clock, sleep=clock.sleep, speaker=lambda: speaker, player=lambda: player)
    answers = ["", "contadino", "Bruno", "lupo-mannaro", "Carla", "veggente", "Bruno", "truffatore", "Bruno"]
    result = CliRunner().invoke(cli, ["--players", "4", "--lang", "en", "--day-seconds", "20", "--names",
                                      "Anna,Bruno,Carla,Dario"], obj=env, input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.output
    assert len(player.nights) == 1
    assert [key for _, key in speaker.said][0] == "day.discuss" and speaker.said[-1] == (pytest.approx(20, abs=0.11),
                                                                                          "day.vote")
    assert "Token turned" not in result.output  # no Apprendista Stregone in the 4-player deck
    assert "Lynched: Bruno\nWinning side: Humans\nWinners: Anna, Carla, Dario" in result.output


def test_the_vote_asks_for_the_turned_token_when_the_apprentice_is_in_the_deck():
    clock = FakeClock()
    env = make_env(clock=clock, sleep=clock.sleep, speaker=lambda: RecordingSpeaker(clock),
                   player=lambda: RecordingPlayer())
    names = "A,B,C,D,E,F,G,H,I,J"
    cards = ["lupo-mannaro", "lupo-mannaro", "veggente", "massone", "massone", "mitomane", "guastafeste",
             "apprendista-stregone", "truffatore", "mortovivo"]
    answers = [""]  # Enter: the cards are dealt
    for index, card in enumerate(cards):
        answers += [card, "A" if index else "B"]
    answers.append("massone")
    result = CliRunner().invoke(cli, ["--players", "10", "--lang", "en", "--day-seconds", "3", "--names", names],
                                obj=env, input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.output
    assert "Token turned by the Sorcerer's Apprentice (or none)" in result.output
    assert "The Mason token was turned: whoever holds a Mason card is a wolf." in result.output
    assert "Lynched: A\nWinning side: Humans\n" in result.output


def no_sound_env(tmp_path, clock):
    """A machine with no sound output and no command-line player: the night can only be written."""
    return make_env(clock=clock, sleep=clock.sleep, speaker=lambda: RecordingSpeaker(clock),
                    sound_problem=lambda: "no sound output device (none here)", which=lambda program: None,
                    data_home=tmp_path / "data")


def test_with_no_sound_the_plan_is_said_first_the_night_goes_to_the_data_folder_and_the_day_waits(tmp_path,
                                                                                                monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    clock = FakeClock()
    env = no_sound_env(tmp_path, clock)
    # Enter: the cards are dealt; Enter: the file starts; Enter: the day starts
    answers = ["", "", "", "contadino", "Bruno", "lupo-mannaro", "Carla", "veggente", "Bruno", "truffatore", "Bruno"]
    result = CliRunner().invoke(cli, ["--players", "4", "--lang", "en", "--no-ambience", "--day-seconds", "20",
                                      "--names", "Anna,Bruno,Carla,Dario"], obj=env,
                                input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.output
    night_file = tmp_path / "data" / "nights" / "night.wav"
    assert result.stderr.startswith(f"narrate: no sound output device (none here); the night will be written to "
                                    f"{night_file} instead of played\n")
    assert "close your eyes" not in result.stdout
    assert f") is in {night_file}: play it to the group from any media player.\n" in result.stdout
    assert result.stdout.index("Deal the cards; press Enter") < result.stdout.index("Press Enter as it starts")
    # Enter as the file starts on another device: this screen follows the night, by the clock.
    assert ("Press Enter as it starts playing, and this screen follows the night: who is called, the count, the "
            "time (space: pause, q: stop)") in result.stdout
    followed = result.stderr.splitlines()[1:7]
    assert [line.split("  ")[1] for line in followed] == ["Nightfall", "Werewolves", "Seer", "Troublemaker", "Robber",
                                                          "Dawn"]
    times = [int(line[0]) * 60 + int(line[2:4]) for line in followed]
    assert times == sorted(times) and times[-1] > 60
    assert clock.now - 1000 > read_clip(night_file).seconds + 20  # the night followed to its end, then the day
    assert "press Enter to start the day" in result.stdout
    assert night_file.stat().st_size > 100_000
    assert list(work.iterdir()) == []  # nothing written into the working folder
    assert "Lynched: Bruno" in result.stdout


def test_with_no_sound_and_no_keyboard_the_day_does_not_start(tmp_path):
    clock = FakeClock()
    speaker = RecordingSpeaker(clock)
    env = no_sound_env(tmp_path, clock)
    env.speaker = lambda: speaker
    result = CliRunner().invoke(cli, ["--players", "3", "--no-ambience"], obj=env, input="")
    assert result.exit_code == 0, result.output
    assert result.stderr.endswith("narrate: nobody can say go (no keyboard input): the day was not started; "
                                  "run 'narrate timer' when the group is ready\n")
    assert "the count, the time (space: pause, q: stop) \nWhen the night is over" in result.stdout  # a line each
    assert speaker.said == [] and clock.now == 1000.0


def test_a_longer_countdown_is_an_option():
    clock = FakeClock()
    speaker = RecordingSpeaker(clock)
    env = make_env(clock=clock, sleep=clock.sleep, speaker=lambda: speaker)
    result = CliRunner().invoke(cli, ["timer", "20s", "--countdown", "10", "--lang", "en"], obj=env)
    assert result.exit_code == 0, result.output
    assert [key for _, key in speaker.said] == ["day.discuss", *COUNTDOWN, "day.vote"]


def test_after_the_night_a_card_not_in_the_deck_or_one_too_many_is_asked_again():
    clock = FakeClock()
    env = make_env(clock=clock, sleep=clock.sleep, speaker=lambda: RecordingSpeaker(clock),
                   player=lambda: RecordingPlayer())
    answers = ["", "mortovivo", "contadino", "Bruno", "contadino", "Carla", "contadino", "veggente", "Bruno",
               "lupo-mannaro", "Bruno"]
    result = CliRunner().invoke(cli, ["--players", "4", "--lang", "en", "--day-seconds", "3", "--names",
                                      "Anna,Bruno,Carla,Dario"], obj=env, input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.output
    assert "'mortovivo' is not in the deck played (Anna): one of contadino, guastafeste, lupo-mannaro, truffatore, " \
           "veggente" in result.output
    assert "3 players hold 'contadino' (Anna, Bruno, Carla), but the deck played has 2: check the cards" \
        in result.output  # the third Contadino typed is refused and asked again
    assert "Lynched: Bruno" in result.output


def test_after_the_night_a_card_is_taken_by_a_start_of_its_name_in_the_deck_played():
    clock = FakeClock()
    env = make_env({"LANG": "it_IT.UTF-8"}, clock=clock, sleep=clock.sleep, speaker=lambda: RecordingSpeaker(clock),
                   player=lambda: RecordingPlayer())
    answers = ["", "lupo", "Bruno", "zorro", "contad", "Carla", "vegg", "Bruno", "truff", "Bruno"]
    result = CliRunner().invoke(cli, ["--players", "4", "--day-seconds", "3", "--names", "Anna,Bruno,Carla,Dario"],
                                obj=env, input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.output
    assert ("Errore: nessuna carta 'zorro' qui: una tra Lupo Mannaro, Veggente, Guastafeste, Truffatore, Contadino"
            in result.output)  # the deck played, in the game's language, not every role in the box
    assert "Vincono: Anna." in result.output  # "lupo": Anna held the Lupo Mannaro


def test_names_that_do_not_fit_the_deck_are_refused_before_the_night():
    player = RecordingPlayer()
    env = make_env(player=lambda: player)
    result = CliRunner().invoke(cli, ["--players", "4", "--names", "Anna,Bruno,Carla"], obj=env)
    assert (result.exit_code, result.stderr) == (2, "narrate: the deck is for 4 players and 3 names are given: "
                                                    "name each of the 4\n")
    assert player.nights == []
