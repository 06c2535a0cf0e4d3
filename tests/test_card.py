"""The printed speaker card, read back as a person would: its text, its pages, its ink."""

import re
import shutil
import subprocess
import zlib
from collections import Counter

import numpy as np
import pytest

from narrator.core.deck import recommended_deck, usual_deck
from narrator.core.script import generate_script, settings_for
from narrator.games.loader import available_games, load_game
from narrator.shell.cardpdf import LARGEST, SMALLEST
from tests.conftest import GAMES_DIR, make_env
from tests.examples import load_examples, write_examples

pytestmark = pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils (pdftotext, pdftoppm)")

PRINTABLE_MM = 6  # what the tests demand, whatever the layout: most printers cannot ink the outer 4-5 mm
POINTS = {"a6": (297.64, 419.53), "a5": (419.53, 595.28), "a4": (595.28, 841.89), "letter": (612.0, 792.0)}
SHIPPED = {game_id: load_game(GAMES_DIR / game_id) for game_id in available_games(GAMES_DIR)}
EXAMPLES = load_examples()  # the smallest games of scripts/README.md, with short cards
GAMES = {**SHIPPED, **EXAMPLES}


def make_card(run, tmp_path, *args, env=None):
    path = tmp_path / "tessera.pdf"
    result = run("card", *args, "-o", str(path), env=env)
    assert result.exit_code == 0, result.stderr
    return path, result.stdout


def pdf_text(path):
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def flat(text):
    return " ".join(text.split())


def pdf_info(path):
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info)[1])
    width, height = map(float, re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info).groups())
    return pages, width, height


@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_role_of_the_deck_in_night_order_and_no_other(run, tmp_path, lang):
    path, _ = make_card(run, tmp_path, "--players", "8", "--lang", lang)
    env = make_env()
    game, language = env.game, env.game.languages[lang]
    deck = recommended_deck(game, 8)
    text = flat(pdf_text(path))
    for role in game.roles:
        names = {language.role_name(role.id), language.role_name(role.id, 2)}
        present = any(name in text for name in names)
        assert present == (role.id in deck.role_ids), role.id
    script = generate_script(game, deck, settings_for(game, lang))
    # numbered as the moderator reads them, without gaps: the Guastafeste, the rulebook's 5, is 4 when
    # the rulebook's 4 is not in the deck (issue 39, point 11)
    steps = [f"{number} {language.role_name(slot, deck.copies(slot))}"
             for number, slot in enumerate(script.phases, start=1)]
    positions = [text.index(step) for step in steps]
    assert positions == sorted(positions)


def night_numbers(content):
    """The numbers of the card's turns, in the order printed, and their names."""
    return [(block.number, block.text) for block in content.front if block.kind in ("role", "again")]


@pytest.mark.parametrize("game_id", SHIPPED)
def test_the_cards_turns_are_numbered_in_the_order_read_without_gaps(game_id):
    """Issue 39, point 11: at the game's smallest and largest tables (a game that draws its set: a
    drawn set), the night's turns are numbered 1, 2, 3... as the moderator reads them down the
    card, whichever of the rulebook's turns the deck leaves out (Wherewolf in Tabula's 8, the Lone
    Wolf's, at 8 players; Wherewolf Revised's 2, 5 to 7 and 10 at 12)."""
    import random

    from narrator.core.card import deck_card
    from narrator.core.deck import build_deck

    game = SHIPPED[game_id]
    for players in (game.min_players, 12 if game.min_players <= 12 <= game.max_players else game.max_players,
                    game.max_players):
        deck = build_deck(game, players=players, rng=random.Random(0))[0] if game.draws_set else usual_deck(game, players)
        numbers = [number for number, _name in night_numbers(deck_card(game, deck, players, settings_for(game, "en")))]
        assert numbers == list(range(1, len(numbers) + 1)), (players, numbers)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_card_says_what_the_narration_says(run, tmp_path, lang):
    path, _ = make_card(run, tmp_path, "--players", "8", "--lang", lang)
    env = make_env()
    deck = recommended_deck(env.game, 8)
    script = generate_script(env.game, deck, settings_for(env.game, lang))
    text = flat(pdf_text(path))
    for cue in script.cues():
        if not cue.key.startswith("count."):
            assert flat(cue.text) in text, cue.key
    count_word = env.game.languages[lang].card["count"].format(seconds=10)
    assert text.count(count_word) == len(script.phases)  # "conta 10" once per role called
    assert "3… 2… 1…" in text


