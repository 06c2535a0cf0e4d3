"""One Night Ultimate Werewolf as a user meets it: a whole game in each language (night, day,
the vote's questions, winners), the speaker card, and a rendered night with the shipped voices and
no text-to-speech engine. (The speaker box plays a whole game of it in test_speakerbox_laptop.py.)"""

import shutil
import subprocess

import pytest
from click.testing import CliRunner
from conftest import RecordingPlayer, make_env
from test_day import FakeClock, RecordingSpeaker
from test_languages import leftovers
from test_voices import no_engine

from narrator.shell.cli import cli

ONUW = "one-night-ultimate-werewolf"
LOCALES = {"it": "it_IT.UTF-8", "en": "en_GB.UTF-8"}
DECK = "doppelganger, werewolf x2, minion, seer, paranormal-investigator, curator, villager"  # 5 players


def invoke(language, args, answers, **env):
    result = CliRunner().invoke(cli, args, obj=make_env({"LANG": LOCALES[language]}, **env),
                                input="".join(answer + "\n" for answer in answers), prog_name="narrate")
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


@pytest.mark.parametrize("language, words", [
    ("en", ["Doppelgänger", "Ann holds the Doppelgänger: the role copied at night (or none)",
            "Cy holds the Paranormal Investigator: the role seen and taken at night (or none)",
            "The artifact on Dee's card (or none)", "Dead: Cy", "Winning side: Tanner", "Winners: Cy"]),
    ("it", ["Doppelgänger", "Ann ha la carta Doppelgänger: il ruolo copiato di notte (o nessuno)",
            "Cy ha la carta Investigatore del Paranormale: il ruolo visto e preso di notte (o nessuno)",
            "Il manufatto sulla carta di Dee (o nessuno)", "Morti: Cy", "Fazione vincente: Conciatore", "Vincitori: Cy"]),
])
def test_a_whole_game_night_day_vote_and_winners(language, words):
    clock, player = FakeClock(), RecordingPlayer()
    claw = {"en": "claw of the werewolf", "it": "artiglio del lupo mannaro"}[language]
    answers = ["",  # Enter: the cards are dealt
               "doppelganger", "seer", "", "Cy",  # copied the Seer (no "became": not asked); no artifact
               "werewolf", "", "Cy",
               "paranormal-investigator", "tanner", "", "Ann",  # Cy saw the Tanner and became one
               "villager", claw, "Ben",  # Dee is a werewolf by the Claw
               "seer", "", "Cy"]
    result = invoke(language, ["--game", ONUW, "--deck", DECK, "--day-seconds", "20", "--no-ambience",
                               "--names", "Ann,Ben,Cy,Dee,Eve"], answers, clock=clock, sleep=clock.sleep,
                    speaker=lambda: RecordingSpeaker(clock), player=lambda: player)
    assert result.exit_code == 0, result.output
    assert len(player.nights) == 1
    assert leftovers(result.output, language) == [], result.output
    for word in words:
        assert word in result.output, word
    # Cy, a Tanner by the investigator's change, dies with 3 votes; Ben and Dee (the Claw's werewolf)
    # live: no werewolf died, so the village does not win, and a Tanner did, so the werewolves cannot.


def test_the_vote_of_the_whole_game_is_the_rulings():
    """The same table as above, settled from a file: the rulings decide it, not the prompts."""
    from narrator.core.vote import ballots_from_data, resolve_vote
    from narrator.games.loader import load_game
    from tests.conftest import GAMES_DIR

    game = load_game(GAMES_DIR / ONUW)
    ballots, table = ballots_from_data(game, {"players": [
        {"name": "Ann", "card": "doppelganger", "copied": "seer", "vote": "Cy"},
        {"name": "Ben", "card": "werewolf", "vote": "Cy"},
        {"name": "Cy", "card": "paranormal-investigator", "became": "tanner", "vote": "Ann"},
        {"name": "Dee", "card": "villager", "artifact": "clay-of-the-werewolf", "vote": "Ben"},
        {"name": "Eve", "card": "seer", "vote": "Cy"}]}, "votes.yaml")
    result = resolve_vote(game, ballots, table, "en")
    assert (result.lynched, result.winning_sides, result.winners) == (("Cy",), ("tanner",), ("Cy",))


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils (pdftotext)")
# The turns numbered as read (issue 39, point 11): Doppelgänger, Werewolves, Alpha Wolf, Seer, Insomniac, then
# the Doppelgänger-Insomniac, the token's 9a, is the card's 6.
@pytest.mark.parametrize("language, expected", [
    ("en", ["One Night Ultimate Werewolf · Speaker card", "1 Doppelgänger", "6 Doppelgänger-Insomniac",
            "centre werewolf", "Bodyguard: the player it points at cannot die", "Tanner: wins by dying"]),
    ("it", ["One Night Ultimate Werewolf · Tessera dello speaker", "1 Doppelgänger", "6 Doppelgänger-Insonne",
            "lupo di riserva", "Guardia del Corpo: chi indica non può morire", "Conciatore: vince se muore"]),
])
def test_the_speaker_card(run, tmp_path, language, expected):
    path = tmp_path / "card.pdf"
    result = run("--game", ONUW, "card", "--deck", "doppelganger, alpha-wolf, werewolf, seer, insomniac, tanner, "
                 "bodyguard, villager", "--lang", language, "-o", str(path))
    assert result.exit_code == 0, result.stderr
    text = " ".join(subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True,
                                   check=True).stdout.split())
    for words in expected:
        assert words in text, words
    assert "Hunter" not in text and "Cacciatore" not in text  # only the deck's powers...
    assert ("The centre werewolf card lies apart" in text) == (language == "en")  # ...and setup
    assert "shield" not in text and "scudo" not in text and "artifacts lie" not in text


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_shipped_voices_speak_every_night_with_no_engine(run, tmp_path, language):
    deck = ("doppelganger, werewolf, alpha-wolf, mystic-wolf, dream-wolf, minion, sentinel, seer, apprentice-seer, "
            "robber, witch, insomniac, revealer")
    env = make_env(speech_engine=no_engine, cache_dir=tmp_path / "cache")
    path = tmp_path / "night.wav"
    result = run("--game", ONUW, "render", "--deck", deck, "--lang", language, "--no-ambience", "-o", str(path),
                 env=env)
    assert result.exit_code == 0, result.stderr
    assert path.stat().st_size > 48000 * 2 * 60  # minutes of sound, every line from the pack




@pytest.mark.parametrize("curator, answers, expected", [
    ("n", ["werewolf", "Ben", "seer", "Ann", "villager", "Ann"], "Dead: Ann\nWinning side: Village\nWinners: Ben, Cy"),
    ("y", ["werewolf", "", "Ben", "seer", "", "Ann", "villager", "clay of the werewolf", "Ann"],
     "Dead: Ann\nWinning side: Village\nWinners: Ben"),
])
def test_without_a_deck_the_artifacts_are_asked_only_when_the_curator_was_in_it(curator, answers, expected):
    result = invoke("en", ["votes", "--game", ONUW, "--names", "Ann,Ben,Cy"], [curator, *answers])
    assert result.exit_code == 0, result.output
    assert "Was the Curator in the deck? [y/N]" in result.output
    assert ("The artifact on Ann's card" in result.output) == (curator == "y")
    assert expected in result.output
