"""The generated night of every recommended deck, in both languages, against reviewed files.

After an intended change to lines, order or timing, regenerate and review the diff:
    python -m pytest tests/test_golden.py --update-golden
"""

import os
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"

CASES = [(["script", "--players", str(players), "--lang", lang], f"script-{players}p-{lang}.txt")
         for players in range(3, 11) for lang in ("it", "en")]
CASES += [
    (["script", "--players", "10", "--lang", "en", "--format", "json"], "script-10p-en.json"),
    (["script", "--players", "8", "--lang", "it", "--count-style", "full", "--option", "tips=off"], "script-8p-it-full.txt"),
    (["deck", "--players", "10", "--lang", "en"], "deck-10p-en.txt"),
    (["roles", "--lang", "it"], "roles-it.txt"),
]
ONUW = "one-night-ultimate-werewolf"
# Every Daybreak turn and the Doppelgänger's every step: her immediate actions, the Minion's
# thumbs, her three later turns, the centre werewolf, the Dream Wolf's thumb.
DAYBREAK = ("doppelganger, werewolf, alpha-wolf, mystic-wolf, dream-wolf, minion, sentinel, seer, "
            "paranormal-investigator, witch, insomniac, revealer, curator")
CASES += [(["--game", ONUW, "script", "--players", str(players), "--lang", lang], f"{ONUW}/script-{players}p-{lang}.txt")
          for players in range(3, 11) for lang in ("en", "it")]
CASES += [
    (["--game", ONUW, "script", "--deck", DAYBREAK, "--lang", lang], f"{ONUW}/script-daybreak-10p-{lang}.txt")
    for lang in ("en", "it")
]
CASES += [
    (["--game", ONUW, "deck", "--deck", DAYBREAK, "--lang", "en"], f"{ONUW}/deck-daybreak-en.txt"),
    (["--game", ONUW, "script", "--players", "10", "--lang", "en", "--format", "json"], f"{ONUW}/script-10p-en.json"),
    (["--game", ONUW, "roles", "--lang", "en"], f"{ONUW}/roles-en.txt"),
    (["--game", ONUW, "roles", "--lang", "it"], f"{ONUW}/roles-it.txt"),
]

LUPUS = "lupus-in-tabula"
# The first three nights of decks that, between them, hold every character: the first night
# (Massoni, the lupi only meeting), the second (Medium, Guardia, Mitomane) and any later one.
CASES += [(["--game", LUPUS, "script", "--players", str(players), "--lang", lang, "--night", str(night)],
           f"{LUPUS}/script-{players}p-night{night}-{lang}.txt")
          for players in (8, 16) for night in (1, 2, 3) for lang in ("it", "en")]
CASES += [
    (["--game", LUPUS, "script", "--players", "8", "--lang", "it", "--option", "vecchio-saggio=on"],
     f"{LUPUS}/script-8p-vecchio-saggio-it.txt"),
    (["--game", LUPUS, "script", "--players", "16", "--lang", "it", "--night", "2", "--option",
      "minaccia-fantasma=on"], f"{LUPUS}/script-16p-night2-minaccia-fantasma-it.txt"),
    (["--game", LUPUS, "deck", "--players", "24", "--lang", "it"], f"{LUPUS}/deck-24p-it.txt"),
    (["--game", LUPUS, "roles", "--lang", "it"], f"{LUPUS}/roles-it.txt"),
    (["--game", LUPUS, "roles", "--lang", "en"], f"{LUPUS}/roles-en.txt"),
]

LEARTS = "learts-variant"
# Every turn: the lovers' first night, the martire's and the becchino's (called by the rules only
# on the night after a burning, printed here as the deck's), with each option's lines.
CASES += [(["--game", LEARTS, "script", "--players", str(players), "--lang", lang, "--night", str(night)],
           f"{LEARTS}/script-{players}p-night{night}-{lang}.txt")
          for players in (8, 17) for night in (1, 2) for lang in ("it", "en")]
