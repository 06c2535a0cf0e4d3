"""Bring the interface's translation catalogs up to date with the code.

    python dev/catalog.py            # update every narrator/locale/*/LC_MESSAGES/narrator.po
    python dev/catalog.py --add it   # start a catalog for a new language

Messages come from three places: the marked strings in narrator/ (``_``, ``ngettext``, ``msg``,
``plural``, ``N_``), the help of every command and option (read from the live command line), and
click's own messages (usage, errors, the help option), which click leaves untranslated. New
messages arrive untranslated, changed ones marked fuzzy: translate them with any .po editor (or by
hand), then run the tests (tests/test_catalog.py checks that every message is translated).
"""

import argparse
import io
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from narrator.shell.translation import DOMAIN, LOCALE_DIR, catalog_file  # noqa: E402

KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "msg": None, "plural": (1, 2)}
CLICK_KEYWORDS = {"_": None, "ngettext": (1, 2)}
CLICK_MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "termui", "types", "utils")


def template() -> Catalog:
    """Every message the interface can show, in English, with where it comes from."""
    catalog = Catalog(domain=DOMAIN, project="narrator", charset="utf-8")
    for folder in ("narrator", "scripts"):  # the code, and the games' rules.py
        for filename, _lineno, message, comments, _context in extract_from_dir(
                ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS,
                comment_tags=("Translators:",), strip_comment_tags=True):
            catalog.add(message, locations=[(f"{folder}/{filename}", None)], auto_comments=comments)
    for location, message in command_help():
        catalog.add(message, locations=[(location, None)])
    import click

    for name in CLICK_MODULES:
        path = Path(click.__file__).parent / f"{name}.py"
        for _lineno, message, _comments, _context in extract_from_file("python", path, keywords=CLICK_KEYWORDS):
            catalog.add(message, locations=[(f"click/{name}.py", None)])
    return catalog


def command_help():
    """(location, message id) for the help and metavars of every command and option of ``narrate``."""
    from narrator.shell.cli.app import cli
    from narrator.shell.cli.interface import command_message_ids

    for message in command_message_ids(cli):
        yield "narrate", message


def updated(existing: Catalog, fresh: Catalog) -> Catalog:
    created = existing.creation_date  # kept, so that an update with no new message changes nothing
    existing.update(fresh, no_fuzzy_matching=False, update_header_comment=False)
    existing.obsolete.clear()  # messages the code no longer has are dropped, not kept commented out
    existing.creation_date = created
    existing.fuzzy = False  # the header is ours, not a guess
    return existing


def new_catalog(language: str) -> Catalog:
    return Catalog(locale=language, domain=DOMAIN, project="narrator", version="",
                   copyright_holder="narrator developers", msgid_bugs_address="",
                   last_translator="narrator developers", language_team="narrator developers",
                   header_comment=f"# The interface of narrator in {language}: see dev/catalog.py.\n#")


def write(catalog: Catalog, path: Path) -> None:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, include_lineno=False, sort_by_file=False)
    # Babel signs the header with its own version: the file would change with the Babel installed,
    # not with the messages. It is signed by this script instead.
    text = re.sub(rb'"Generated-By: Babel [^"]*"', rb'"Generated-By: dev/catalog.py\\n"', buffer.getvalue())
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".po.tmp")
    temporary.write_bytes(text)
    temporary.replace(path)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--add", metavar="LANG", help="start a catalog for a new language")
    args = parser.parse_args(argv)
    fresh = template()
    languages = sorted(path.parent.parent.name for path in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    if args.add:
        path = catalog_file(args.add)
        if path.exists():
            parser.error(f"{path} exists already")
        write(updated(new_catalog(args.add), fresh), path)
        languages.append(args.add)
    for language in languages:
        path = catalog_file(language)
        catalog = read_po(path.open("rb"), locale=language)
        write(updated(catalog, fresh), path)
        left = [message for message in catalog if message.id and (message.fuzzy or not all(
            message.string if isinstance(message.string, (list, tuple)) else [message.string]))]  # (a plural: every form;
        # a message new to the catalog has no string at all)
        print(f"{path.relative_to(ROOT)}: {len(catalog)} messages, {len(left)} to translate or review")
    return 0


if __name__ == "__main__":
    sys.exit(main())
