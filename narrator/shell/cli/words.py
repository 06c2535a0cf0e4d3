"""A game's ids in the words of its language, where the screens compose a line: the end of a game
of many nights (as the laptop says it and ``narrate replay`` prints it), a turn or a role named
by its ACTION KEY."""

from narrator.core.game import Language, end_line
from narrator.core.nights import answer_said
from narrator.shell.translation import _


def ending(language: Language, sides) -> list[str]:
    """The line of the first side that wins, then every other side that wins with it (Wherewolf
    Revised's City and Criminals), by its name in the language (a role that wins alone, by the
    role's): the end line alone would name one winner where there are two."""
    others = [language.sides.get(side) or language.role_name(side) for side in sides[1:]]
    return [language.line(end_line(sides)), *([_("Also winning: {sides}").format(sides=", ".join(others))]
                                               if others else [])]


def named(game, language: Language, key: str) -> str:
    """An ACTION KEY as a person reads it: the turn's name (the Courtesan, not 'cortigiana'), or the
    role's; a key that is neither (a piece of the morning's news) as the rules wrote it."""
    slot = game.find_slot(key)
    if slot is not None:
        return language.slot_name(slot)
    return language.role_name(key) if key in language.roles else key


def said_answer(game, sentences, key: str, answer: str | int) -> str:
    """What the moderator tells for ``key`` in the game's words: its ``answer_VALUE``, or, where the
    answer is a player's name, ``answer_player`` naming him (the Thief shown the mystic's holder)."""
    sentence, values = answer_said(game.nights_rules.ANSWERS.get(key, ()), answer)
    return sentences(sentence, **values)


def announced(game, result, sentences) -> list[str]:
    """What the table is told of a dawn or a dusk beyond its dead, as the rules announce it (the two
    cursed dead, the Bardo's news): at every dawn, and at a dusk where anyone died or came back."""
    from narrator.core.state import Dawn

    if not result.dead and not result.revived and not isinstance(result, Dawn):
        return []
    return list(game.rules.announce(game, result, sentences))