# Six players' card on two A6 sides would be under 9 pt: it takes a third page (issue 39, point 23).
@pytest.mark.parametrize("size, pages", [("a6", 3), ("a5", 2), ("a4", 1), ("letter", 2)])
def test_page_size_and_count(run, tmp_path, size, pages):
    path, said = make_card(run, tmp_path, "--players", "6", "--size", size)
    count, width, height = pdf_info(path)
    assert count == pages
    assert (width, height) == pytest.approx(POINTS[size], abs=0.1)
    assert said.startswith(f"narrate: wrote {path} ({size.upper()}, {pages} page")


def test_italian_accents_survive(run, tmp_path):
    path, _ = make_card(run, tmp_path, "--players", "9", "--lang", "it")
    text = pdf_text(path)
    for word in ("più", "né", "sé", "è l'unico"):
        assert word in text


@pytest.mark.parametrize("size", ["a6", "a5", "a4", "letter"])
def test_the_largest_deck_fits_every_size_inside_the_margins(run, tmp_path, size):
    path, said = make_card(run, tmp_path, "--players", "10", "--size", size)
    body = float(re.search(r"text at ([\d.]+) pt", said)[1])
    assert body >= SMALLEST
    dpi = 72
    subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), str(path), str(tmp_path / "page")], check=True)
    margin = int(PRINTABLE_MM / 25.4 * dpi)  # pixels that must stay blank on every side
    pages = sorted(tmp_path.glob("page*.pgm"))
    assert pages
    for page in pages:
        image = read_pgm(page)
        ink = image < 200
        assert ink.any()  # something is printed...
        band = ink.copy()
        band[margin:-margin, margin:-margin] = False
        assert not band.any(), f"{page.name}: ink within {PRINTABLE_MM} mm of the edge"  # ...but not near the edge


def read_pgm(path):
    data = path.read_bytes()
    match = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    width, height = int(match[1]), int(match[2])
    return np.frombuffer(data[match.end():match.end() + width * height], dtype=np.uint8).reshape(height, width)


def test_back_lists_the_win_of_each_special_role_in_the_deck(run, tmp_path):
    path, _ = make_card(run, tmp_path, "--players", "10", "--lang", "en")
    text = flat(pdf_text(path))
    assert "Minion Wins with the wolves" in text
    assert "Sorcerer's Apprentice The role whose token was turned becomes a Werewolf" in text
    assert "Werepenguin Wins alone by being the only one lynched" in text
    assert "Zombie: with two or more votes, hands them all to the player it voted for." in text
    assert "Werehamster" not in text


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_ends_the_back_with_the_roles_that_change_who_wins(game_id):
    """One mechanism for every game: the language's ``card.win`` texts, under ``wins``, last."""
    from narrator.core.card import deck_card

    game = GAMES[game_id]
    players = game.max_players
    deck = usual_deck(game, players)
    for lang, language in game.languages.items():
        back = deck_card(game, deck, players, settings_for(game, lang)).back
        special = [role.id for role in game.roles if role.id in deck.role_ids and role.id in language.card_wins]
        tail = [(block.kind, block.text, block.detail) for block in back[len(back) - len(special) - 1:]]
        expected = [("role", language.role_name(role_id), language.card_wins[role_id]) for role_id in special]
        if special:
            assert tail == [("heading", language.card["wins"], ""), *expected], (game_id, lang)
        assert sum(block.kind == "heading" and block.text == language.card.get("wins") for block in back) == (
            1 if special else 0)


