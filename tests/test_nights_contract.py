"""The contract of a game of many nights (narrator.core.nights): a rules.py that breaks it is one
clear error naming the file, when the game loads or at the first use of a name it never declared
(a typo must never mean that nobody ever acts)."""

import random
import shutil

import pytest
from test_rounds import dealt, play_to_the_end, setup_of

from narrator.core.errors import DataError
from narrator.core.rounds import notes_for
from narrator.core.state import RulesError
from narrator.core.vote import Sentences
from narrator.games import GAMES_DIR
from narrator.games.loader import load_game


def lupus_with(tmp_path, old: str, new: str, game_id="lupus-in-tabula"):
    """A copy of a shipped game whose rules.py has ``old`` replaced by ``new``."""
    folder = tmp_path / game_id
    shutil.copytree(GAMES_DIR / game_id, folder)
    rules = folder / "rules.py"
    text = rules.read_text(encoding="utf-8")
    assert old in text
    rules.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


@pytest.mark.parametrize("old, new, error", [
    ("def dusk(", "def dusk_(", r"no function 'dusk\(game, state, lynched, acts\)'"),
    ("def dawn(game: Game, state: State, tonight:", "def dawn(game: Game, state: State, tonite:",
     r"dawn\(\) takes 'tonite', which is none of its parameters \(game, state, tonight\)"),
    ("def dawn(game: Game, state: State, tonight:", "def dawn(game: Game, state: State, *tonight:",
     r"dawn\(\) takes 'tonight', which is none"),
    ("def dawn(game: Game, state: State, tonight: Mapping[str, Any])", "def dawn(game: Game, state: State, tonight)",
     r"dawn\(\) does not say the type of 'tonight' \(the contract's: Mapping\[str, Any\]\)"),
    ("tonight: Mapping[str, Any]) -> Dawn:", "tonight: Mapping[str, Any]):",
     r"dawn\(\) does not say the type it returns \(the contract's: Dawn\)"),
    ("def read_day(game: Game,", "def read_day(game,", r"read_day\(\) does not say the type of 'game' \(the contract's: Game\)"),
    ('NIGHT_KEYS = {"medium": "told"', 'NIGHT_KEYS = {"medium": "nod"', "NIGHT_KEYS\\['medium'\\]: 'nod' is not a kind"),
    ('NIGHT_KEYS = {"medium"', 'NIGHT_KEYZ = {"medium"', "no 'NIGHT_KEYS'"),
    ('ENDS = (HUMANS, WOLVES, "criceto-mannaro")', 'ENDS = (HUMANS, WOLVES, "criceto")',
     "ENDS: 'criceto' is neither a side nor a role"),
    ('ANSWERS = {"veggente": ("wolf", "not-wolf")', 'ANSWERS = {"seer": ("wolf", "not-wolf")',
     "ANSWERS\\['seer'\\]: a night key"),
])
def test_a_rules_module_that_breaks_the_contract_does_not_load(tmp_path, old, new, error):
    folder = lupus_with(tmp_path, old, new)
    with pytest.raises(DataError, match=error) as caught:
        load_game(folder)
    assert str(folder / "rules.py") in str(caught.value)


def play(game, players=12, seed=1):
    rng = random.Random(seed)
    return play_to_the_end(game, setup_of(game, dealt(game, players, rng), quiet_first_night=False), rng)


def test_a_key_the_rules_never_declared_is_an_error_at_its_first_use(tmp_path):
    """Lupus's dawn reading 'victm' instead of the lupi's key: the first dawn says so, naming the file."""
    folder = lupus_with(tmp_path, 'victim=tonight.get("lupo-mannaro")', 'victim=tonight.get("victm")')
    game = load_game(folder)
    with pytest.raises(RulesError, match="rules.py: reads 'victm', which is none of its keys"):
        play(game)


def test_an_ask_of_a_kind_its_keys_do_not_declare_is_an_error(tmp_path):
    folder = lupus_with(tmp_path, 'return Ask(turn, "player", choosers,', 'return Ask(turn, "players", choosers,')
    game = load_game(folder)
    with pytest.raises(RulesError, match="ask\\(\\) asks 'veggente' as players, which its keys do not declare"):
        play(game)


def test_a_votes_file_of_one_day_is_all_three_functions_or_none(tmp_path):
    folder = lupus_with(tmp_path, "def day_as_dict(", "def day_as_dict_(")
    with pytest.raises(DataError, match="a votes file of one day needs all of read_day, settle_votes, explain_votes, day_as_dict"):
        load_game(folder)


