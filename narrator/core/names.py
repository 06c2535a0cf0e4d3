"""Players' names: what counts as one, and a seating list checked against the game."""

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg

MAX_NAME = 24  # characters: enough for "Maria Antonietta" or a nickname, short enough for every table


def player_name(text: str) -> str:
    """One player's name, tidied; refused with the reason when it cannot be one."""
    name = " ".join(text.split())
    if not name:
        raise NarratorError(msg("a player has no name: write each name between the commas"))
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise NarratorError(msg("a name holds bytes that are not text (check the terminal's encoding): "
                                 "type the names again")) from None
    if not name.isprintable():
        raise NarratorError(msg("a name holds control characters: type it with letters, digits and spaces"))
    if len(name) > MAX_NAME:
        raise NarratorError(msg("'{name}…' is longer than {most} characters: shorten it", name=name[:MAX_NAME],
                                 most=MAX_NAME))
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
        raise NarratorError(msg("a game has {least} to {most} players, and this list has more: list each player "
                                 "once, separated by commas", least=least, most=most))
    names = [player_name(entry) for entry in entries if entry.strip()]
    duplicate = repeated(names)
    if duplicate:
        raise NarratorError(msg("two players are called '{name}': give each player a different name",
                                 name=duplicate))
    if exactly is not None and len(names) != exactly:
        raise NarratorError(msg("the deck is for {players} players and {count} names are given: name each of "
                                 "the {players}", players=exactly, count=len(names)))
    if not least <= len(names) <= most:
        raise NarratorError(msg("a game has {least} to {most} players, not {count}: list them separated by commas",
                                 least=least, most=most, count=len(names)))
    return names
