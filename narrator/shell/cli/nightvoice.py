"""The voice of a game of many nights: a part of the night at a time, and sentences with
players' names in them, said by the text-to-speech engine."""

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import click

from narrator.core.errors import NarratorError, Stopped
from narrator.core.script import Count, NightScript
from narrator.shell.translation import _, say

if TYPE_CHECKING:  # loaded when first needed
    from narrator.shell.audio.voices import VoiceSource
    from narrator.shell.speakerbox.game import BoxTable


def opens(script: NightScript, segments) -> bool:
    """Whether a part of ``script`` is its opening (the bed fades in as the night begins)."""
    return bool(segments) and segments[0] == script.segments[0]


class NightVoice:
    """The night's lines as the game reaches them, and sentences with the players' names in them
    (no voice pack has those: the text-to-speech engine says them; they are always shown)."""

    def __init__(self, env, lang: str, audio, waiting: str | None):
        self.env, self.lang, self.audio = env, lang, audio
        self.waiting = waiting  # what the group is waited for before this run's first sound (ready.py)
        self._players: list | None = None
        self._source: VoiceSource | None = None
        self._silent = False
        self._make_speaker: Callable[..., Any] | None = None  # how sentences are said here: found at the first one

    def players(self):
        from narrator.shell.audio.night import write_night
        from narrator.shell.audio.player import choose_players, plan
        from narrator.shell.cli.play import NIGHT_FILE

        if self._players is None:
            if self.env.player:
                self._players = [self.env.player()]
            else:
                self._players, reason = choose_players(write_night, self.env.nights_dir() / NIGHT_FILE,
                                                       problem=self.env.sound_problem, which=self.env.which)
                if not self._players[0].audible and reason is not None:  # (PortAudio's reason, when none is heard)
                    click.echo(_("narrate: {reason}; the narrator's lines are shown here: read them aloud").format(
                        reason=say(reason)), err=True)
                elif reason:
                    click.echo(f"narrate: {say(plan(self._players[0], reason))}", err=True)
        return self._players

    def whole_night(self, script: NightScript) -> None:
        from narrator.shell.cli.day import wait_for_go
        from narrator.shell.cli.play import play

        waiting, self.waiting = self.waiting, None
        if not play(self.env, script.settings, script, self.audio, waiting) and not wait_for_go():
            raise Stopped

    def ready(self) -> None:
        """Before the first sound of this run, the group is waited for (once)."""
        from narrator.shell.cli.ready import wait_for_group

        waiting, self.waiting = self.waiting, None
        wait_for_group(waiting)

    def resumed(self, script: NightScript, stage: str = "night") -> None:
        """A resumed game: everyone sits down again before anything more is said or asked
        (``script``: the night the game is in; ``stage``: "night", "day" before its discussion,
        or "vote" when the day's discussion is over)."""
        self.ready()

    def part(self, script: NightScript, segments) -> None:
        """Speak some of the night's segments (a turn's opening and count, or its close)."""
        if not segments:
            return
        from narrator.shell.audio.console import terminal_session
        from narrator.shell.audio.mix import DEFAULT_MIX
        from narrator.shell.audio.night import night_audio
        from narrator.shell.audio.player import play_night
        from narrator.shell.cli.options import phase_labels

        players = self.players()
        self.ready()  # the deal comes before the night, heard here or read aloud from the screen
        if not players[0].audible:
            for segment in segments:
                if isinstance(segment, Count):
                    click.echo(_("  » count {seconds} seconds").format(seconds=segment.seconds))
                else:
                    click.echo(f"  » {segment.text}")
            return
        part = replace(script, segments=tuple(segments))
        audio = night_audio(self.env, part, self.audio, DEFAULT_MIX if opens(script, segments) else
                            DEFAULT_MIX.carrying_on())
        with terminal_session(phase_labels(self.env, self.lang)) as session:
            if not play_night(players, audio, session):
                raise Stopped

    def announce(self, text: str, key: str | None = None) -> None:
        """Show ``text`` and say it: the voice pack's line ``key`` when it has one, else the
        text-to-speech engine (a sentence with a name in it has no key)."""
        click.echo(text)
        if self._silent:
            return
        if self.env.speaker is not None:
            self.ready()
            speaker = self.env.speaker()
            speaker.say(key or text)
            speaker.close()
            return
        if not self.players()[0].audible:  # no sound here: shown, as the night's lines are
            self.ready()
            self._silent = True
            return
        from narrator.shell.audio.clip import prepare_voice
        from narrator.shell.audio.speaker import silent_speaker

        raw = self.line(text, key)
        if raw is None or self._source is None:  # (the source is made with the first line)
            return
        make_speaker = self.speaker_maker()
        if make_speaker is silent_speaker:
            self._silent = True
            return
        speaker = make_speaker({"announcement": prepare_voice(raw, 48000, self._source.cache)})
        self.ready()
        speaker.say("announcement")
        speaker.close()

    def speaker_maker(self):
        """How lines are said here: found once a game (a probe of the sound output, maybe a
        command-line player tried), and why it is not the best way said once."""
        from narrator.shell.audio.speaker import speaker_maker

        if self._make_speaker is None:
            self._make_speaker, reason = speaker_maker(self.env.sound_problem, self.env.which)
            if reason:
                click.echo(f"narrate: {say(reason)}", err=True)
        return self._make_speaker

    def line(self, text: str, key: str | None):
        """The sound of a sentence: the pack's line ``key``, else the engine's; None (and said
        once why) when neither can make it: from then on sentences are shown only."""
        from narrator.shell.audio.night import voice_source

        try:
            if self._source is None:
                self._source = voice_source(self.env, self.lang, self.audio)
            return self._source.raw_clip(key or "announcement", text)
        except NarratorError as error:
            self._silent = True
            click.echo(_("narrate: names are shown, not said: {reason}").format(reason=say(error)), err=True)
            return None

    def day(self, seconds: int, rules) -> None:
        from narrator.shell.cli.day import run_the_day

        self.ready()
        run_the_day(self.env, self.lang, seconds, self.audio, rules,
                    None if self.env.speaker is not None else self.speaker_maker())

    def open_day(self) -> None:
        """A day off the clock begins (its discussion lasts until the moderator calls the vote)."""

    def call_vote(self) -> None:
        """The vote of a day off the clock is called."""

    def result(self, lines: list[str], final: bool = True) -> None:
        pass  # the laptop's screen shows it already

    def close(self) -> None:
        pass