def test_an_end_with_no_side_is_for_rules_that_say_it_may_come(tmp_path):
    """game_over() naming no side is a plugin's mistake unless its rules declare END_WITHOUT_SIDE
    (Wherewolf in Tabula's: only the cursed are left); then the game ends and no side wins."""
    ending = "def game_over(game: Game, state: State) -> Any:\n    return (), ()\n\n\ndef game_over_("
    game = load_game(lupus_with(tmp_path, "def game_over(", ending))
    with pytest.raises(RulesError, match="game_over\\(\\) named no side, and END_WITHOUT_SIDE is not true"):
        play(game)
    declared = lupus_with(tmp_path / "declared", "def game_over(", "END_WITHOUT_SIDE = True\n\n\n" + ending)
    with pytest.raises(DataError, match="end.none"):  # its languages must then say it
        load_game(declared)
    for language in ("it", "en"):
        path = declared / f"{language}.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace(
            "  dawn.nobody:", "  end.none: Nobody wins.\n  dawn.nobody:", 1), encoding="utf-8")
    over = play(load_game(declared)).step
    assert over.sides == () and over.winners == ()


def with_rules_added(tmp_path, added: str):
    """A copy of Lupus in Tabula whose rules.py ends with ``added`` (a later definition wins)."""
    folder = tmp_path / "lupus-in-tabula"
    shutil.copytree(GAMES_DIR / "lupus-in-tabula", folder)
    rules = folder / "rules.py"
    rules.write_text(rules.read_text(encoding="utf-8") + "\n\n" + added, encoding="utf-8")
    return folder


def test_notes_for_the_moderator_are_optional_and_checked_when_the_game_loads(tmp_path):
    """A game need not tell its moderator anything beyond the cards; when its rules do (``notes``),
    the function takes some of (game, state, say, tonight) and nothing else, or the game does not
    load, and gives sentences."""
    folder = with_rules_added(tmp_path, "def notes(game: Game, state: State, words: Sentences) -> list[str]:\n"
                                        "    return []\n")
    with pytest.raises(DataError, match=r"notes\(\) takes 'words', which is none of its parameters \(game, state, "
                                        r"say, tonight\)") as caught:
        load_game(folder)
    assert str(folder / "rules.py") in str(caught.value)
    with pytest.raises(DataError, match=r"no function 'notes\(game, state, say, tonight\)'"):
        load_game(with_rules_added(tmp_path / "value", "notes = ['not a function']\n"))

    without = load_game(with_rules_added(tmp_path / "none", "globals().pop('notes', None)\n"))
    state = play(without).step.state
    assert notes_for(without, state, Sentences(without.languages["en"])) == ()
    told = load_game(with_rules_added(tmp_path / "told", "def notes(game: Game, state: State, say: Sentences) -> "
                                      "list[str]:\n    return [say('and') + ' ' + name for name in state.dead[:2]]\n"))
    assert notes_for(told, state, Sentences(told.languages["en"])) == tuple(f"and {name}" for name in state.dead[:2])
    wrong = load_game(with_rules_added(tmp_path / "wrong", "def notes(game: Any, state: Any, say: Any) -> Any:\n"
                                       "    return [1]\n"))
    with pytest.raises(RulesError, match="notes\\(\\) gave something other than sentences"):
        notes_for(wrong, state, Sentences(wrong.languages["en"]))
    with pytest.raises(RulesError, match="notes\\(\\) gave str, not a list or tuple"):
        notes_for(load_game(with_rules_added(tmp_path / "one", "def notes(game: Any, state: Any, say: Any) -> Any:\n"
                                                                "    return 'x'\n")),
                  state, Sentences(wrong.languages["en"]))


def test_a_hook_takes_the_parameters_it_needs_by_name_in_any_order(tmp_path):
    """pluggy's way: Lupus's dawn and answer with their parameters in another order, and its start
    without the game it does not use, play the same game: each is handed what it names."""
    original = load_game(GAMES_DIR / "lupus-in-tabula")
    folder = lupus_with(tmp_path, "def dawn(game: Game, state: State, tonight: Mapping[str, Any])",
                        "def dawn(tonight: Mapping[str, Any], state: State, game: Game)")
    rules = folder / "rules.py"
    text = rules.read_text(encoding="utf-8")
    assert "def answer(game: Game, state: State, ask: Ask, value: Any, tonight: Mapping[str, Any])" in text
    assert "def start(game: Game, state: State)" in text
    rules.write_text(text.replace("def answer(game: Game, state: State, ask: Ask, value: Any, tonight: Mapping[str, Any])",
                                  "def answer(ask: Ask, value: Any, state: State, tonight: Mapping[str, Any], game: Game)").replace(
        "def start(game: Game, state: State)", "def start(state: State)"), encoding="utf-8")
    reordered = load_game(folder)
    assert play(reordered).entries == play(original).entries


