"""scripts/README.md, the guide to writing a game: its two smallest games are games narrate loads and
plays (tests/examples.py reads them from its code blocks), and its tables of keys are the keys the
loader takes, each required where the table says so."""

import re
from pathlib import Path

import pytest
import yaml

from narrator.core.errors import DataError
from narrator.core.game import ALONE_CARD_TEXTS, CARD_TEXTS, SHEET_TEXTS
from narrator.games.loader import NIGHTS_CARD_TEXTS, load_game
from tests.conftest import make_env
from tests.examples import README, example_files, load_examples, write_examples

ONE_NIGHT, MANY_NIGHTS = "short-night", "little-mafia"


def table(section: str, number: int = 0) -> dict[str, str]:
    """The keys in the first column of the ``number``-th table under the heading ``## section``,
    each with its second column."""
    body = README.read_text(encoding="utf-8").split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"((?:^\|.*\n)+)", body, flags=re.M)[number].splitlines()[2:]
    keys = {}
    for row in rows:
        first, second = (cell.strip() for cell in row.strip("|").split(" | ")[:2])
        keys.update(dict.fromkeys(re.findall(r"`([a-z_]+)`", first), second))
    return keys


def changed(tmp_path: Path, game_id: str, file: str, change) -> Path:
    """The example game written in a folder of its own with ``change(data)`` made to one of its YAML files."""
    folder = write_examples(tmp_path) / game_id
    data = yaml.safe_load((folder / file).read_text(encoding="utf-8"))
    change(data)
    (folder / file).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return folder


def refusal(folder) -> str:
    with pytest.raises(DataError) as refused:
        load_game(folder)
    return str(refused.value)


def known_keys(message: str) -> set[str]:
    """The keys a refusal of an unknown one lists."""
    return set(re.search(r"unknown field 'zz' \(known: (.*)\)$", message)[1].split(", "))


def test_the_readme_has_a_smallest_game_of_one_night_and_one_of_many_nights():
    games = load_examples()
    assert set(games) == {ONE_NIGHT, MANY_NIGHTS}
    assert not games[ONE_NIGHT].many_nights and games[ONE_NIGHT].rules is None
    assert games[MANY_NIGHTS].plays_rounds
    assert set(example_files()[MANY_NIGHTS]) == {"game.yaml", "rules.py", "en.yaml"}


def test_the_smallest_games_are_listed_and_narrated_and_a_record_of_many_nights_is_settled(run, tmp_path):
    env = make_env(games_dir=write_examples(tmp_path / "scripts"))
    listed = run("games", "-f", "json", env=env)
    assert [game["id"] for game in yaml.safe_load(listed.stdout)] == sorted([ONE_NIGHT, MANY_NIGHTS])
    for game_id, players in ((ONE_NIGHT, "3"), (MANY_NIGHTS, "5")):
        script = run("--game", game_id, "script", "--players", players, env=env)
        assert script.exit_code == 0, script.stderr
    record = re.search(r"^A game record of it.*?\n```yaml\n(.*?)^```$", README.read_text(encoding="utf-8"),
                       flags=re.M | re.S)[1]
    (tmp_path / "record.yaml").write_text(record, encoding="utf-8")
    settled = run("--game", MANY_NIGHTS, "replay", str(tmp_path / "record.yaml"), env=env)
    assert (settled.exit_code, settled.stderr) == (0, "")
    assert settled.stdout.rstrip().endswith("The mafia win.\nWinners: Anna")


@pytest.mark.parametrize("section, number, file, where", [
    ("game.yaml, key by key", 0, "game.yaml", lambda data: data),
    ("game.yaml, key by key", 1, "game.yaml", lambda data: data["roles"][0]),
    ("A language file, key by key", 0, "en.yaml", lambda data: data),
])
def test_the_tables_list_every_key_the_loader_takes(tmp_path, section, number, file, where):
    folder = changed(tmp_path, ONE_NIGHT, file, lambda data: where(data).update(zz=1))
    assert known_keys(refusal(folder)) == set(table(section, number))


def test_the_card_table_lists_every_key_a_card_may_have(tmp_path):
    keys = table("A language file, key by key", 1)
    assert set(keys) == {*CARD_TEXTS, *NIGHTS_CARD_TEXTS, *ALONE_CARD_TEXTS, *SHEET_TEXTS, "win", "wins", "setup_with"}
    folder = changed(tmp_path, MANY_NIGHTS, "en.yaml", lambda data: data["card"].update(zz=1))
    assert known_keys(refusal(folder)) <= set(keys)
    assert {key for key, when in keys.items() if when == "every game"} == set(CARD_TEXTS)


def test_every_key_marked_required_is_required(tmp_path):
    """Each key the tables mark required, left out of the smallest game of one night, is named as
    missing; so is each card text every game has, and a game of many nights' day."""
    dropped = [("game.yaml", key, lambda data, key=key: data.pop(key))
               for key, need in table("game.yaml, key by key", 0).items() if need == "required"]
    dropped += [("game.yaml", f"roles[0].{key}", lambda data, key=key: data["roles"][0].pop(key))
                for key, need in table("game.yaml, key by key", 1).items() if need == "required"]
    dropped += [("en.yaml", key, lambda data, key=key: data.pop(key))
                for key, need in table("A language file, key by key", 0).items() if need == "required"]
    dropped += [("en.yaml", f"card.{key}", lambda data, key=key: data["card"].pop(key)) for key in CARD_TEXTS]
    assert len(dropped) > 30
    for number, (file, key, change) in enumerate(dropped):
        message = refusal(changed(tmp_path / str(number), ONE_NIGHT, file, change))
        assert f"missing field '{key.rsplit('.', 1)[-1]}'" in message, (key, message)
    assert "missing field 'day'" in refusal(changed(tmp_path / "day", MANY_NIGHTS, "game.yaml",
                                                    lambda data: data.pop("day")))
    for key in NIGHTS_CARD_TEXTS:
        message = refusal(changed(tmp_path / key, MANY_NIGHTS, "en.yaml", lambda data, key=key: data["card"].pop(key)))
        assert f"missing field '{key}'" in message


def test_wins_heads_the_roles_wins_and_is_refused_without_them(tmp_path):
    def card(**texts):
        return lambda data: data["card"].update(texts)

    assert "unknown field 'wins'" in refusal(changed(tmp_path / "a", ONE_NIGHT, "en.yaml", card(wins="Who wins")))
    alone = {"wolf": "Wins alone if lynched."}
    assert "missing field 'wins'" in refusal(changed(tmp_path / "b", ONE_NIGHT, "en.yaml", card(win=alone)))
    game = load_game(changed(tmp_path / "c", ONE_NIGHT, "en.yaml", card(win=alone, wins="Who wins")))
    assert game.languages["en"].card["wins"] == "Who wins" and game.languages["en"].card_wins == alone


def test_the_smallest_games_rules_type_check_against_the_contract(tmp_path):
    """The README's rules.py say their types, as every game's must, and they hold (dev/typecheck.py)."""
    from tests.test_types import typecheck

    result = typecheck(tmp_path, "--games", str(write_examples(tmp_path / "games")), "--games-only")
    assert result.returncode == 0, result.stdout + result.stderr
