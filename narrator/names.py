"""Players' names: what counts as one, and a seating list checked against the game."""

from narrator.errors import NarratorError

MAX_NAME = 24  # characters: enough for "Maria Antonietta" or a nickname, short enough for every table


def player_name(text: str) -> str:
    """One player's name, tidied; refused with the reason when it cannot be one."""
    name = " ".join(text.split())
    if not name:
        raise NarratorError("a player has no name: write each name between the commas")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise NarratorError("a name holds bytes that are not text (check the terminal's encoding): "
                            "type the names again") from None
    if not name.isprintable():
        raise NarratorError("a name holds control characters: type it with letters, digits and spaces")
    if len(name) > MAX_NAME:
        raise NarratorError(f"'{name[:MAX_NAME]}…' is longer than {MAX_NAME} characters: shorten it")
    return name


def repeated(names: list[str]) -> str | None:
    """The first name given twice (in any case), or None: each player needs a name of their own."""
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            return name
        seen.add(name.casefold())
    return None


def seating(text: str, least: int, most: int, exactly: int | None = None) -> list[str]:
    """``"Anna, Bruno, Carla"`` → the names in seating order, checked: no repeats, the right count."""
    entries = text.split(",", most + 1)  # never more than one past the most a game can seat
    if len(entries) > most:
        raise NarratorError(f"a game has {least} to {most} players, and this list has more: "
                            "list each player once, separated by commas")
    names = [player_name(entry) for entry in entries if entry.strip()]
    duplicate = repeated(names)
    if duplicate:
        raise NarratorError(f"two players are called '{duplicate}': give each player a different name")
    if exactly is not None and len(names) != exactly:
        raise NarratorError(f"the deck is for {exactly} players and {len(names)} names are given: "
                            f"name each of the {exactly}")
    if not least <= len(names) <= most:
        raise NarratorError(f"a game has {least} to {most} players, not {len(names)}: list them separated by commas")
    return names