@pytest.mark.parametrize("args, message", [
    (["--players", "8", "--size", "b5", "-o", "{tmp}/t.pdf"], re.compile(r"narrate card: .*'b5'.* \(see 'narrate card --help'\)")),
    (["--players", "8", "-o", "{tmp}/missing/t.pdf"], "narrate: {tmp}/missing/t.pdf: the folder {tmp}/missing does not exist"),
    (["--players", "12", "-o", "{tmp}/t.pdf"], "narrate: Una Notte da Lupi takes 3 to 10 players, not 12: choose --players from 3 to 10"),
    (["--players", "6", "--add", "mitomane", "-o", "{tmp}/t.pdf"], "narrate: 6 players need 9 cards; this deck has 10: remove 1 role"),
])
def test_bad_input_is_one_line(run, tmp_path, args, message):
    args = [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    result = run("card", *args)
    assert (result.exit_code, result.stdout) == (2, "")
    line = result.stderr.rstrip("\n")
    assert "\n" not in line
    if isinstance(message, re.Pattern):
        assert message.fullmatch(line), line
    else:
        assert line == message.replace("{tmp}", str(tmp_path))
    assert not list(tmp_path.glob("**/*.pdf"))


def test_unwritable_folder(run, tmp_path):
    import os

    if os.geteuid() == 0:
        blocker = tmp_path / "file"
        blocker.write_text("not a folder")
        result = run("card", "--players", "5", "-o", str(blocker / "t.pdf"))
        assert result.stderr == f"narrate: {blocker / 't.pdf'}: the folder {blocker} does not exist\n"
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        result = run("card", "--players", "5", "-o", str(locked / "t.pdf"))
        assert result.stderr.startswith(f"narrate: {locked / 't.pdf'}: cannot write here (")
    assert result.exit_code == 2


def test_a_failed_write_keeps_the_old_card(run, tmp_path, monkeypatch):
    path = tmp_path / "tessera.pdf"
    path.write_bytes(b"%PDF the group's old card")
    import narrator.shell.files as files

    def disk_full(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", disk_full)
    result = run("card", "--players", "5", "-o", str(path))
    assert (result.exit_code, result.stderr) == (2, f"narrate: {path}: cannot write it (No space left on device); "
                                                    "nothing was changed\n")
    assert path.read_bytes() == b"%PDF the group's old card"
    assert [p.name for p in tmp_path.iterdir()] == ["tessera.pdf"]


@pytest.mark.parametrize("lang, first, later", [("it", "Notte 1:", "Dalla notte 2 in poi:"),
                                                ("en", "Night 1:", "Night 2 and after:")])
def test_the_moderators_card_of_a_game_of_many_nights_shows_every_night(run, tmp_path, lang, first, later):
    """Lupus in Tabula, 16 players: every turn of any night, once, in order; what is said on some
    nights only is marked with them."""
    path, _output = make_card(run, tmp_path, "--game", "lupus-in-tabula", "--players", "16", "--lang", lang)
    text = flat(pdf_text(path))
    text = text[text.index({"it": "A occhi chiusi", "en": "Eyes closed"}[lang]):]  # the night, after the deck's list
    words = {"it": ["Medium", "Massoni", "Veggente", "Gufo", "Guardia del corpo", "Lupi Mannari", "Mitomane"],
             "en": ["Medium", "Masons", "Seer", "Owl", "Bodyguard", "Werewolves", "Mythomaniac"]}[lang]
    positions = [text.index(word) for word in words]
    assert positions == sorted(positions)
    assert f"{first} " in text and f"{later} " in text
    quiet, hunt = {"it": ("Per stanotte non sbranate nessuno", "scegliete insieme, con un cenno"),
                   "en": ("Tonight you spare everyone", "on your victim")}[lang]
    wolves = text[positions[5]:]  # the lupi's turn: the first night's words, then every later night's
    assert wolves.index(first) < wolves.index(quiet) < wolves.index(later) < wolves.index(hunt)


def test_the_ghosts_phase_of_the_minaccia_fantasma_comes_before_daybreak_on_the_card(run, tmp_path):
    path, _output = make_card(run, tmp_path, "--game", "lupus-in-tabula", "--players", "12", "--lang", "en",
                              "--option", "minaccia-fantasma=on")
    text = flat(pdf_text(path))
    ghosts = text.index("Night 2 and after: Ghosts, open your eyes.")
    assert ghosts < text.index("Ghosts, close your eyes.") < text.index("Day breaks over Tabula.")
    assert text.count("Night 2 and after: Ghosts") == 1  # the ghosts' words are one paragraph


@pytest.mark.parametrize("lang, words", [
    ("it", ["Martire", "Amanti", "Cortigiana", "Guardia", "Ladro", "Lupi", "Ficcanaso", "Medium", "Becchino",
            "Le case", "Il voto", "La fine", "Traditore"]),
    ("en", ["Martyr", "Lovers", "Courtesan", "Guard", "Thief", "Wolves", "Busybody", "Medium", "Undertaker",
            "The houses", "The vote", "The end", "Traitor"])])
def test_the_moderators_card_of_leart_s_variant_has_the_calls_the_dawn_the_vote_and_the_end(run, tmp_path, lang,
                                                                                           words):
    """LeartS' variant, 17 players (every character): the night's calls in order, then how a dawn is
    worked out (the houses), the vote, the end and who changes it."""
    path, _output = make_card(run, tmp_path, "--game", "learts-variant", "--players", "17", "--lang", lang)
    text = flat(pdf_text(path))
    text = text[text.index({"it": "La notte", "en": "The night"}[lang]):]
    positions = [text.index(word) for word in words]
    assert positions == sorted(positions), list(zip(words, positions, strict=True))
    assert pdf_info(path)[0] == 2


# Wherewolf Revised's 36 players hold the whole box: more than two sides at 9 pt, so they take more
# pages (below); its table of 14 fills two. The smallest game of one night of scripts/README.md
# stands for a game whose card is short.
LARGEST_DECKS = [(game_id, SHIPPED[game_id].max_players) for game_id in SHIPPED if game_id != "wherewolf-revised"] + [
    ("wherewolf-revised", 14), *((game_id, game.max_players) for game_id, game in EXAMPLES.items() if not game.many_nights)]


def pdf_type_sizes(path) -> Counter:
    """The points the PDF sets its text at, each weighted by the glyphs set at it: read from the
    file's own content streams (fpdf2 writes 2-byte glyph ids in literal strings after ``Tf``)."""
    sizes: Counter = Counter()
    for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", path.read_bytes(), re.S):
        try:
            content = zlib.decompress(stream)
        except zlib.error:  # a font or an image, not a page
            continue
        for size, text in re.findall(rb"/F\d+ ([\d.]+) Tf \(((?:\\.|[^\\)])*)\) Tj", content, re.S):
            sizes[float(size)] += len(re.sub(rb"\\(.)", rb"\1", text, flags=re.S)) // 2
    return sizes


@pytest.mark.parametrize("game_id", SHIPPED)
def test_every_shipped_game_at_its_largest_table_prints_at_9_points_or_more_on_a5(run, tmp_path, game_id):
    """Issue 39, point 23: the card of each game's most players (a game that draws its set: a drawn
    set) sets its body, the type most of its words are in, at 9 pt or more, on as many pages as
    that takes; a note, set smaller by its style, is never below 9 pt either (in English and in
    Italian, whose words are longer)."""
    game = SHIPPED[game_id]
    seed = ("--seed", "0") if game.draws_set else ()
    for lang in ("en", "it"):
        path, said = make_card(run, tmp_path, "--game", game_id, "--players", str(game.max_players), *seed, "--lang",
                               lang)
        sizes = pdf_type_sizes(path)
        body = max(sizes, key=sizes.__getitem__)
        assert body >= 9, (lang, body, sizes)
        assert min(sizes) >= 9 - 0.01, (lang, sizes)
        assert f" {body:g} pt" in said


@pytest.mark.parametrize("game_id, players", LARGEST_DECKS)
def test_the_largest_recommended_deck_fills_both_sides_of_an_a5_card_at_9_points_or_more(run, tmp_path, game_id,
                                                                                         players):
    """Type as large as the sheet allows: both sides inked down to their last fifth, 9 pt or more
    (the back of a 10-player One Night Ultimate Werewolf card was three quarters empty at 7.5); a
    card too short to fill them is at the largest type."""
    env = make_env(games_dir=write_examples(tmp_path / "scripts")) if game_id in EXAMPLES else None
    path, said = make_card(run, tmp_path, "--game", game_id, "--players", str(players), env=env)
    body = float(re.search(r"text at ([\d.]+) pt", said)[1])
    assert body >= 9
    subprocess.run(["pdftoppm", "-gray", "-r", "36", str(path), str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page*.pgm"))
    assert len(pages) == 2
    if body == LARGEST:  # a short card: no larger type to fill the sheet with
        return
    for page in pages:
        image = read_pgm(page)
        inked = np.flatnonzero((image < 200).any(axis=1))
        assert inked[-1] > 0.8 * image.shape[0], page.name


@pytest.mark.parametrize("game_id, players, size, lang, heading", [
    ("one-night-ultimate-werewolf", 10, "a5", "en", "The night (continued)"),
    ("lupus-in-tabula", 24, "a6", "it", "La notte (segue)")])
def test_a_night_too_long_for_the_front_runs_on_to_the_back_under_its_heading(run, tmp_path, game_id, players, size,
                                                                              lang, heading):
    """On as many pages as the night takes (A6: more than two at 9 pt), each after the first
    headed again; the day follows the night on the last."""
    path, _said = make_card(run, tmp_path, "--game", game_id, "--players", str(players), "--size", size,
                            "--lang", lang)
    front, *backs = (flat(pdf_page_text(path, page)) for page in range(1, pdf_info(path)[0] + 1))
    day = SHIPPED[game_id].languages[lang].card["day"]
    (first_day,) = [index for index, back in enumerate(backs) if day + " " in back]  # the day follows the night
    assert all(back.startswith(heading + " ") for back in backs[:first_day + 1] if not back.startswith(day + " "))
    assert heading not in front and backs[0].startswith(heading + " ")


def pdf_page_text(path, page):
    return subprocess.run(["pdftotext", "-enc", "UTF-8", "-f", str(page), "-l", str(page), str(path), "-"],
                          capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("lang, title, moderator", [("it", "Tessera del narratore", "moderat"),
                                                    ("en", "Speaker card", "moderator")])
def test_the_vecchio_saggio_card_speaks_of_no_moderator(run, tmp_path, lang, title, moderator):
    """Without a moderator (the Vecchio Saggio's game), neither the card's title nor its setup names
    one; with one, the card is the moderator's."""
    path, _said = make_card(run, tmp_path, "--game", "lupus-in-tabula", "--players", "8", "--variant",
                            "vecchio-saggio", "--lang", lang)
    text = flat(pdf_text(path))
    assert text.startswith(f"Lupus in Tabula · {title} ")
    assert moderator not in text.lower()
    path, _said = make_card(run, tmp_path, "--game", "lupus-in-tabula", "--players", "8", "--lang", lang)
    assert moderator in flat(pdf_text(path)).lower()


def pdf_raw_text(path, page=None):
    """The text in the order it is drawn (a table's cells one after another), flattened."""
    pages = ["-f", str(page), "-l", str(page)] if page else []
    return flat(subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", *pages, str(path), "-"], capture_output=True,
                               text=True, check=True).stdout)


TWELVE = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ida", "Luca", "Marta", "Nino", "Olga"]


@pytest.mark.parametrize("game_id", ["lupus-in-tabula", "learts-variant"])
@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_moderators_sheet_seats_the_players_and_heads_the_games_own_columns(run, tmp_path, game_id, lang):
    """12 players named: the seating in order with a column for each one's card, then the grid of
    the nights and the grid of the days, headed with the game's columns, a row a night (a day)."""
    from narrator.core.sheet import sheet_content

    game = SHIPPED[game_id]
    path = tmp_path / "foglio.pdf"
    result = run("--game", game_id, "card", "--players", "12", "--sheet", "--names", ",".join(TWELVE), "--lang", lang,
                 "-o", str(path))
    assert result.exit_code == 0, result.stderr
    said = {"en": r"wrote {file} \(A4, 2 pages, (\d+) nights and days to mark\)",
            "it": r"scritto {file} \(A4, 2 pagine, (\d+) notti e giorni da segnare\)"}[lang]  # in the game's language
    rounds = int(re.fullmatch(f"narrate: {said.format(file=path)}\n", result.stdout)[1])
    assert rounds >= 6
    expected = sheet_content(game, recommended_deck(game, 12), lang, game.option_defaults, 12, TWELVE)
    seating, grids = pdf_raw_text(path, 1), pdf_raw_text(path, 2)
    assert seating.startswith(f"{expected.title} {expected.deck} {expected.cards} {expected.seating} "
                              f"{' '.join(expected.seat_headers)} ")
    assert seating.endswith(" ".join(f"{number} {name}" for number, name in enumerate(TWELVE, start=1)))
    numbers = " ".join(str(number) for number in range(1, rounds + 1))
    assert grids == (f"{expected.nights} {expected.night} {' '.join(expected.night_columns)} {numbers} "
                     f"{expected.days} {expected.day} {' '.join(expected.day_columns)} {numbers}")


def test_the_sheet_can_carry_narrates_deal(run, tmp_path):
    """--deal: narrate deals the deck to the seats (numbered, without --names), one card each, and
    says how to play the game with that deal."""
    game = SHIPPED["lupus-in-tabula"]
    path = tmp_path / "foglio.pdf"
    result = run("--game", "lupus-in-tabula", "card", "--players", "9", "--sheet", "--deal", "--size", "a5",
                 "--lang", "en", "-o", str(path))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1] == ("narrate: hand out the cards as the sheet says, then play with --dealt "
                                             "and type them in")
    seating = pdf_raw_text(path, 1)
    rows = re.findall(r"(\d) (Werewolf|Villager|Seer|Medium)(?= |$)", seating.split(" Notes ", 1)[1])
    assert [int(number) for number, _card in rows] == list(range(1, 10))
    language = game.languages["en"]
    dealt = sorted(card for _number, card in rows)
    assert dealt == sorted(language.role_name(role) for role, copies in recommended_deck(game, 9).counts
                           for _copy in range(copies))


@pytest.mark.parametrize("args, message", [
    (["--players", "6", "--sheet"],
     "narrate card: --sheet is the moderator's sheet, and this game of Una Notte da Lupi has no moderator "
     "(see 'narrate card --help')"),
    (["--game", "one-night-ultimate-werewolf", "--players", "6", "--sheet"],
     "narrate card: --sheet is the moderator's sheet, and this game of One Night Ultimate Werewolf has no moderator "
     "(see 'narrate card --help')"),
    (["--game", "lupus-in-tabula", "--players", "8", "--sheet", "--variant", "vecchio-saggio"],
     "narrate card: --sheet is the moderator's sheet, and this game of Lupus in Tabula has no moderator "
     "(see 'narrate card --help')"),
    (["--game", "lupus-in-tabula", "--players", "8", "--deal"],
     "narrate card: --deal goes with --sheet (see 'narrate card --help')"),
    (["--game", "lupus-in-tabula", "--players", "8", "--names", "A,B,C,D,E,F,G,H"],
     "narrate card: --names goes with --sheet (see 'narrate card --help')"),
    (["--game", "lupus-in-tabula", "--players", "8", "--sheet", "--day-minutes", "4"],
     "narrate card: --day-minutes is printed on the card: leave it out with --sheet (see 'narrate card --help')"),
    (["--game", "lupus-in-tabula", "--players", "8", "--sheet", "--size", "a6"],
     "narrate: the moderator's sheet needs room to write in: choose --size a5, a4, letter, not a6"),
    (["--game", "lupus-in-tabula", "--players", "8", "--sheet", "--names", "A,B"],
     "narrate: the deck is for 8 players and 2 names are given: name each of the 8"),
])
def test_a_sheet_where_there_is_none_or_cannot_be_is_refused_in_one_line(run, tmp_path, args, message):
    result = run("card", *args, "--lang", "en", "-o", str(tmp_path / "foglio.pdf"))
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", message + "\n")
    assert not list(tmp_path.glob("*.pdf"))


def test_a_sheet_for_the_players_named_needs_no_player_count(run, tmp_path):
    path = tmp_path / "foglio.pdf"
    result = run("--game", "learts-variant", "card", "--sheet", "--names", ",".join(TWELVE[:9]), "--lang", "en",
                 "-o", str(path))
    assert result.exit_code == 0, result.stderr
    seating = pdf_raw_text(path, 1)
    assert "The deck: 9 players, 9 cards" in seating
    assert seating.endswith(" ".join(f"{number} {name}" for number, name in enumerate(TWELVE[:9], start=1)))


@pytest.mark.parametrize("size", ["a5", "a4", "letter"])
def test_the_sheet_of_the_most_players_keeps_inside_the_margins(run, tmp_path, size):
    path = tmp_path / "foglio.pdf"
    result = run("--game", "learts-variant", "card", "--players", "24", "--sheet", "--size", size, "-o", str(path))
    assert result.exit_code == 0, result.stderr
    dpi = 72
    subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), str(path), str(tmp_path / "page")], check=True)
    margin = int(PRINTABLE_MM / 25.4 * dpi)
    pages = sorted(tmp_path.glob("page*.pgm"))
    assert len(pages) == 2
    for page in pages:
        ink = read_pgm(page) < 200
        assert ink.any()
        ink[margin:-margin, margin:-margin] = False
        assert not ink.any(), f"{page.name}: ink within {PRINTABLE_MM} mm of the edge"


