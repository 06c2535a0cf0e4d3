"""The interface's translation catalogs: complete, in step with the code, and used everywhere.

The catalogs are the standard gettext .po files under narrator/locale; dev/catalog.py brings them
up to date with the code (see the README). These tests fail when a message the interface can show
has no translation, when a translation drops or adds a placeholder, or when code shows words to
the user without passing them through the catalog.
"""

import ast
import importlib.util
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from narrator.shell import translation as i18n

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "narrator"
LANGUAGES = sorted(path.parent.parent.name for path in i18n.LOCALE_DIR.glob(f"*/LC_MESSAGES/{i18n.DOMAIN}.po"))


def _catalog_tool():
    spec = importlib.util.spec_from_file_location("dev_catalog", ROOT / "dev" / "catalog.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def template():
    return _catalog_tool().template()


def _po(language):
    with i18n.catalog_file(language).open("rb") as file:
        return read_po(file, locale=language)


def test_there_is_an_italian_catalog():
    assert "it" in LANGUAGES


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalog_holds_exactly_the_messages_of_the_code(template, language):
    wanted = {message.id if isinstance(message.id, str) else message.id[0] for message in template if message.id}
    held = {message.id if isinstance(message.id, str) else message.id[0] for message in _po(language) if message.id}
    assert sorted(wanted - held) == [], "new messages: run 'python dev/catalog.py' and translate them"
    assert sorted(held - wanted) == [], "messages the code no longer has: run 'python dev/catalog.py'"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_and_keeps_its_placeholders(language):
    fields = re.compile(r"\{[^{}]*\}|%\(\w+\)[sdr]|%[sdr]")
    problems = []
    for message in _po(language):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        if message.fuzzy or not all(strings):
            problems.append(f"untranslated or fuzzy: {ids[0]!r}")
            continue
        named = set(fields.findall(ids[0])) | set(fields.findall(ids[-1]))
        for string in strings:
            # A translation may leave a value out (click names a number's type in English), never add one.
            if not set(fields.findall(string)) <= named:
                problems.append(f"placeholders differ: {ids[0]!r} -> {string!r}")
    assert problems == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalog_compiles_and_translates(language, tmp_path):
    catalog = i18n.load_catalog(language, tmp_path)
    assert catalog.gettext("Show this message and exit.") != "Show this message and exit."
    assert list((tmp_path / "catalogs").glob(f"{language}-*.mo")), "the compiled catalog is kept in the cache"
    again = i18n.load_catalog(language, tmp_path)  # read back from the cache
    assert again.gettext("Show this message and exit.") == catalog.gettext("Show this message and exit.")


def test_a_damaged_cached_catalog_is_compiled_again(tmp_path):
    i18n.load_catalog("it", tmp_path)
    (cached,) = (tmp_path / "catalogs").glob("it-*.mo")
    cached.write_bytes(b"not a catalog")
    assert i18n.load_catalog("it", tmp_path).gettext("Usage:") == "Uso:"


def test_a_read_only_cache_only_costs_time(tmp_path):
    (tmp_path / "catalogs").write_text("a file where the folder would go")
    assert i18n.load_catalog("it", tmp_path).gettext("Usage:") == "Uso:"


# --- code that shows words must pass them through the catalog ------------------------------------

# Calls whose first argument reaches the user as it is.
SHOWN = {"echo", "secho", "prompt", "confirm", "fail", "UsageError", "BadParameter", "ClickException",
         "NarratorError", "DataError", "DeckError", "VoteError", "UnknownRoleError", "EngineUnavailable",
         "PlayerFailed", "write", "say", "append"}
WORD = re.compile(r"[A-Za-z]{3,}")
NOT_WORDS = {"narrate", "http", "token", "wav"}  # the program's name and the parts of addresses


def _words(node) -> list[str]:
    """The words in the literal parts of a string or f-string (a key such as 'no_winners' is none)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if re.fullmatch(r"[a-z0-9_.-]+", node.value):
            return []
        parts = [node.value]
    elif isinstance(node, ast.JoinedStr):
        parts = [value.value for value in node.values if isinstance(value, ast.Constant)]
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _words(node.left) + _words(node.right)
    else:
        return []
    return [word for part in parts for word in WORD.findall(part) if word.lower() not in NOT_WORDS]


def _untranslated(path: Path, root: Path = ROOT) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name in SHOWN and _words(node.args[0]):
            found.append(f"{path.relative_to(root)}:{node.lineno}: {name}({ast.unparse(node.args[0])[:60]})")
    return found


def test_no_words_reach_the_user_without_the_catalog():
    found = [line for folder in (PACKAGE, ROOT / "scripts") for path in sorted(folder.rglob("*.py"))
             for line in _untranslated(path)]
    assert found == []


def test_the_check_finds_words_shown_as_they_are(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('import click\nclick.echo(f"wrote {name}")\nclick.echo(_("wrote {name}"))\n'
                      'raise NarratorError(msg("no {x}", x=1))\nraise NarratorError(f"nothing {x}")\n')
    found = [line.split(": ", 1)[1] for line in _untranslated(sample, tmp_path)]
    assert found == ["echo(f'wrote {name}')", "NarratorError(f'nothing {x}')"]


def test_core_modules_never_translate_themselves():
    """The core and the games build Text; only the shell (narrator/shell) calls _."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if parts[0] not in ("core", "games"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "narrator.shell.translation":
                taken = {alias.name for alias in node.names} & {"_", "ngettext", "say", "active_catalog"}
                if taken:
                    offenders.append(f"{path.relative_to(ROOT)} imports {sorted(taken)}")
    assert offenders == []


def test_no_italian_message_needs_a_player_gender():
    """narrate never knows a player's gender: "{voter} è fuori gioco", never "{voter} è morto"."""
    from test_games import gendered_sentences

    translations = [message.string for message in _po("it") if message.id and isinstance(message.string, str)]
    assert gendered_sentences(translations) == []


def test_the_italian_help_names_each_value_as_it_is_typed(run):
    """A choice's values stay as typed in the help of every language: 'silent', never a word of its own."""
    from conftest import make_env

    shown = run("script", "--help", env=make_env({"LANG": "it_IT.UTF-8"})).stdout
    assert "(silent)" in shown and "(none)" not in shown
