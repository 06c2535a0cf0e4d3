"""The questions of the moderator's console ("forms"): what the terminal asks, as a phone shows it.

A form is plain JSON, the same for every game: its ``kind`` and ``question``, and its options as
``{label, value}`` pairs. The kinds: ``one`` name (or nobody, when ``none``), ``several`` names
(``least`` to ``most``), ``each``: one name per chooser (``parts``), ``pick`` one of a few named
values (yes or no, a rule's choices; ``none_label``: what answering none means, where not nobody), a
``count`` from 0 to ``most``, ``go`` (a button that says
the moment has come), and ``fields``: a value of named parts in one of a few shapes (``forms``, each
with its ``fixed`` parts and the ``parts`` to choose). The form of a rules' ask is its kind's
(``narrator.core.kinds``), rendered here (``for_ask``); the terminal's table makes the forms of its
own questions. Both are asked at the terminal by the form alone (``narrator.shell.cli.prompts.
ask_form``), checked here when a phone answers (``fault``), and put back in words for the laptop's
screen (``in_words``).
"""

from collections.abc import Callable
from typing import Any

from narrator.core.i18n import Text
from narrator.shell.translation import _, say


def for_ask(ask, question: str, sentences) -> dict:
    """The form of a rules' ``Ask`` (``narrator.core.state``), as its kind describes it
    (``narrator.core.kinds``), its words from the game's ``sentences`` and the interface's catalog
    (a question of several names says how many it takes: its ``count``)."""
    return rendered(ask.of_kind.form(ask, question, sentences))


def rendered(value: Any) -> Any:
    """A form with its interface messages (``Text``) in the language in play."""
    if isinstance(value, Text):
        return say(value)
    if isinstance(value, dict):
        return {key: rendered(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [rendered(item) for item in value]
    return value


def check_for(ask) -> Callable[[Any], str | None]:
    """Why a value tapped does not answer the rules' ``ask`` beyond its form (None when it does), in words."""
    def why(value):
        reason = ask.check(value)
        return None if reason is None else say(reason)
    return why


def in_words(form: dict, value) -> str:
    """An answer from the console in words, as the form offered it."""
    labels = {repr(option["value"]): option["label"] for option in form.get("options", ())}
    names = {}
    for part in form.get("parts", ()):
        labels.update({repr(option["value"]): option["label"] for option in part["options"]})
        names[part["key"]] = part.get("name", part["key"])
    if value is None:
        return form.get("none_label") or (_("nobody") if form["kind"] in ("one", "several", "each") else _("none"))
    if isinstance(value, list):
        return ", ".join(labels.get(repr(item), str(item)) for item in value)
    if isinstance(value, dict) and form["kind"] == "fields":  # the parts chosen, never the fixed ones' ids
        chosen = {part["key"] for shape in form["forms"] for part in shape["parts"]}
        return ", ".join(str(item) for key, item in value.items() if key in chosen) or _("yes")
    if isinstance(value, dict):
        return ", ".join(f"{names.get(key, key)}: {labels.get(repr(item), str(item))}" for key, item in value.items())
    if form["kind"] == "go":
        return form["label"]
    return labels.get(repr(value), str(value))


def fault(form: dict | None, value: Any) -> str | None:
    """Why ``value`` does not answer a question of ``form`` (None when it does): the shape, and
    that every name or value given is one of the form's options."""
    if form is None:
        return _("nothing is asked now")
    kind = form["kind"]
    allowed = [option["value"] for option in form.get("options", ())]
    if kind == "go":
        return None if value is True else _("press the button")
    if value is None:
        return None if form.get("none") else _("an answer is needed")
    if kind in ("one", "pick"):
        return None if value in allowed and not isinstance(value, (dict, list)) else _("not one of the options")
    if kind == "several":
        if not isinstance(value, list) or not value or len(set(map(str, value))) != len(value):
            return _("a list of different options")
        if form.get("most") and len(value) > form["most"]:
            return _("too many")
        return None if all(item in allowed for item in value) else _("not one of the options")
    if kind == "each":
        parts = {part["key"]: [option["value"] for option in part["options"]] for part in form["parts"]}
        if not isinstance(value, dict) or not value or set(value) - set(parts):
            return _("an answer for some of the parts")
        return None if all(value[key] in parts[key] for key in value) else _("not one of the options")
    if kind == "count":
        fits = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= form["most"]
        return None if fits else _("a number from 0 to {most}").format(most=form["most"])
    if kind == "fields":
        return None if isinstance(value, dict) else _("an answer of named parts")
    return _("not a question the console knows")
