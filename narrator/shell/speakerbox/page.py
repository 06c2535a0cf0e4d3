"""The speaker box page in the game's language: its words, and the page filled in with them.

The page's HTML holds ``{{name}}`` slots; the words go in escaped, and box.js reads the same
words (for what it writes later, such as "reconnecting…") from a JSON block in the page.
"""

import html
import json
import re

from narrator.core.i18n import N_, Catalog

PAGE_TEXTS = {
    "title": N_("narrate · speaker box"),
    "join": N_("Tap to join"),
    "connecting": N_("connecting…"),
    "reconnecting": N_("reconnecting…"),
    "in_step": N_("connected · in step (±{ms} ms)"),
    "loading": N_("loading the night…"),
    "start": N_("Start"),
    "pause": N_("Pause"),
    "next": N_("Next"),
}

_SLOT = re.compile(r"\{\{(\w+)\}\}")


def page_texts(catalog: Catalog) -> dict[str, str]:
    return {name: catalog.gettext(message) for name, message in PAGE_TEXTS.items()}


def filled_page(template: str, language: str, catalog: Catalog) -> bytes:
    """The page with its language, its words, and the words box.js needs."""
    words = page_texts(catalog)
    # In a <script> block only "</" could end it early; JSON's \\u escape keeps it inert.
    data = json.dumps(words, ensure_ascii=False).replace("</", "<\\u002f")
    values = {**{name: html.escape(text) for name, text in words.items()},
              "lang": html.escape(language), "texts": data}
    return _SLOT.sub(lambda match: values[match[1]], template).encode("utf-8")
