"""Players' names: the limits the README states, checked at their edges."""

import pytest

from narrator.core.errors import NarratorError
from narrator.core.names import MAX_NAME, player_name, repeated, seating


def test_a_name_of_24_characters_is_taken_and_25_is_refused():
    assert MAX_NAME == 24
    assert player_name("  Maria   Antonietta  ") == "Maria Antonietta"
    assert player_name("x" * 24) == "x" * 24
    with pytest.raises(NarratorError, match=r"'x{24}…' is longer than 24 characters: shorten it"):
        player_name("x" * 25)


@pytest.mark.parametrize("text, message", [("", "a player has no name"), ("An\x1bna", "control characters"),
                                           ("An\udcffna", "bytes that are not text")])
def test_what_cannot_be_a_name(text, message):
    with pytest.raises(NarratorError, match=message):
        player_name(text)


def test_seating_keeps_order_and_refuses_repeats_in_any_case_and_the_wrong_count():
    assert seating("Anna, Bruno ,Carla,", 3, 10) == ["Anna", "Bruno", "Carla"]
    assert repeated(["Anna", "Bruno", "anna"]) == "anna" and repeated(["Anna", "Bruno"]) is None
    with pytest.raises(NarratorError, match="two players are called 'anna'"):
        seating("Anna,Bruno,anna", 3, 10)
    with pytest.raises(NarratorError, match="the deck is for 4 players and 3 names are given"):
        seating("Anna,Bruno,Carla", 3, 10, exactly=4)
    with pytest.raises(NarratorError, match="a game has 3 to 10 players, not 2"):
        seating("Anna,Bruno", 3, 10)
    with pytest.raises(NarratorError, match="this list has more"):
        seating(",".join(f"P{n}" for n in range(11)), 3, 10)
