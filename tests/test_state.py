"""What a moderator may enter for an ask (narrator.core.state.Ask.check), kind by kind, and the
state's own values: immutable, serialisable."""

import json

import pytest

from narrator.core.state import Ask, State

NAMES = ("Anna", "Bruno", "Carla")


@pytest.mark.parametrize("ask, good, bad", [
    (Ask("k", "player", ("Anna",), NAMES), ["Bruno", None], [["Bruno"], "Zoe", 3]),
    (Ask("k", "player", ("Anna",), NAMES, required=True), ["Bruno"], [None]),
    (Ask("k", "players", ("Anna",), NAMES, most=2), [["Anna", "Bruno"], None], [[], ["Anna", "Anna"],
                                                                                 ["Anna", "Bruno", "Carla"], "Anna"]),
    (Ask("k", "players", ("Anna",), NAMES, required=True, most=2, least=2), [["Anna", "Bruno"]],
     [None, ["Anna"], ["Anna", "Bruno", "Carla"]]),
    (Ask("k", "each", ("Anna", "Bruno"), NAMES), [{"Anna": "Carla"}, None], [{}, {"Zoe": "Carla"}, {"Anna": "Zoe"},
                                                                              ["Carla"]]),
    (Ask("k", "each", ("Anna", "Bruno"), NAMES, required=True), [{"Anna": "Carla", "Bruno": "Carla"}],
     [{"Anna": "Carla"}]),
    (Ask("k", "yes-no", ("Anna",)), [True, False, None], ["yes", 1]),
    (Ask("k", "choice", ("Anna",), choices=("open", "closed")), ["open", None], ["shut", ["open"]]),
    (Ask("k", "told", ("Anna",), about="Bruno"), [None], ["Bruno"]),
])
def test_an_ask_takes_what_its_kind_says_and_nothing_else(ask, good, bad):
    assert [ask.check(value) for value in good] == [None] * len(good)
    assert all(ask.check(value) is not None for value in bad), [value for value in bad if ask.check(value) is None]


def test_the_games_own_values_are_frozen_and_plain():
    state = State(1, NAMES, {"x": 3}, {"o": True}).kept(lovers=["Anna", "Bruno"], spent={"mayor": False})
    assert state.own["lovers"] == ("Anna", "Bruno")
    with pytest.raises(TypeError):
        state.own["spent"]["mayor"] = True
    assert json.loads(json.dumps(state.as_dict()))["own"] == {"lovers": ["Anna", "Bruno"], "spent": {"mayor": False}}
    assert state.died(["Bruno"]).revived(["Bruno"]).living == NAMES
