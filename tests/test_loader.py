"""The role catalog: loaded once into immutable objects, and loud about malformed data."""

import dataclasses
import re
import shutil

import pytest

from narrator.core.errors import DataError
from narrator.games.loader import available_games, load_game
from tests.conftest import GAME, GAMES_DIR

DIGEST_BOX = {  # id: (copies, side, wakes) from shared/rules/una-notte-da-lupi.md
    "lupo-mannaro": (2, "lupi", 1), "veggente": (1, "umani", 2), "massone": (2, "umani", 3),
    "mitomane": (1, "lupi", 4), "guastafeste": (1, "umani", 5), "apprendista-stregone": (1, "umani", 6),
    "truffatore": (1, "umani", 7), "mortovivo": (1, "umani", None), "contadino": (3, "umani", None),
    "pinguino-mannaro": (1, "solo", None), "criceto-mannaro": (1, "solo", None),
}


def test_catalog_matches_the_digest_box(game):
    assert {r.id: (r.copies, r.side, game.wake_number(r.id)) for r in game.roles} == DIGEST_BOX
    assert sum(r.copies for r in game.roles) == 15
    assert [slot.id for slot in game.night.slots] == [
        "lupo-mannaro", "veggente", "massone", "mitomane", "guastafeste", "apprendista-stregone", "truffatore"]


def test_deck_constraints_are_data(game):
    assert game.role("lupo-mannaro").in_deck == "all-copies"
    assert game.role("massone").in_deck == "all-or-none"
    assert "criceto-mannaro" in game.role("pinguino-mannaro").excludes
    assert (game.centre_cards, game.box_cards, game.extra_cards) == (2, 1, 3)


def test_every_role_has_italian_and_english_names(game):
    assert set(game.languages) == {"it", "en"}
    assert game.languages["it"].roles["lupo-mannaro"].name == "Lupo Mannaro"
    assert game.languages["en"].roles["lupo-mannaro"].name == "Werewolf"
    for language in game.languages.values():
        assert set(language.roles) == set(game.role_ids)


def test_catalog_objects_are_immutable(game):
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.roles[0].copies = 5
    with pytest.raises(TypeError):
        game.recommended_decks[6]["contadino"] = 3
    with pytest.raises(TypeError):
        game.languages["it"].lines["day.start"] = "?"


def test_available_games_lists_the_folder():
    assert GAME in available_games(GAMES_DIR)


