"""How fast a tablet's page moves where it plays: told to the page (box.js reads these from a
JSON block of the page it is served in) and known to the laptop's ear, which leaves a page it
moved the time it takes to get there before it reads it again. One place for both, so the two
cannot disagree.
"""

import json

SLEW = 0.004  # at most this much faster or slower (seconds a second) while a page catches up with where it
# should be, by its timestamps or by what the laptop heard: 0.4 %, a pitch no listener hears move
JUMP = 0.006  # a page further off than this cross-fades to where it should be instead (a short fade, at most
# once a second): two copies of the night this far apart already sound doubled
DELAY_SLEW = 0.002  # a new speaker delay set while the night has voice moves this fast (seconds a second)


def told() -> str:
    """The page's pace as the JSON block box.js reads (``{{pace}}`` in its page)."""
    return json.dumps({"slew": SLEW, "jump": JUMP, "delay_slew": DELAY_SLEW})


def settling(seconds: float, by_delay: bool) -> float:
    """Seconds a page takes to move by ``seconds`` while the night has voice: its speaker delay at
    DELAY_SLEW; its course at SLEW, or at once from JUMP (box.js ``followHeard``). At full speed:
    a course's last 4 ms (SLEW × 1 s) go proportionally slower, which the ear's read after it
    covers (a page still moving is not read the same twice)."""
    if by_delay:
        return abs(seconds) / DELAY_SLEW
    return 0.0 if abs(seconds) >= JUMP else abs(seconds) / SLEW
