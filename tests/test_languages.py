"""Every command speaks one language at a time: the game's, all through.

Each command is run under each language (its help, a normal run and its typical mistakes, the
whole game from night to verdict) and what it prints is searched for words of the other language.
Role ids, the game's title, option names, metavars and quoted values are the same in both
languages and are left out of the search.
"""

import re

import click
import pytest
from click.testing import CliRunner
from conftest import RecordingPlayer, make_env
from test_day import FakeClock, RecordingSpeaker

from narrator.core.i18n import msg
from narrator.shell.cli import cli

LOCALES = {"it": "it_IT.UTF-8", "en": "en_GB.UTF-8"}

# Words only the other language has. Short function words catch a sentence left untranslated;
# the game's nouns catch a table header or a label.
ENGLISH_ONLY = {
    "the", "and", "with", "of", "to", "for", "is", "are", "not", "this", "that", "or", "from", "each", "every",
    "your", "you", "has", "have", "must", "cannot", "players", "player", "cards", "night", "day", "vote", "votes",
    "show", "choose", "give", "error", "usage", "options", "commands", "seconds", "language", "role", "roles",
    "side", "nobody", "winners", "lynched", "order", "print", "help", "exit", "missing", "invalid", "value",
    "line", "lines", "speak", "length", "when", "what", "which", "who", "how", "wrote", "stopped", "pack",
}
ITALIAN_ONLY = {
    "il", "lo", "la", "gli", "le", "di", "del", "della", "dei", "che", "non", "con", "una", "uno", "sono",
    "è", "giocatori", "giocatore", "carte", "carta", "mazzo", "notte", "giorno", "voto", "voti", "mostra",
    "scegli", "errore", "uso", "opzioni", "comandi", "secondi", "lingua", "ruoli", "ruolo", "fazione", "nessuno",
    "vincitori", "ordine", "elenco", "ogni", "esempi", "esempio", "battute", "battuta", "scritto", "fermato",
}
OTHER = {"it": ENGLISH_ONLY, "en": ITALIAN_ONLY}
SAME_IN_BOTH = re.compile(
    r"Una Notte da Lupi|One Night Ultimate Werewolf"  # the games' titles
    r"|'[^'\n]*'|\"[^\"\n]*\""  # quoted values: ids, names, commands
    r"|(?<!\w)--?[a-z][\w-]*"  # option names
    r"|\b[A-Z][A-Z|]{1,}\b"  # metavars
    r"|\b[a-z]+-[a-z-]+\b"  # role ids and other hyphenated ids
    r"|^\s*narrate\b.*$"  # example command lines
    r"|\bnarrate(?: [a-z]+)*"  # a command's name
    r"|\b[a-z]+(?:\.[a-z0-9-]+)+"  # a line's key, such as night.start
    r"|^ {2}[a-z]+(?= {2,}\S)"  # a command's name in a group's list of commands
    r"|\[[a-z|]+\]"  # the values a choice takes
    r"|(?:/|\w:\\)\S*",  # paths
    re.MULTILINE)


def leftovers(text: str, language: str) -> list[str]:
    """The words of the other language in ``text``."""
    words = re.findall(r"[^\W\d_]+", SAME_IN_BOTH.sub(" ", text))
    return sorted({word for word in words if word.lower() in OTHER[language]})


def invoke(language, args, input=None, **env):
    result = CliRunner().invoke(cli, args, obj=make_env({"LANG": LOCALES[language]}, **env), input=input,
                                prog_name="narrate")
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def command_paths(command=cli, path=()):
    yield list(path)
    if isinstance(command, click.Group):
        for name in command.list_commands(None):
            yield from command_paths(command.get_command(None, name), (*path, name))


@pytest.mark.parametrize("language", sorted(LOCALES))
@pytest.mark.parametrize("path", list(command_paths()), ids=lambda path: " ".join(path) or "narrate")
def test_every_help_is_in_one_language(language, path):
    result = invoke(language, [*path, "--help"])
    assert result.exit_code == 0
    assert leftovers(result.output, language) == []
    assert result.output.startswith({"it": "Uso:", "en": "Usage:"}[language])


def test_lang_on_the_line_wins_over_the_locale_even_after_help():
    result = CliRunner().invoke(cli, ["deck", "--help", "--lang", "it"], obj=make_env({"LANG": "en_US.UTF-8"}),
                                prog_name="narrate")
    assert result.output.startswith("Uso: narrate deck [OPZIONI]")
    result = CliRunner().invoke(cli, ["deck", "-len", "-p", "5"], obj=make_env({"LANG": "C.UTF-8"}))
    assert result.output.startswith("Una Notte da Lupi: deck for 5 players")


VOTES_FILE = """\
players:
  - {name: Anna, card: lupo-mannaro, vote: Bruno}
  - {name: Bruno, card: veggente, vote: Anna}
  - {name: Carla, card: mortovivo, vote: Anna}
  - {name: Dario, card: contadino, vote: Anna}
"""