def test_a_game_leaves_out_the_hooks_and_names_it_has_no_use_for():
    """Each left-out hook answers as a game without that feature would."""
    import types

    from narrator.core.nights import bind
    from narrator.core.state import State

    module = types.ModuleType("tiny")
    module.__dict__.update(ENDS=("village",), NIGHT_KEYS={}, VOTE_KEYS={}, END_AFTER=("dawn",))
    def nothing() -> None:
        return None

    for name in ("ask", "dawn", "day", "dusk", "game_over", "announce", "explain_day"):
        setattr(module, name, nothing)
    rules = bind(module, "tiny/rules.py")
    state = State(1, ("Anna", "Bruno"), {}, {}, None)
    assert rules.start(None, state) is state
    assert dict(rules.places(None, state, {})) == {} and rules.calls(None, state, "seer") is True
    assert rules.answer(None, state, None, "x", {}) is None and rules.day_asks(None, state, None, {}) == ()
    assert rules.notes(None, state, None) == () and rules.card_back(None, None, None) == ()
    assert (dict(rules.ROLE_FIELDS), rules.SENTENCES, rules.CARD_TEXTS, dict(rules.DAY_KEYS), dict(rules.ANSWERS)) \
        == ({}, (), (), {}, {})
    with pytest.raises(DataError, match="tiny/rules.py: no function 'dawn"):
        del module.dawn
        bind(module, "tiny/rules.py")


def test_a_day_that_is_no_procedure_is_an_error_naming_the_file(tmp_path):
    """The loop takes only what speaks the procedure's protocol (narrator.core.procedures.Procedure)."""
    game = load_game(with_rules_added(tmp_path, "def day(game: Any, state: Any) -> Any:\n    return ('Anna', 'Bruno')\n"))
    with pytest.raises(RulesError, match=r"rules.py: day\(\) gave tuple, not a Procedure"):
        play(game)


def test_a_question_for_no_key_the_rules_declare_does_not_load(tmp_path):
    """'ask_sindco' would never be asked: a misspelt question is refused when the game loads."""
    folder = lupus_with(tmp_path, '"ask_sindaco", ', '"ask_sindco", ', game_id="learts-variant")
    for language in ("it", "en"):
        path = folder / f"{language}.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace("  ask_sindaco:", "  ask_sindco:"), encoding="utf-8")
    with pytest.raises(DataError, match="SENTENCES: 'ask_sindco' asks for none of the night's or the day's keys"):
        load_game(folder)


@pytest.mark.parametrize("kinds, error", [
    ("[]", "ENTRY_KINDS: a mapping"),
    ("{'pair': 'player'}", r"ENTRY_KINDS\['pair'\]: an instance of a narrator.core.kinds.Kind subclass"),
    ("{'player': __import__('narrator.core.kinds').core.kinds.Player()}", r"ENTRY_KINDS\['player'\]: .*no stock kind"),
])
def test_kinds_of_a_game_s_own_are_checked_when_it_loads(tmp_path, kinds, error):
    folder = lupus_with(tmp_path, "END_AFTER = (", f"ENTRY_KINDS = {kinds}\nEND_AFTER = (")
    with pytest.raises(DataError, match=error):
        load_game(folder)


def test_a_reason_of_death_without_its_sentence_is_the_rules_error_where_it_is_given(tmp_path):
    """The dawn that gives reason 'eatn' is refused naming the file, not a KeyError when it is said."""
    game = load_game(lupus_with(tmp_path, 'reasons.append(("eaten", victim))', 'reasons.append(("eatn", victim))'))
    with pytest.raises(RulesError, match="rules.py: dawn\\(\\) gives the reason 'eatn', but SENTENCES has no "
                                         "'reason_eatn'"):
        play(game)


def test_a_sentence_of_the_vote_the_rules_never_declared_is_their_error_at_the_step(tmp_path):
    game = load_game(lupus_with(tmp_path, 'said("round_nomination",', 'said("round_nominaton",'))
    with pytest.raises(RulesError, match="rules.py: day\\(\\).run says 'round_nominaton', which is none of its "
                                         "SENTENCES"):
        play(game)


def test_a_sentence_no_language_has_is_one_clear_error():
    game = load_game(GAMES_DIR / "lupus-in-tabula")
    with pytest.raises(DataError, match="en.yaml: vote: no sentence 'reason_nothing'"):
        Sentences(game.languages["en"])("reason_nothing", name="Anna")
