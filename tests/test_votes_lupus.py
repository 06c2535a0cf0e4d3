"""'narrate votes' for Lupus in Tabula: a day's two rounds from a votes file (the issue's format)."""

import json

import pytest

from tests.conftest import make_env

EXAMPLE = """game: lupus-in-tabula
seating: [Andrea, Bruno, Carla, Daniela, Elena, Francesco, Gianni, Roberta, Sara]   # clockwise
ghosts: [Sara]
benvenuto: Francesco
gufato: null
sword: null
shield: null
nomination: {Andrea: Daniela, Bruno: Andrea, Carla: Roberta, Daniela: Andrea, Elena: Roberta,
             Francesco: Andrea, Gianni: Daniela, Roberta: Bruno, Sara: Carla}
ballot: {Bruno: Andrea, Carla: Daniela, Elena: Daniela, Francesco: Andrea, Gianni: Daniela, Roberta: Daniela}
"""


@pytest.fixture
def votes_file(tmp_path):
    def write(text=EXAMPLE):
        path = tmp_path / "giorno.yaml"
        path.write_text(text, encoding="utf-8")
        return path

    return write


def test_the_rulebooks_example_settles_from_the_file(run, votes_file):
    result = run("votes", str(votes_file()), "--lang", "it")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        "Voti per gli indiziati: Andrea 3, Bruno 1, Carla 1, Daniela 2, Roberta 2.\n"
        "Pareggio: passa chi è più vicino, in senso orario, a Francesco, che ha il Benvenuto.\n"
        "Indiziati: Andrea e Daniela.\n"
        "Ballottaggio: Andrea 2, Daniela 4.\n"
        "Il linciaggio tocca a Daniela.\n")


def test_json_for_programs(run, votes_file):
    result = run("votes", str(votes_file()), "--json", "--lang", "en")
    data = json.loads(result.stdout)
    assert data["nomination"] == {"Andrea": 3, "Bruno": 1, "Carla": 1, "Daniela": 2, "Elena": 0, "Francesco": 0,
                                  "Gianni": 0, "Roberta": 2}
    assert data["indiziati"] == ["Andrea", "Daniela"]
    assert data["ballot"] == {"Andrea": 2, "Daniela": 4}
    assert data["lynched"] == "Daniela"
    assert data["explanation"][-1] == "Daniela is lynched."


def test_the_game_can_come_from_the_command_line(run, votes_file):
    path = votes_file(EXAMPLE.replace("game: lupus-in-tabula\n", ""))
    result = run("--game", "lupus-in-tabula", "votes", str(path), "--lang", "en")
    assert result.exit_code == 0 and result.stdout.endswith("Daniela is lynched.\n")


def test_the_gufato_is_explained(run, votes_file):
    text = EXAMPLE.replace("gufato: null", "gufato: Gianni").replace(
        "ballot: {Bruno: Andrea, Carla: Daniela, Elena: Daniela, Francesco: Andrea, Gianni: Daniela, Roberta: Daniela}",
        "ballot: {Bruno: Gianni, Carla: Gianni, Daniela: Gianni, Elena: Andrea, Francesco: Andrea, Roberta: Gianni}")
    result = run("votes", str(votes_file(text)), "--lang", "en")
    assert result.exit_code == 0, result.stderr
    assert "Gianni was marked by the Owl: a suspect whatever the votes." in result.stdout
    assert "Suspects: Andrea and Gianni." in result.stdout and result.stdout.endswith("Gianni is lynched.\n")


@pytest.mark.parametrize("change, message", [
    ({"ballot: {Bruno: Andrea": "ballot: {Sara: Andrea, Bruno: Andrea"},
     "ballot: Sara is dead: the dead vote in the nomination only"),
    ({"Andrea: Daniela, Bruno: Andrea": "Andrea: Sara, Bruno: Andrea"},
     "nomination: Andrea votes for Sara, who is dead: votes go to living players"),
    ({"Gianni: Daniela, Roberta: Daniela}": "Gianni: Roberta, Roberta: Daniela}"},
     "ballot: Gianni votes for Roberta, who is not a suspect: choose Andrea / Daniela"),
    ({"Roberta: Bruno, Sara: Carla": "Roberta: Bruno, Sara: Carla, Zeno: Andrea"},
     "nomination: nobody called 'Zeno' sits at the table: use the names of seating"),
    ({"benvenuto: Francesco": "benvenuto: Zeno"},
     "benvenuto: nobody called 'Zeno' sits at the table: use the names of seating"),
    ({"ghosts: [Sara]": "ghosts: Sara"}, "{file}: ghosts: a list of names"),
    ({"sword: null": "swords: null"}, "{file}: 'swords' is not a field of a day's votes: seating, ghosts, benvenuto, "
                                      "gufato, sword, shield, nomination, ballot"),
    ({"nomination: {": "nomination: [", "Sara: Carla}": "Sara: Carla]"}, "{file}: nomination: voter: voted, one a line"),
])
def test_an_impossible_day_is_one_line(run, votes_file, change, message):
    text = EXAMPLE
    for old, new in change.items():
        assert old in text
        text = text.replace(old, new)
    path = votes_file(text)
    result = run("votes", str(path), "--lang", "en")
    assert (result.exit_code, result.stderr) == (2, f"narrate: {message.format(file=path)}\n")


def test_without_a_file_the_day_vote_says_how_to_give_it(run):
    result = run("--game", "lupus-in-tabula", "votes", env=make_env())
    assert (result.exit_code, result.stderr) == (
        2, "narrate: Lupus in Tabula votes in two rounds each day: give the day's votes in a file, narrate votes FILE "
           "(the README shows one)\n")


def test_the_moderators_card_explains_the_vote(run, tmp_path):
    import shutil
    import subprocess

    if not shutil.which("pdftotext"):
        pytest.skip("needs poppler-utils (pdftotext)")
    def card(players):
        path = tmp_path / f"card-{players}.pdf"
        assert run("--game", "lupus-in-tabula", "card", "--players", str(players), "--lang", "en", "-o",
                   str(path)).exit_code == 0
        return " ".join(subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True).stdout.split())

    text = card(16)
    assert "The vote" in text and "Every tie goes to the player closer, clockwise" in text
    assert "At most 3 minutes of talk" in text  # the game's own day
    assert "The Humans win when every werewolf is dead" in text
    assert "Characters that change the ending" in text and "it alone wins" in text  # the Werehamster
    assert "The Owl's mark" in text
    small = card(8)  # no Owl, nobody who changes the ending
    assert "The Owl's mark" not in small and "Characters that change the ending" not in small
