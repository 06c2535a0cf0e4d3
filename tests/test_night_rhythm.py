"""The night sounds the same whatever the cards (issue 40, point 1).

Two games of the same table (the same seats, set of Possibili, options) differ only in which
roles are dealt and, from night 2, in who is dead. Each is played whole at the terminal, with the
clock injected, by a bot moderator whose wait before answering depends only on where the night
is (how many of its parts have been heard), never on the turn's character, whether its card is
dealt or its holder alive. What the table hears (each part of the night: its sound, and when it
starts) and what a tablet would be sent for it (the box's state, as tablets get it) must be the
same in both, to the sample and to the millisecond.
"""

import hashlib
import json
import random
from types import MappingProxyType

import click
import pytest
from test_game_lupus import lupus_env, typed_for
from test_rounds import NAMES, random_entry

from narrator.core.deck import build_deck, make_deck
from narrator.core.rounds import Over, Rounds, Setup
from narrator.core.script import INTRO_PHASE, OUTRO_PHASE
from narrator.games import GAMES_DIR
from narrator.games.loader import load_game
from narrator.shell.savedgames import SavedGame
from narrator.shell.speakerbox.server import for_tablets
from narrator.shell.speakerbox.state import Box


class TimedPlayer:
    """The sound card, in the injected clock's time: a part of the night takes its length to play.
    It keeps what the table hears (each part's sound and when it starts) and what the tablets are
    sent for it (the box's state as a tablet gets it as the part is loaded and as it starts, as
    ``BoxTable.load`` and ``play_part`` make it)."""

    name = "timed"
    audible = True

    def __init__(self, clock):
        self.clock = clock
        self.heard: list[tuple[float, str]] = []  # (when, the part's sound as a digest)
        self.frames: list[tuple[float, str]] = []  # (when, a tablet's message)
        self.nights: list[tuple[int, int, float]] = []  # where each night begins: (part, frame, when)
        self.box = Box(0.0, [], clock, on_change=self._sent)
        self._last_phase = OUTRO_PHASE

    def _sent(self) -> None:
        message = for_tablets({**self.box.snapshot(), "night_id": "", "language": "en"})
        self.frames.append((self.clock(), json.dumps(message, sort_keys=True)))

    def play(self, night, session) -> bool:
        from narrator.shell.speakerbox.game import count_windows

        starts = night.phase_starts()
        if starts[0][0] == INTRO_PHASE and self._last_phase == OUTRO_PHASE:
            self.nights.append((len(self.heard), len(self.frames), self.clock()))
        self._last_phase = starts[-1][0]
        self.heard.append((self.clock(), hashlib.sha256(night.render().tobytes()).hexdigest()[:16]))
        self.box.new_night(night.seconds, [(start / night.rate, phase) for phase, start in starts],
                           count_windows(night))
        self.box.start_night(lead=0.0)
        self.clock.sleep(night.seconds)
        return True

    def timelines(self) -> list[tuple[list, list]]:
        """Each night's parts heard and tablet messages, timed from the night's first sound."""
        bounds = [*self.nights, (len(self.heard), len(self.frames), 0.0)]
        return [([(round(when - began, 6), part) for when, part in self.heard[part:next_part]],
                 [(round(when - began, 6), frame) for when, frame in self.frames[frame:next_frame]])
                for (part, frame, began), (next_part, next_frame, _) in zip(bounds, bounds[1:], strict=False)]


class Moderator:
    """Types the planned answers; before the first answer after a part of the night is heard, waits
    a time that depends only on how many parts of this night have been heard so far."""

    def __init__(self, player: TimedPlayer, lines: list[str]):
        self.player, self.lines = player, list(lines)
        self.answered_at = 0  # the parts heard when it last answered

    def __call__(self, prompt: str = "") -> str:
        heard = len(self.player.heard)
        if heard != self.answered_at:
            place = heard - (self.player.nights[-1][0] if self.player.nights else 0)
            self.player.clock.sleep(1.7 + 3.1 * (place % 5))
            self.answered_at = heard
        return self.lines.pop(0)