def _break(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture text {old!r} not found in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


ONUW = "one-night-ultimate-werewolf"
MALFORMED = (
    (GAME, "game.yaml", "copies: 3", "copies: three", r"game\.yaml: roles\[8\]\.copies: expected a whole number from 1, got 'three'"),
    (GAME, "game.yaml", "side: solo", "side: nobody", r"game\.yaml: roles\[9\]\.side: expected one of lupi, umani, solo"),
    (GAME, "game.yaml", "{id: truffatore, number: 7}", "{id: veggente, number: 7}",
     r"wake\[6\]\.id: expected an id not used by another turn of the night"),
    (GAME, "game.yaml", "{id: truffatore, number: 7}", "{id: truffatore, roles: [ladro], number: 7}",
     r"wake\[6\]\.roles: no role 'ladro'"),
    (GAME, "game.yaml", "{id: truffatore, number: 7}", "{id: truffatore, number: [7]}",
     r"wake\[6\]\.number: expected a number or a short label"),
    (GAME, "game.yaml", "{id: truffatore, number: 7}", "{id: truffatore, number: 7, when: {all: [{deck_has: x}]}}",
     r"wake\[6\]\.when: no role 'x'"),
    (GAME, "game.yaml", "{id: truffatore, number: 7}", "{id: truffatore, number: 7, when: {nor: []}}",
     r"wake\[6\]\.when: unknown field 'nor'"),
    (GAME, "game.yaml", "sides: [lupi, umani, solo]", "sides: [lupi, umani]",
     r"roles\[9\]\.side: expected one of lupi, umani, got 'solo'"),
    (GAME, "game.yaml", "sides: [lupi, umani, solo]", "sides: []", r"game\.yaml: sides: expected a list of the sides"),
    (GAME, "game.yaml", "excludes: [criceto-mannaro]", "excludes: [criceto]", r"roles\[9\]\.excludes: no other role 'criceto'"),
    (GAME, "game.yaml", "  - id: veggente\n", "  - id: Veggente!\n", r"roles\[1\]\.id: expected an id in lower case"),
    (GAME, "game.yaml", "in_deck: all-or-none", "in_deck: pairs", r"roles\[2\]\.in_deck: expected one of any, all-copies"),
    (GAME, "game.yaml", "when: {deck_has: lupo-mannaro}", "when: {deck_has: lupo}", r"game\.yaml: wake\[3\]\.steps\[1\]\.when: no role 'lupo'"),
    (GAME, "game.yaml", "when: {option: nudge}", "when: {option: nudgee}", r"no option 'nudgee'"),
    (GAME, "game.yaml", "6: {lupo-mannaro: 2,", "6: {lupo-mannaro: 1,", r"recommended_decks\.6: the deck must hold all 2 'lupo-mannaro' cards"),
    (GAME, "game.yaml", "3: {lupo-mannaro: 2, veggente: 1,", "3: {lupo-mannaro: 2, veggent: 1,", r"recommended_decks\.3: no role 'veggent'"),
    (GAME, "game.yaml", "  9: {lupo-mannaro: 2, veggente: 1, massone: 2, mitomane: 1, guastafeste: 1, truffatore: 1,\n"
     "      mortovivo: 1, contadino: 2, pinguino-mannaro: 1}\n", "",
     r"game\.yaml: recommended_decks: no deck for 9 players \(one for every count from 3 to 10\)"),
    ("lupus-in-tabula", "game.yaml", "\nday:\n  seconds: 180\n  warnings: [60, 30]\n  countdown: 3\n", "\n",
     r"game\.yaml: missing field 'day' \(a game of many nights has a day after every night\)"),
    (GAME, "game.yaml", "count: {default: 10,", "count: {default: 99,", r"count\.default: expected a whole number from 3 to 30"),
    (GAME, "game.yaml", "title: Una Notte da Lupi", "title: Una Notte da Lupi\nflavour: x", r"game\.yaml: unknown field 'flavour'"),
    (GAME, "it.yaml", "  veggente.close: Veggente, chiudi gli occhi.\n", "", r"it\.yaml: lines: missing line 'veggente\.close'"),
    (GAME, "en.yaml", "  day.start:", "  day.strat:", r"en\.yaml: lines: missing line 'day\.start'"),
    (GAME, "en.yaml", "    name: Seer\n", "", r"en\.yaml: roles\.veggente: missing field 'name'"),
    (GAME, "it.yaml", "Ventinove, Trenta]", "Ventinove]", r"it\.yaml: count: expected a list of the words for 1 to 30"),
    (GAME, "it.yaml", "sides:\n  lupi: Lupi", "sides:\n  lupi: ''", r"it\.yaml: sides\.lupi: expected some text"),
    (GAME, "game.yaml", "    passes_votes_at: 2", "    passes_votes_at: two", r"roles\[7\]\.passes_votes_at: expected a whole number"),
    (GAME, "game.yaml", "    wins_alone: lynched-alone", "    wins_alone: always", r"roles\[9\]\.wins_alone: expected one of lynched-alone"),
    (GAME, "game.yaml", "    wolf: true", "    wolf: true\n    howls: true", r"roles\[0\]: unknown field 'howls'"),
    (GAME, "en.yaml", "  no_winners:", "  no_winner:", r"en\.yaml: vote: unknown field 'no_winner'"),
    (GAME, "it.yaml", "  vote_sides:", "  vote_side:", r"it\.yaml: card: unknown field 'vote_side'"),
    (GAME, "rules.py", "def resolve(", "def settle(", r"rules\.py: no 'resolve' \(a rules module provides"),
    (GAME, "rules.py", "def questions(game: Game)", "def questions(game)",
     r"rules\.py: questions\(\) does not say the type of 'game' \(the contract's: narrator\.core\.game\.Game\)"),
    (GAME, "rules.py", "say: Sentences) -> VoteResult:", "say: Sentences):",
     r"rules\.py: resolve\(\) does not say the type it returns \(the contract's: narrator\.core\.vote\.VoteResult\)"),
    (GAME, "rules.py", "HUMANS, WOLVES =", "HUMANS, WOLVES = (", r"rules\.py: cannot run it \(SyntaxError: "),
    (GAME, "rules.py", '"passes_votes_at": "count"', '"passes_votes_at": "number"', r"ROLE_FIELDS\['passes_votes_at'\]: 'flag', 'count'"),
    (ONUW, "game.yaml", "sets_apart: {count: 1, from: [werewolf, mystic-wolf, dream-wolf]}",
     "sets_apart: {count: 1, from: [werewolf, grey-wolf]}", r"roles\[13\]\.sets_apart\.from: no role 'grey-wolf'"),
    (ONUW, "game.yaml", "sets_apart: {count: 1, from:", "sets_apart: {count: 0, from:",
     r"roles\[13\]\.sets_apart\.count: expected a whole number from 1"),
    (ONUW, "game.yaml", "needs_side: werewolf", "needs_side: vampire", r"game\.yaml: needs_side: expected one of werewolf"),
    (ONUW, "game.yaml", "      - {count: true, when: {deck_has: minion}}", "      - {count: yes, when: {deck_has: minyon}}",
     r"wake\[1\]\.steps\[18\]\.when: no role 'minyon'"),
    (ONUW, "game.yaml", "      - {count: true, when: {deck_has: minion}}", "      - {count: false}",
     r"steps\[18\]\.count: expected true \(a count\)"),
    (ONUW, "game.yaml", "    roles: [werewolf, alpha-wolf", "    roles: [were-wolf, alpha-wolf", r"wake\[2\]\.roles: no role 'were-wolf'"),
    (ONUW, "en.yaml", "  mask-of-muting: Mask of Muting\n", "", r"en\.yaml: tokens: missing field 'mask-of-muting'"),
    (ONUW, "it.yaml", "  doppelganger-curator:\n    name:", "  doppelganger-curatore:\n    name:",
     r"it\.yaml: slots\.doppelganger-curatore: no turn 'doppelganger-curatore'"),
    (ONUW, "en.yaml", "apart: centre werewolf", "# apart: centre werewolf", r"en\.yaml: missing field 'apart'"),
    (ONUW, "game.yaml", "side: village, copies_a_role: true", "side: village, copies_a_role: maybe",
     r"roles\[0\]\.copies_a_role: expected true or false"),
    (ONUW, "game.yaml", "true, plays_if_nothing_copied: villager", "true, plays_if_nothing_copied: peasant",
     r"game\.yaml: roles\[0\]\.plays_if_nothing_copied: no role 'peasant'"),
    (ONUW, "game.yaml", "{id: cudgel-of-the-tanner, makes: tanner}", "{id: cudgel-of-the-tanner, makes: tannr}",
     r"game\.yaml: tokens\[2\]\.makes: no role 'tannr'"),
    (ONUW, "game.yaml", "{id: cudgel-of-the-tanner, makes: tanner}", "{id: cudgel-of-the-tanner, breaks: tanner}",
     r"tokens\[2\]: unknown field 'breaks'"),
)


@pytest.mark.parametrize("game_id, file, old, new, message", MALFORMED)
def test_malformed_game_fails_naming_file_and_field(tmp_path, game_id, file, old, new, message):
    folder = tmp_path / game_id
    shutil.copytree(GAMES_DIR / game_id, folder)
    _break(folder / file, old, new)
    with pytest.raises(DataError, match=message):
        load_game(folder)


def test_a_game_without_rules_loads_and_its_roles_take_no_vote_fields(game_copy):
    (game_copy / "rules.py").unlink()
    with pytest.raises(DataError, match=r"roles\[0\]: unknown field 'wolf'"):  # only the rules module reads them
        load_game(game_copy)


def test_rules_modules_of_two_folders_do_not_mix(game_copy, tmp_path):
    other = tmp_path / "altro"
    shutil.copytree(game_copy, other)
    _break(other / "rules.py", 'HUMANS, WOLVES = "umani", "lupi"', 'HUMANS, WOLVES = "lupi", "umani"')
    assert load_game(game_copy).rules is not load_game(other).rules
    assert load_game(other).rules.HUMANS == "lupi" and load_game(game_copy).rules.HUMANS == "umani"


def test_extra_line_in_a_language_is_reported_as_a_typo(game_copy):
    path = game_copy / "en.yaml"
    text = path.read_text(encoding="utf-8").replace("\nlines:\n", "\nlines:\n  veggente.opne: Seer, wake up.\n", 1)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=r"en\.yaml: lines: 'veggente\.opne' is not a line"):
        load_game(game_copy)


def test_yaml_syntax_error_names_file_and_line(game_copy):
    path = game_copy / "game.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[11] = "  - id: [broken"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=re.escape(f"{path}, line 1") + r"\d: malformed YAML"):
        load_game(game_copy)


def test_missing_game_file(tmp_path):
    with pytest.raises(DataError, match="game.yaml: no such file"):
        load_game(tmp_path)
