"""The end of a game of many nights in words, as the laptop says it and ``narrate replay`` prints it."""

from narrator.core.game import Language, end_line
from narrator.shell.translation import _


def ending(language: Language, sides) -> list[str]:
    """The line of the first side that wins, then every other side that wins with it (Wherewolf
    Revised's City and Criminals), by its name in the language (a role that wins alone, by the
    role's): the end line alone would name one winner where there are two."""
    others = [language.sides.get(side) or language.role_name(side) for side in sides[1:]]
    return [language.line(end_line(sides)), *([_("Also winning: {sides}").format(sides=", ".join(others))]
                                               if others else [])]