CASES += [
    (["--game", LEARTS, "script", "--players", "17", "--lang", "it", "--option", "martire-protezione=on", "--option",
      "amanti-scelgono=on"], f"{LEARTS}/script-17p-options-it.txt"),
    (["--game", LEARTS, "deck", "--players", "24", "--lang", "it"], f"{LEARTS}/deck-24p-it.txt"),
    (["--game", LEARTS, "roles", "--lang", "it"], f"{LEARTS}/roles-it.txt"),
    (["--game", LEARTS, "roles", "--lang", "en"], f"{LEARTS}/roles-en.txt"),
]

WIT = "wherewolf-in-tabula"
# The set is drawn (--seed fixes it) and every turn of its Possibili is called: the first night
# (the Priest, the Necromancer with the Hag and the Gravedigger, the wolves meeting, the Poacher,
# the Monk), the second (the Medium, the Witch, the Healer, the wolves' choice, the signal) and
# any later one; 24 players bring the Lone Wolf.
CASES += [(["--game", WIT, "script", "--players", str(players), "--lang", lang, "--night", str(night), "--random",
            "--seed", "1"], f"{WIT}/script-{players}p-night{night}-{lang}.txt")
          for players in (8, 16, 24) for night in (1, 2, 3) for lang in ("it", "en")]
CASES += [
    (["--game", WIT, "script", "--players", "16", "--lang", "it", "--night", "2", "--random", "--seed", "1",
      "--option", "necromancing=off"], f"{WIT}/script-16p-night2-no-necromancing-it.txt"),
    (["--game", WIT, "deck", "--players", "24", "--lang", "it", "--random", "--seed", "1"], f"{WIT}/deck-24p-it.txt"),
    (["--game", WIT, "deck", "--players", "12", "--lang", "en", "--random", "--seed", "5"], f"{WIT}/deck-12p-en.txt"),
    (["--game", WIT, "roles", "--lang", "it"], f"{WIT}/roles-it.txt"),
    (["--game", WIT, "roles", "--lang", "en"], f"{WIT}/roles-en.txt"),
]

WR = "wherewolf-revised"
# The Possibili are the group's (the project's list for the players, or --possible) and every
# turn of theirs is called, with the Criminali's beat before each mystic from the second night: a
# game of one moon and one of two moons (the lovers, the Criminali, the guards, the Vampiro), the
# Amuleto's and the Spada's turns with those options.
CASES += [(["--game", WR, "script", "--players", str(players), "--lang", lang, "--night", str(night), "--random",
            "--seed", "1", *moons], f"{WR}/script-{players}p-{name}-night{night}-{lang}.txt")
          for players, name, moons in ((10, "one-moon", ("--option", "due-lune=off")), (14, "two-moons", ()))
          for night in (1, 2, 3) for lang in ("it", "en")]
CASES += [
    (["--game", WR, "script", "--players", "14", "--lang", "it", "--night", "2", "--random", "--seed", "1",
      "--option", "amuleto=on", "--option", "spada=on"], f"{WR}/script-14p-amulet-sword-night2-it.txt"),
    (["--game", WR, "deck", "--players", "14", "--lang", "it", "--random", "--seed", "1"], f"{WR}/deck-14p-it.txt"),
    (["--game", WR, "deck", "--players", "9", "--lang", "en", "--random", "--seed", "2", "--possible",
      "veggente, capo-branco, lupo-del-branco, traditore, strega, mago, contadino x2, ladra, oste, bardo, monaco"],
     f"{WR}/deck-9p-possible-en.txt"),
    (["--game", WR, "roles", "--lang", "it"], f"{WR}/roles-it.txt"),
    (["--game", WR, "roles", "--lang", "en"], f"{WR}/roles-en.txt"),
]


@pytest.mark.parametrize("args, name", CASES, ids=[name for _, name in CASES])
def test_output_matches_golden_file(run, request, args, name):
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    path = GOLDEN / name
    if request.config.getoption("--update-golden"):
        path.parent.mkdir(exist_ok=True)
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(result.stdout, encoding="utf-8")
        os.replace(temporary, path)
    assert path.exists(), f"no golden file {path.name}: run pytest with --update-golden and review it"
    assert result.stdout == path.read_text(encoding="utf-8")
