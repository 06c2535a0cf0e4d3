"""Prompts of a game at the terminal: player names typed (a unique start is enough), and
``undo`` (or the word for it in the language in use, which every prompt shows) at any of them."""

import click

from narrator.shell.platform.keyboard import completion
from narrator.shell.translation import _

UNDO_WORDS = ("undo",)  # and the word in the language in use


class Undo(Exception):
    """``undo`` was typed at a prompt."""


def is_undo(text: str) -> bool:
    return text.strip().casefold() in (*UNDO_WORDS, _("undo").casefold())


def prompt(question: str, parse, hint: str = ""):
    """A question whose answer ``parse`` checks; ``undo`` takes back the last entry instead.

    The prompt shows ``hint`` (what else may be typed) and the undo word, in one parenthesis."""
    hints = [part for part in (hint, _("{undo}: go back").format(undo=_("undo"))) if part]
    shown = f"{question} ({'; '.join(hints)})"
    answer = click.prompt(shown, default="", show_default=False, value_proc=parse)
    if answer is Undo:
        raise Undo
    return answer


FEW = 3  # as many names as a prompt lists in its hint: the few a question allows are shown


def ask_name(question: str, names, nobody: bool = False, nobody_means: str | None = None) -> str | None:
    """One of ``names`` (or None for nobody, when ``nobody``: what Enter does is ``nobody_means``,
    by default nobody), Tab completing them; a few are listed in the hint (the one the Mayor may pardon)."""
    def parse(text: str):
        found = names_in(text, names, nobody)
        if found is not Undo and found is not None and len(found) != 1:
            raise click.BadParameter(_("one name: {names}").format(names=", ".join(names)))
        return found if found in (Undo, None) else found[0]

    few = ", ".join(names) if len(names) <= FEW else ""
    enter = _("Enter: {means}").format(means=nobody_means) if nobody_means else _("Enter: nobody")
    hint = (_("{names}, or {enter}").format(names=few, enter=enter) if few else enter) if nobody else few
    with completion(list(names)):
        return prompt(question, parse, hint)


def ask_names(question: str, names, check=None, nobody: bool = True, count: str | None = None) -> list[str]:
    """Any of ``names``, separated by commas (none at all: Enter); ``check`` (a list, or None for
    nobody, to why it is not an answer, or None) may refuse a choice, and the question is asked again.
    ``count`` says how many the question wants ("two names"), in place of "names"."""
    from narrator.shell.translation import say

    def parse(text: str):
        found = names_in(text, names, nobody=True)
        if found is not Undo and check is not None and (why := check(found or None)) is not None:
            raise click.BadParameter(say(why))
        return [] if found is None else found

    if count is None:
        return prompt(question, parse, _("names, or Enter: nobody") if nobody else _("names"))
    return prompt(question, parse, _("{count}, or Enter: nobody").format(count=count) if nobody else count)


def names_in(text: str, names, nobody: bool):
    """The players named in ``text`` (commas between them; a unique start is enough), ``Undo``,
    or None for nobody."""
    if is_undo(text):
        return Undo
    text = text.strip()
    if not text or text == "-":
        if nobody:
            return None
        raise click.BadParameter(_("give a name: {names}").format(names=", ".join(names)))
    found = []
    for part in (piece.strip() for piece in text.split(",") if piece.strip()):
        exact = [name for name in names if name.casefold() == part.casefold()]
        starting = [name for name in names if name.casefold().startswith(part.casefold())]
        matches = exact or starting
        if len(matches) != 1:
            raise click.BadParameter(_("'{name}' is not one of {names}").format(name=part, names=", ".join(names)))
        if matches[0] not in found:
            found.append(matches[0])
    return found


def ask_choice(question: str, choices: dict, required: bool = False):
    """One of the named ``choices`` (shown words → value; a unique start is enough), or None when
    not ``required`` and Enter is pressed."""
    words = list(choices)
    single = len(words) == 1 and not required  # one thing that is done, or not: a yes or a no says it too
    yes, no = _("yes"), _("no")

    def parse(text: str):
        if is_undo(text):
            return Undo
        text = text.strip().casefold()
        if not text and not required:
            return None
        if single and text in (yes.casefold(), "yes"):
            return choices[words[0]]
        if single and text in (no.casefold(), "no"):
            return None
        matches = [word for word in words if word.casefold() == text] or [
            word for word in words if text and word.casefold().startswith(text)]
        if len(matches) != 1:
            raise click.BadParameter(_("'{answer}' is not one of {choices}").format(answer=text,
                                                                                   choices=", ".join(words)))
        return choices[matches[0]]

    if single:
        return prompt(question, parse, _("{choice} or {yes}; Enter or {no}: none").format(choice=words[0], yes=yes,
                                                                                            no=no))
    return prompt(question, parse, " / ".join(words) + ("" if required else _(", Enter: none")))


def ask_form(form: dict, check=None):
    """The answer to a form (``narrator.shell.speakerbox.forms``) typed at the terminal, by its
    widget alone: whatever kind of entry made it, the terminal asks it the way the console shows it.
    ``check`` (an answer to why it is not one, or None) refuses a list of names at once."""
    question, nobody = form["question"], bool(form.get("none"))
    values = [option["value"] for option in form.get("options", ())]
    kind = form["kind"]
    if kind == "one":
        return ask_name(question, values, nobody=nobody, nobody_means=form.get("none_label"))
    if kind == "several":
        return ask_names(question, values, check, nobody=nobody, count=form.get("count")) or None
    if kind == "each":
        chosen = {}
        for part in form["parts"]:
            name = ask_name(part["label"], [option["value"] for option in part["options"]], nobody=nobody)
            if name is not None:
                chosen[part["key"]] = name
        return chosen or None
    if kind == "pick":
        return ask_choice(question, {option["label"]: option["value"] for option in form["options"]},
                          required=not nobody)
    if kind == "fields":
        return _ask_fields(form)
    raise ValueError(f"no terminal prompt for a form of kind '{kind}'")


def _ask_fields(form: dict):
    """A value of named parts, one of the form's shapes in turn: a shape whose parts are all fixed
    is a yes or a no; the others ask for each part left open (Enter: not this shape)."""
    question = form["question"]
    for shape in form["forms"]:
        value = dict(shape["fixed"])
        if not shape["parts"]:
            if ask_choice(question, {_("yes"): True, _("no"): False}, required=True):
                return value
            continue
        for part in shape["parts"]:
            label = part["label"] if part["label"] != part["key"] else f"{question}: {part['key']}"
            name = ask_name(label, [option["value"] for option in part["options"]], nobody=True)
            if name is None:
                break
            value[part["key"]] = name
        else:
            return value
    return None