def started_game(tmp_path, seed):
    """A Wherewolf in Tabula game of 8 started on the command line with the set drawn with ``seed``,
    stopped at the deal: the file narrate keeps it in, and its setup."""
    from test_game_lupus import invoke, lupus_env, saved_game

    env = lupus_env(tmp_path, "en", seed=seed)
    result = invoke(env, ["--game", "wherewolf-in-tabula", "--players", "8", "--no-ambience", "--names",
                          ",".join(TWELVE[:8])], ["q"])
    assert "the game is saved" in result.output and f"random deck drawn with --seed {seed}" in result.output
    (path,) = (tmp_path / "data" / "games").glob("*.json")
    return path, saved_game(env)["setup"]


def test_the_card_and_the_sheet_of_a_saved_game_print_the_set_in_play_not_a_new_draw(run, tmp_path):
    """Issue 39, point 9: a game that draws its set, started (and saved) with one draw: 'narrate card
    --saved' prints that set in the game's language, and '--sheet --saved FILE' its players, each
    with the card dealt, where a card asked for anew draws another set."""
    from narrator.core.deck import make_deck

    path, setup = started_game(tmp_path, seed=5)
    game = SHIPPED["wherewolf-in-tabula"]
    language = game.languages["en"]
    cards = ", ".join(f"{copies}× {language.role_name(role)}" for role, copies in make_deck(game, setup["deck"]).counts)
    other = make_env(data_home=tmp_path / "data", seed=777)  # a new draw's seed
    card, _said = make_card(run, tmp_path, "--saved", env=other)
    assert cards in flat(pdf_text(card))
    fresh = run("--game", "wherewolf-in-tabula", "card", "--players", "8", "-o", str(card), env=other)
    assert cards not in flat(pdf_text(card))  # the new draw is another set, and narrate says where the game's is
    assert fresh.stderr.splitlines()[-1] == ("narrate: a new draw, not the set of the game in play: 'narrate card "
                                             "--saved' prints that one")
    card, _said = make_card(run, tmp_path, "--game", "wherewolf-in-tabula", "--players", "8", "--seed", "5", env=other)
    assert cards in flat(pdf_text(card))  # the seed the game was drawn with draws it again
    sheet, _said = make_card(run, tmp_path, "--game", "wherewolf-in-tabula", "--sheet", "--players", "8", "--seed", "5",
                             env=other)
    assert cards in pdf_raw_text(sheet, 1)
    sheet, said = make_card(run, tmp_path, "--sheet", "--saved", str(path), env=other)
    seating = pdf_raw_text(sheet, 1)
    assert seating.endswith(" ".join(f"{number} {name} {language.role_name(setup['cards'][name])}"
                                     for number, name in enumerate(setup["seating"], start=1)))


