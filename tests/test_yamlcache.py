"""The game's YAML files kept parsed between runs: the same data as parsing, never stale, never trusted blindly."""

import pytest

from narrator.core.errors import DataError
from narrator.games import yamlfile
from narrator.games.yamlfile import read_yaml
from narrator.shell.yamlcache import parsed_yaml_kept


def test_a_file_read_again_comes_from_the_cache_as_it_was_parsed(tmp_path, monkeypatch):
    game = tmp_path / "game.yaml"
    game.write_text("players: {min: 3, max: 10}\nnames: [Anna, 'yes', yes]\nratio: 0.5\n", encoding="utf-8")
    with parsed_yaml_kept(tmp_path / "cache"):
        first = read_yaml(game)
        assert len(list((tmp_path / "cache" / "yaml").iterdir())) == 1
        monkeypatch.setattr(yamlfile, "_parsed", lambda *args: pytest.fail("parsed again"))
        assert read_yaml(game) == first == {"players": {"min": 3, "max": 10}, "names": ["Anna", "yes", True],
                                            "ratio": 0.5}
    assert yamlfile._store is None  # only while a run lasts


def test_a_changed_file_a_damaged_entry_and_plain_text_are_parsed_afresh(tmp_path):
    game = tmp_path / "game.yaml"
    game.write_text("answer: yes\n", encoding="utf-8")
    with parsed_yaml_kept(tmp_path / "cache"):
        assert read_yaml(game) == {"answer": True}
        assert read_yaml(game, plain_text_scalars=True) == {"answer": "yes"}  # kept apart
        game.write_text("answer: no\n", encoding="utf-8")
        assert read_yaml(game) == {"answer": False}
        for entry in (tmp_path / "cache" / "yaml").iterdir():
            entry.write_bytes(b"\xff damaged")
        assert read_yaml(game) == {"answer": False}


def test_a_broken_file_is_never_kept_and_a_date_is_read_each_time(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: [1, 2\n", encoding="utf-8")
    dated = tmp_path / "deck.yaml"
    dated.write_text("when: 2026-11-24\n", encoding="utf-8")
    with parsed_yaml_kept(tmp_path / "cache"):
        for _ in range(2):
            with pytest.raises(DataError, match="malformed YAML"):
                read_yaml(broken)
            assert str(read_yaml(dated)["when"]) == "2026-11-24"
    assert not (tmp_path / "cache" / "yaml").exists()  # nothing to keep: neither can be


def test_a_cache_that_cannot_be_written_costs_nothing_but_time(tmp_path):
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the folder would be")
    game = tmp_path / "game.yaml"
    game.write_text("id: x\n", encoding="utf-8")
    with parsed_yaml_kept(blocked):
        assert read_yaml(game) == read_yaml(game) == {"id": "x"}