class BoxVoice(NightVoice):
    """The tablets of the speaker box as the voice: each night, or each part of one, served to them
    as it comes; the day on every tablet; sentences with names made here and said by all."""

    def __init__(self, env, lang: str, audio, rules, box_options: dict, waiting: str | None, console=None,
                 tokens: dict[str, str] | None = None):
        super().__init__(env, lang, audio, waiting)
        self.rules, self.box_options, self.console, self.tokens = rules, box_options, console, tokens
        self.table: BoxTable | None = None
        self._made = 0  # sentences made so far: each gets a key of its own

    def _load(self, script, carrying_on: bool = False, waits: bool = True, parts: str | None = None) -> "BoxTable":
        """The night's audio for the tablets (the box served with the first, which waits for
        Start unless ``waits`` is False). With ``parts``, the first is served as a game told in
        parts, at that stage from the first page that connects ("night", or a resumed game's "day"
        or "vote")."""
        from narrator.shell.cli.options import phase_labels

        labels = phase_labels(self.env, self.lang)
        if self.table is None:
            from narrator.shell.cli.ready import BOX_TEXTS
            from narrator.shell.speakerbox.game import BoxTable

            self.table = BoxTable(self.env, script, self.audio, self.lang, labels, self.rules, waiting=self.waiting,
                                  ready=_(BOX_TEXTS[self.waiting]) if waits else "", say=click.echo,
                                  warn=lambda text: click.echo(text, err=True), console=self.console, tokens=self.tokens,
                                  before_serving=None if parts is None else lambda box: _told_in_parts(box, parts),
                                  **self.box_options)
        else:
            self.table.load(script, labels, carrying_on)
        return self.table

    def whole_night(self, script: NightScript) -> None:
        self._load(script).night()

    def ready(self) -> None:
        pass  # the tablets' first night waits for Start, which is the group's go

    def resumed(self, script: NightScript, stage: str = "night") -> None:
        """A resumed game: the tablets and the console are served at once, wherever the game
        stopped. In the night, and before a day's discussion, the group's Start goes on (into a
        night of nothing to play, or into the day); in a day whose vote is on, nothing waits:
        every page shows the vote, and the phone the question in hand."""
        if self.table is not None:
            return
        table = self._load(replace(script, segments=()), waits=stage != "vote", parts=stage)
        if stage != "vote":
            table.night()

    def part(self, script: NightScript, segments) -> None:
        if not segments:
            return
        first = self.table is None
        table = self._load(replace(script, segments=tuple(segments)), carrying_on=not opens(script, segments),
                           parts="night")
        if first:  # the tablets join before the first part: it waits for Start
            table.night()
        else:
            table.play_part()

    def announce(self, text: str, key: str | None = None) -> None:
        click.echo(text)
        if self.table is None or self._silent or (raw := self.line(text, key)) is None:
            return
        self._made += 1
        self.table.announce(f"said-{self._made}", raw, text)

    def day(self, seconds: int, rules) -> None:
        assert self.table is not None  # a night, or a resumed game, came first
        self.table.day(seconds)

    def open_day(self) -> None:
        assert self.table is not None  # a night, or a resumed game, came first
        self.table.open_day()

    def call_vote(self) -> None:
        assert self.table is not None  # a night, or a resumed game, came first
        self.table.call_vote()

    def result(self, lines: list[str], final: bool = True) -> None:
        assert self.table is not None  # a night, or a resumed game, came first
        self.table.show_result(lines, final)

    def close(self) -> None:
        if self.table is not None:
            self.table.close()


def _told_in_parts(box, stage: str) -> None:
    """A game of many nights on the box, set up before any page can see it: each turn is sent as a
    night of its own (its share of it means nothing); a game resumed in a day's vote shows the vote,
    one resumed before a day's discussion has Start open the day."""
    box.in_parts = True
    if stage == "vote":
        box.call_vote()
    else:
        box.opens = stage