def table(game, players: int, deal_seed: int, options: dict) -> Setup:
    """The table's setup: its seats and set of Possibili fixed, the deal (and, when the game draws
    its set from the Possibili, the set drawn) from ``deal_seed``."""
    names = NAMES[:players]
    if game.draws_set:
        deck = build_deck(game, players=players, rng=random.Random(deal_seed), options=options)[0]
    else:
        deck = make_deck(game, game.recommended_decks[players])
    cards = [role for role, copies in deck.counts for _copy in range(copies)]
    random.Random(deal_seed).shuffle(cards)
    return Setup(tuple(names), MappingProxyType(deck.as_dict()), MappingProxyType(options),
                 dict(zip(names, cards, strict=True)), MappingProxyType(dict(deck.possible)))


def played(tmp_path, game, setup: Setup, seed: int) -> tuple[TimedPlayer, Rounds]:
    """The game of ``setup`` played whole at the terminal by the bot moderator (its answers planned
    with ``seed``); what the table heard and the tablets were sent."""
    from narrator.shell.cli.rounds import run_rounds

    env = lupus_env(tmp_path)
    env.use_game(game.id)
    player = TimedPlayer(env.clock)
    env.player = lambda: player
    rounds, rng, typed = Rounds(game, setup), random.Random(seed), []
    while not isinstance(rounds.step, Over):
        entry = random_entry(rounds.step, rng)
        typed += typed_for(game, rounds.step, entry, env)
        rounds.enter(entry)
    options = {"engine": None, "voice": None, "rate": None, "voice_pack": None, "ambience": "drums",
               "no_ambience": True, "host": "0.0.0.0", "port": 8765, "laptop_audio": True, "count_style": "edges",
               "countdown": None, "speaker_box": False, "count_seconds": 10, "slot_seconds": {}, "day_seconds": 20}
    saved = SavedGame(tmp_path / "game.json", game.id, "en", options, setup)
    bot = Moderator(player, typed)
    prompting = click.termui.visible_prompt_func
    click.termui.visible_prompt_func = bot
    try:
        run_rounds(env, saved, None)
    finally:
        click.termui.visible_prompt_func = prompting
    assert saved.entries == rounds.entries and not bot.lines  # each planned answer went to its step
    return player, rounds


def tables(game, rounds: Rounds) -> list[tuple[dict, frozenset[str]]]:
    """Each night's cards and dead, as the night begins."""
    from narrator.core.rounds import PhaseStep

    replayed, found = Rounds(game, rounds.setup), []
    for entry in rounds.entries:
        step = replayed.step
        if isinstance(step, PhaseStep) and step.phase == INTRO_PHASE:
            found.append((dict(step.state.cards), frozenset(step.state.dead)))
        replayed.enter(entry)
    return found


@pytest.mark.parametrize(("game_id", "players", "deals", "alike"), [
    ("lupus-in-tabula", 8, (3, 4), None), ("wherewolf-in-tabula", 12, (3, 4), None),
    ("wherewolf-revised", 12, (3, 5), None),
    # LeartS' digest does not call a dead character's turn (its rules' exception, README): only
    # nights that begin with nobody dead sound alike there, whoever holds which card
    ("learts-variant", 8, (3, 4), 1)])
def test_the_night_sounds_the_same_whoever_holds_the_cards_and_whoever_is_dead(tmp_path, game_id, players, deals,
                                                                                alike):
    game = load_game(GAMES_DIR / game_id)
    setups = [table(game, players, seed, dict(game.option_defaults)) for seed in deals]
    assert setups[0].cards != setups[1].cards and setups[0].possible == setups[1].possible
    games = [played(tmp_path / str(seed), game, setup, seed=seed) for seed, setup in zip(deals, setups, strict=True)]
    (first, first_rounds), (second, second_rounds) = games
    nights = min(len(first.nights), len(second.nights))
    assert nights >= 2, "both games reach a second night"
    dead = [tables(game, rounds)[:nights] for rounds in (first_rounds, second_rounds)]
    assert [dead_then for _cards, dead_then in dead[0]] != [dead_then for _cards, dead_then in dead[1]]
    if alike is not None:
        assert not dead[0][alike - 1][1] and not dead[1][alike - 1][1]
        nights = alike
    if game.draws_set:  # roles dealt in one game are not in the other
        assert set(setups[0].cards.values()) != set(setups[1].cards.values())
    timelines = [player.timelines()[:nights] for player in (first, second)]
    for night, ((heard, sent), (heard_too, sent_too)) in enumerate(zip(*timelines, strict=True), 1):
        assert heard == heard_too, f"night {night}: heard otherwise"
        assert sent == sent_too, f"night {night}: the tablets told otherwise"