RUNS = {
    "deck": (["deck", "--players", "6"], None),
    "random deck": (["deck", "--players", "8", "--random"], None),
    "roles": (["roles"], None),
    "script": (["script", "--players", "6"], None),
    "votes from a file": (["votes", "{tmp}/partita.yaml"], None),
    "votes asked": (["votes", "--names", "Anna,Bruno,Carla,Dario"],
                    "lupo-mannaro\nBruno\nveggente\nAnna\nmortovivo\nAnna\ncontadino\nAnna\n"),
    "votes remembered": (["votes"], "y\nlupo-mannaro\nBruno\nveggente\nAnna\nmortovivo\nAnna\ncontadino\nAnna\n"),
    "voices list": (["voices", "list"], None),
    "card": (["card", "--players", "5", "-o", "{tmp}/card.pdf"], None),
    "too many players": (["deck", "--players", "11"], None),
    "unknown role": (["deck", "--deck", "veggentee, contadino"], None),
    "seed alone": (["deck", "--players", "5", "--seed", "3"], None),
    "not a number": (["deck", "--players", "x"], None),
    "unknown option": (["deck", "--frobnicate"], None),
    "missing output": (["card", "--players", "6"], None),
    "missing file": (["votes", "{tmp}/nessuno.yaml"], None),
    "count out of range": (["script", "--players", "6", "--count-seconds", "99"], None),
    "bad duration": (["timer", "5x"], None),
    "empty pack name": (["voices", "record", " "], None),
    "bad address": (["serve", "--players", "6", "--host", "999.1.1.1"], None),
    "bad vote": (["votes", "--names", "Anna,Bruno,Carla"], "lupo-mannaro\nZeno\nBruno\n"),
    "input ends": (["votes", "--names", "Anna,Bruno,Carla"], "lupo-mannaro\n"),
    "options before the command": (["--players", "6", "deck"], None),
}


@pytest.mark.parametrize("language", sorted(LOCALES))
@pytest.mark.parametrize("name", sorted(RUNS))
def test_every_run_is_in_one_language(language, name, tmp_path):
    args, answers = RUNS[name]
    (tmp_path / "partita.yaml").write_text(VOTES_FILE, encoding="utf-8")
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "players.json").write_text('["Anna", "Bruno", "Carla", "Dario"]', encoding="utf-8")
    if name == "votes remembered" and language == "it":
        answers = "s" + answers[1:]  # sì
    result = invoke(language, [arg.replace("{tmp}", str(tmp_path)) for arg in args], answers,
                    config_dir=tmp_path / "config")
    assert result.output.strip()
    assert leftovers(result.output, language) == [], result.output


def test_the_checker_finds_the_other_language():
    assert leftovers("Uso: narrate deck [OPZIONI]\n  mostra il mazzo", "it") == []
    assert leftovers("Usage: narrate deck\n  the deck for 'i giocatori'", "it") == ["Usage", "for", "the"]
    assert leftovers("Ordine della notte: Lupi Mannari", "en") == ["Ordine", "della", "notte"]
    assert leftovers("Night order: --players N lupo-mannaro /tmp/la/notte.wav", "en") == []


@pytest.mark.parametrize("language, words", [
    ("it", ["Distribuite le carte", "La notte dura", "Carta di Anna adesso", "Anna ha votato", "Fazione vincente: Umani", "spazio: pausa"]),
    ("en", ["Deal the cards", "The night lasts", "Anna's card now", "Anna voted for", "Winning side: Humans", "space: pause"]),
])
def test_a_whole_game_speaks_one_language(language, words):
    clock = FakeClock()
    answers = ["", "contadino", "Bruno", "lupo-mannaro", "Carla", "veggente", "Bruno", "truffatore", "Bruno"]
    result = invoke(language, ["--players", "4", "--day-seconds", "20", "--no-ambience", "--names",
                               "Anna,Bruno,Carla,Dario"], "".join(a + "\n" for a in answers), clock=clock,
                    sleep=clock.sleep, speaker=lambda: RecordingSpeaker(clock), player=lambda: RecordingPlayer())
    assert result.exit_code == 0, result.output
    assert leftovers(result.output, language) == [], result.output
    for word in words:
        assert word in result.output


@pytest.mark.parametrize("language", sorted(LOCALES))
def test_doctor_is_in_one_language(language, tmp_path):
    result = invoke(language, ["doctor"], speech_engine=None, cache_dir=tmp_path,
                    sound_problem=lambda: msg("PortAudio is missing: on Debian/Ubuntu, sudo apt-get install "
                                              "libportaudio2"), which=lambda program: None)
    assert result.exit_code == 0
    assert leftovers(result.output, language) == [], result.output


class TwoItalianVoices:
    """A text-to-speech engine with one voice more for Italian, one voice in all for another engine."""
    name = "fake"

    def __init__(self, voices=(("it-a", "it"), ("it-b", "it"), ("en-a", "en"))):
        from narrator.shell.audio.tts import Voice

        self._voices = [Voice(voice_id, voice_id, (lang,)) for voice_id, lang in voices]

    def voices(self):
        return self._voices


@pytest.mark.parametrize("language, lines", [
    ("it", ["Sintesi vocale (fake): 3 voci", "  it: it-a (it-a), e un'altra", "  --engine other: 1 voce (en)"]),
    ("en", ["Text-to-speech (fake): 3 voices", "  it: it-a (it-a), and 1 more", "  --engine other: 1 voice (en)"]),
])
def test_doctor_counts_voices_in_good_words(language, lines, tmp_path):
    result = invoke(language, ["doctor"], speech_engine=TwoItalianVoices, cache_dir=tmp_path,
                    speech_engines=lambda: {"fake": TwoItalianVoices,
                                            "other": lambda: TwoItalianVoices((("en-x", "en"),))})
    assert result.exit_code == 0, result.output
    for line in lines:
        assert line in result.output.splitlines(), result.output


def test_a_run_leaves_the_language_as_it_found_it():
    """Two runs in one process, one per language: neither leaks into the other, nor into click."""
    invoke("it", ["deck", "--players", "6"])
    from narrator.shell.translation import active_language

    assert active_language() == "en"
    with pytest.raises(click.UsageError) as caught:
        click.Context(click.Command("x")).fail("boom")
    assert caught.value.format_message() == "boom"
    assert invoke("en", ["deck", "--frobnicate"]).output.startswith("narrate deck: No such option")