@pytest.mark.parametrize("args, option", [(["--players", "8"], "--players"), (["--seed", "3"], "--seed"),
                                          (["--lang", "it"], "--lang"), (["--sheet", "--names", "A,B"], "--names")])
def test_a_saved_games_card_takes_nothing_the_game_already_says(run, tmp_path, args, option):
    """The set, the players, the options, the language and the cards are the saved game's: one line, exit 2."""
    started_game(tmp_path, seed=5)
    result = run("card", "--saved", *args, "-o", str(tmp_path / "c.pdf"), env=make_env(data_home=tmp_path / "data"))
    assert result.exit_code == 2
    said = "--saved stampa la partita salvata così come si gioca: togli" if option == "--lang" else \
        "--saved prints the saved game as it is played: leave out"
    assert re.fullmatch(f"narrate card: {said} {option} \\((see|vedi) 'narrate card --help'\\)\n", result.stderr)


def test_a_saved_game_whose_set_the_rules_refuse_prints_no_card(run, tmp_path):
    """A file edited by hand: a set the game's rules refuse is named in one line, exit 2, as 'narrate
    resume' refuses it, and no card is written."""
    import json

    path, setup = started_game(tmp_path, seed=5)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["setup"]["deck"] = {"veggente": 8}
    data["setup"]["cards"] = dict.fromkeys(setup["seating"], "veggente")
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run("card", "--saved", str(path), "-o", str(tmp_path / "c.pdf"), env=make_env(data_home=tmp_path / "data"))
    assert result.exit_code == 2
    # the file named first (a long path shortened with an ellipsis), then why its set is refused
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(f"narrate: {str(path)[:20]}")
    assert "the box has only 1 'veggente' card" in result.stderr
    assert not (tmp_path / "c.pdf").exists()


def test_a_saved_games_card_with_game_named_is_the_latest_game_of_that_game(run, tmp_path):
    """Two games kept, Wherewolf in Tabula then Lupus in Tabula: 'narrate card --saved' prints the
    newest, and with --game the newest of that game."""
    from test_game_lupus import invoke, lupus_env

    _path, setup = started_game(tmp_path, seed=5)
    invoke(lupus_env(tmp_path), ["--game", "lupus-in-tabula", "--players", "8", "--no-ambience", "--names",
                                 ",".join(TWELVE[:8])], ["q"])
    env = make_env(data_home=tmp_path / "data")
    card, _said = make_card(run, tmp_path, "--saved", env=env)
    assert flat(pdf_text(card)).startswith("Lupus in Tabula · ")
    card, _said = make_card(run, tmp_path, "--game", "wherewolf-in-tabula", "--saved", env=make_env(
        data_home=tmp_path / "data"))
    game = SHIPPED["wherewolf-in-tabula"]
    assert flat(pdf_text(card)).startswith("Wherewolf in Tabula · ")
    assert len(setup["deck"]) > 0 and all(game.languages["en"].role_name(role) in flat(pdf_text(card))
                                          for role in setup["deck"])
