"""A whole game with tablets as the speaker box: the laptop serves, starts and drives; tablets play."""

import io
import math
import queue
import sys
import threading
from collections.abc import Callable
from dataclasses import replace

from narrator.core.day import DayTimer, day_spoken_keys
from narrator.core.errors import NarratorError, Stopped
from narrator.core.i18n import Text, msg, os_reason
from narrator.shell.audio.mix import MixSettings, speech_regions
from narrator.shell.dayrun import DayScreen, run_day
from narrator.shell.platform.hints import nobody_joined
from narrator.shell.platform.keyboard import keys
from narrator.shell.platform.screen import draws, qr_code
from narrator.shell.speakerbox.server import BoxServer, network_addresses
from narrator.shell.speakerbox.state import Box
from narrator.shell.translation import _, active_catalog, active_language
from narrator.shell.translation import say as render

TABLET_RATE = 24000  # plenty for speech and drums, and half the bytes for every tablet to fetch
PART_LEAD = 1.5  # seconds from a part of the night's start to its first sample: time for tablets to fetch it
ANNOUNCE_LEAD = 1.0  # ...and for a sentence made during the game
LONELY_SECONDS = 60  # no tablet joined this long after the box began waiting: say what may keep them out


def wav_bytes(samples, rate: int) -> bytes:
    import soundfile

    out = io.BytesIO()
    soundfile.write(out, samples, rate, format="WAV", subtype="PCM_16")
    return out.getvalue()


def prepare(env, script, audio, lang: str, labels: dict[str, str], rules):
    """The night for the tablets, the day's lines (none when there is no day: ``rules`` None), and
    the box state they will share."""
    from narrator.shell.audio.clip import prepare_voice
    from narrator.shell.audio.night import voice_source

    night, samples, night_wav, phases = night_for_tablets(env, script, audio, labels)
    language = env.game.languages[lang]
    source = voice_source(env, lang, audio)
    day_lines = {key: prepare_voice(source.raw_clip(key, language.line(key)), TABLET_RATE, source.cache)
                 for key in (day_spoken_keys(rules) if rules else ())}  # the laptop plays at this rate too
    clips = {key: wav_bytes(clip.samples, TABLET_RATE) for key, clip in day_lines.items()}
    box = Box(night.length / night.rate, phases, env.clock, counts=count_windows(night))
    return night, samples, night_wav, day_lines, clips, box


def night_for_tablets(env, script, audio, labels: dict[str, str], carrying_on: bool = False):
    """A night's audio at the tablets' rate, its samples (mixed once: the WAV file and the laptop's
    ear on the night, ``--listen``, both read them), as a WAV file, and where each of its parts
    starts (``carrying_on``: a part that follows another, see ``MixSettings.carrying_on``)."""
    from narrator.shell.audio.night import night_audio

    mix = MixSettings(rate=TABLET_RATE)
    night = night_audio(env, script, audio, mix.carrying_on() if carrying_on else mix)
    phases = [(start / night.rate, labels.get(phase, phase)) for phase, start in night.phase_starts()]
    samples = night.render()
    return night, samples, wav_bytes(samples, night.rate), phases


def speech_spans(night, gap: float = 0.3) -> list[tuple[float, float]]:
    """Where a night's voice sounds (seconds), lines closer than ``gap`` taken as one."""
    regions = speech_regions([(clip.start, clip.end) for clip in night.clips], round(gap * night.rate))
    return [(start / night.rate, end / night.rate) for start, end in regions]


def count_windows(night) -> list[tuple[float, int]]:
    """Where each count of a night starts (seconds) and how many seconds it lasts."""
    return [(window.start / night.rate, window.seconds) for window in night.counts]


class LaptopFollower:
    """The laptop's own speakers, following the box's playhead (so they stay in step too)."""

    def __init__(self, night, box: Box, clock):
        import sounddevice

        self.night, self.box, self.clock = night, box, clock
        self.position = None
        self.stream = sounddevice.OutputStream(samplerate=night.rate, channels=1, dtype="float32",
                                               callback=self._fill)
        self.stream.start()

    def _fill(self, outdata, frames, time_info, status):
        rate = self.night.rate
        ahead = max(0.0, time_info.outputBufferDacTime - time_info.currentTime)
        heard = self.clock() + ahead  # the server time at which this block's first sample is heard
        with self.box.lock:
            running = self.box.stage == "night" and self.box.playhead.running
            head = replace(self.box.playhead)
        outdata[:, 0] = 0
        if not running:
            self.position = None
            return
        # The block's samples that play: from the playhead's start to its scheduled stop, if either falls here.
        first = min(frames, max(0, math.ceil((head.anchor_time - heard) * rate)))
        last = frames if head.stop_time is None else min(frames, max(0, round((head.stop_time - heard) * rate)))
        if first >= last:
            self.position = None
            return
        expected = round(head.position(heard + first / rate) * rate)
        if self.position is None or abs(self.position - expected) > rate // 50:
            self.position = expected  # (re)join the playhead; otherwise run on smoothly
        block = self.night.block(self.position, last - first)
        outdata[first:first + len(block), 0] = block
        self.position += last - first

    def close(self):
        self.stream.close()


def serve_error(host: str, port: int, error: OSError) -> Text:
    """Why the box cannot listen, and which option to change: the address or the port."""
    import errno
    import socket

    if isinstance(error, socket.gaierror):
        reason = (error.strerror or str(error)).rsplit(": ", 1)[-1]  # asyncio repeats the address first
    else:
        reason = os_reason(error)
    if isinstance(error, socket.gaierror) or error.errno == errno.EADDRNOTAVAIL:
        return msg("cannot serve on '{host}' ({reason}): it is not an address of this machine; give one of its "
                   "addresses with --host, or leave --host out to serve on all of them", host=host, reason=reason)
    return msg("cannot serve on {host}:{port} ({reason}): choose another --port", host=host, port=port, reason=reason)


class BoxTable:
    """The tablets of the speaker box as the game's table: they play the night and the day in step.

    ``say`` and ``warn`` print for the people at the laptop (the command line gives click's); the
    box itself knows nothing of the command line. ``waiting`` is what the group does before the
    first Start ("deal", "go-on" or None), as the controls page shows it; ``ready`` says so at the laptop.
    """

    def __init__(self, env, script, audio, lang: str, labels: dict[str, str], rules, *, host: str, port: int,
                 laptop_audio: bool, waiting: str | None, ready: str, say: Callable[[str], None],
                 warn: Callable[[str], None], console=None, tokens: dict[str, str] | None = None,
                 listen: bool = False, before_serving: Callable[[Box], None] | None = None):
        self.env, self.lang, self.rules, self.say, self.warn, self.audio = env, lang, rules, say, warn, audio
        self.laptop_audio = laptop_audio
        self.night_audio, samples, night_wav, self.day_lines, clips, self.box = prepare(
            env, script, audio, lang, labels, rules)
        self.night_samples = samples if listen else None  # (kept for the laptop's ear alone: 17 MB for 3 minutes)
        self.box.waiting_for = waiting  # what the controls page asks for before Start
        self.phase = script.segments[-1].phase if script.segments else None  # where the last part loaded ends
        self.actions: queue.Queue[str] = queue.Queue()
        self.speech = speech_spans(self.night_audio)  # where the night's voice sounds (seconds)
        self.server = BoxServer(self.box, night_wav, clips, env.clock, self.actions.put, host=host, port=port,
                                speech=self.speech,
                                language=active_language(), catalog=active_catalog(), console=console,
                                token=tokens["controls"] if tokens else None,
                                moderator_token=tokens["moderator"] if tokens else None)
        self.box.on_change = self.server.broadcast
        self.listener = None
        if listen:
            from narrator.shell.speakerbox.listen import Listener

            self.listener = Listener(self.server, env.clock, lambda text: say(render(text)),
                                     lambda text: warn(render(text)))
        self.follower = None
        self._lonely = Lonely(env.clock, self.server.joined, lambda: warn("narrate: " + render(
            nobody_joined(self.server.port))))
        if before_serving is not None:  # (what the first page to connect must see: a resumed game's vote)
            before_serving(self.box)
        try:
            self.server.start()
        except OSError as error:
            raise NarratorError(serve_error(host, port, error)) from None
        try:
            _announce(self.server, host, say)
            if ready:
                say(ready)
        except BaseException:
            self.server.stop()
            raise

    def night(self) -> bool:
        """From Start to daybreak; always heard (on the tablets)."""
        with keys(sleep=self.env.sleep) as read_key:
            _wait_for_start(self.box, self.actions, read_key, self._waited, self.listener)
            self._follow()
            if not _night(self.box, self.actions, read_key, self._playing):
                raise Stopped
        return True

    def _playing(self) -> None:
        """While a night plays: the laptop's ear on it (``--listen``). A round of codes comes in a
        night played whole where its voice leaves room; a game of many nights has its rounds
        between two turns (``load``)."""
        if self.listener is not None:
            self.listener.playing(self._heard_night, None if self.box.in_parts else self._quiet)

    def _heard_night(self):
        """The playing night as the laptop should hear it: its samples, their rate and the box time
        of sample 0; None while paused."""
        samples, rate = self.night_samples, self.night_audio.rate
        if samples is None or (began := self.box.night_moves()) is None:
            return None
        return samples, rate, began

    def _quiet(self, seconds: float, earliest: float) -> float | None:
        return self.box.voiceless(self.speech, seconds, earliest)

    def _waited(self) -> None:
        self._lonely()
        if self.listener is not None:
            self.listener.tick()

    def _follow(self) -> None:
        if self.laptop_audio and self.follower is None:
            self.follower = _laptop_speakers(self.night_audio, self.box, self.env.clock, self.warn)
            self.laptop_audio = self.follower is not None  # said once: only the tablets will play

    # --- a game of many nights: another night, a part of one, a sentence made in the game ---

    def load(self, script, labels: dict[str, str], carrying_on: bool = False) -> None:
        """Another night (or a part of one) for the tablets, waiting for its start. When the laptop
        listens and the part begins a phase the last one did not end in (the next turn, or a night
        after its day), a tablet that joined or reloaded since the last round is listened to first:
        nobody is acting then, and nothing is being said."""
        self.night_audio, samples, night_wav, phases = night_for_tablets(self.env, script, self.audio, labels,
                                                                         carrying_on)
        self.night_samples = samples if self.listener is not None else None
        if script.segments:
            if self.listener is not None and self.phase is not None and script.segments[0].phase != self.phase:
                self.listener.now()  # between two turns, or after a day
            self.phase = script.segments[-1].phase
        self.speech = speech_spans(self.night_audio)
        self.server.load_night(night_wav, self.speech)
        if self.follower is not None:
            self.follower.night, self.follower.position = self.night_audio, None
        self.box.new_night(self.night_audio.length / self.night_audio.rate, phases, count_windows(self.night_audio))

    def play_part(self, lead: float = PART_LEAD) -> None:
        """Play what ``load`` gave at once (the moderator is already at the laptop), to its end."""
        self.box.start_night(lead)
        self._follow()
        with keys(sleep=self.env.sleep) as read_key:
            if not _night(self.box, self.actions, read_key, self._playing):
                raise Stopped

    def announce(self, key: str, raw, text: str) -> None:
        """Every tablet (and the laptop, when it plays too) says a line made during the game (``text``)."""
        from narrator.shell.audio.clip import prepare_voice

        clip = prepare_voice(raw, TABLET_RATE)  # the laptop plays at the tablets' rate too (LaptopFollower)
        self.server.add_clip(key, wav_bytes(clip.samples, TABLET_RATE))
        self.server.say(key, ANNOUNCE_LEAD, text)
        if self.follower is not None:
            from narrator.shell.audio.speaker import SounddeviceSpeaker

            speaker = SounddeviceSpeaker({key: clip})
            threading.Timer(ANNOUNCE_LEAD, speaker.say, args=(key,)).start()

    def day(self, seconds: int) -> None:
        with keys(sleep=self.env.sleep) as read_key:
            if not _day(self.env, self.rules, self.box, self.server, self.actions, read_key, self.lang, seconds,
                        self.day_lines if self.follower else None):
                raise Stopped

    def open_day(self) -> None:
        """A day off the clock: every tablet and the console show the day until the vote is called."""
        self.box.open_day()

    def call_vote(self) -> None:
        self.box.call_vote()

    def show_result(self, lines: list[str], final: bool = True) -> None:
        self.box.show_result(lines, final)
        threading.Event().wait(1.0)  # let the result reach the tablets before the server stops

    def close(self) -> None:
        if self.listener is not None:
            self.listener.stop()
        if self.follower is not None:
            self.follower.close()
        self.server.stop()


def tablet_addresses(host: str, port: int, networks: list[tuple[str, str]]) -> list[str]:
    """Where the tablets can open the box: the address --host names, or each network's address."""
    if host not in ("0.0.0.0", "::", ""):
        literal = f"[{host}]" if ":" in host else host
        return [f"http://{literal}:{port}/"]
    return [f"http://{address}:{port}/" for _, address in networks]


def _announce(server: BoxServer, host: str, say: Callable[[str], None]) -> None:
    addresses = tablet_addresses(host, server.port, network_addresses())
    if not addresses:
        say(_("Speaker box: this laptop is on no network the tablets could reach: connect it to the same "
                     "Wi-Fi as the tablets and start again."))
    else:
        say(_("Speaker box: open {addresses} on the tablets and tap to join.").format(
            addresses=_(" or ").join(addresses)))
        say(_qr(addresses[0]))
    say(_("This laptop's controls: {address}").format(
        address=f"http://127.0.0.1:{server.port}/?token={server.token}"))
    if server.console is not None and addresses:
        console = f"{addresses[0].rstrip('/')}/moderator?token={server.moderator_token}"
        say(_("The moderator's console, for the moderator's phone only (it shows the cards): {address}").format(
            address=console))
        say(_qr(console))


def _qr(address: str) -> str:
    """``address`` as a QR code for the terminal, to scan from a tablet or a phone."""
    import segno

    modules = [[bool(module) for module in row] for row in segno.make(address, error="m").matrix_iter(border=4)]
    return qr_code(modules, sys.stdout)


class Lonely:
    """Says once, when no tablet has joined ``seconds`` after the box began waiting, what may keep them
    out (a firewall, a network Windows calls Public): otherwise nothing on the laptop would show it."""

    def __init__(self, clock: Callable[[], float], joined: Callable[[], int], say: Callable[[], None],
                 seconds: float = LONELY_SECONDS):
        self.clock, self.joined, self.say, self.seconds = clock, joined, say, seconds
        self.since: float | None = None
        self.said = False

    def __call__(self) -> None:
        now = self.clock()
        if self.since is None:
            self.since = now
        if not self.said and now - self.since >= self.seconds and not self.joined():
            self.said = True
            self.say()


def _wait_for_start(box: Box, actions: queue.Queue, read_key, waited: Callable[[], None] = lambda: None,
                    listener=None) -> None:
    while box.stage == "waiting":
        key = read_key(0.1)
        waited()
        if key in ("\n", "\r") or _take(actions) in ("start", "next"):
            if listener is not None:
                listener.now()  # a round due begins (not waiting for tablets still coming), and its codes end first
            box.start_night()
        elif key in ("q", "Q"):
            raise Stopped


def _night(box: Box, actions: queue.Queue, read_key, playing: Callable[[], None] = lambda: None) -> bool:
    """Until daybreak: pause, resume and skip from the keys or the controls page (``playing`` is
    called every tenth of a second)."""
    while not box.night_over():
        key = read_key(0.1)
        playing()
        action = _take(actions)
        if key == " ":
            box.toggle_pause()
        elif action == "pause":
            box.pause()
        elif action == "resume":
            box.resume()
        elif key in ("q", "Q"):
            return False
        elif action == "next":
            box.skip_night()
    box.on_change()  # played to its end: every page hears that nothing is left to pause or skip
    return True


def _day(env, rules, box: Box, server: BoxServer, actions: queue.Queue, read_key, lang: str, seconds: int,
         laptop_lines) -> bool:
    """The day on every tablet (and on the laptop's speakers, given their lines, when they play too).

    Returns False when q stopped it.
    """
    language = env.game.languages[lang]
    texts = {key: language.line(key) for key in (day_spoken_keys(rules) if rules else ())}
    from narrator.shell.audio.speaker import SounddeviceSpeaker

    laptop = SounddeviceSpeaker(laptop_lines) if laptop_lines is not None else None

    def say(key: str) -> None:
        lead = 0.3
        server.say(key, lead, texts[key])
        if laptop is not None:
            threading.Timer(lead, laptop.say, args=(key,)).start()  # at the tablets' moment
    timer = DayTimer(rules, seconds, env.clock)
    screen = DayScreen(sys.stderr, interactive=draws(sys.stderr))

    def keys_and_controls(timeout: float) -> str | None:
        action = _take(actions)
        if action in ("pause", "resume"):
            return " "
        if action == "next":
            return "\n"
        key = read_key(timeout)
        box.show_day(timer.deadline, timer.paused_left, timer.voting or timer.finished)  # told only when changed
        return key

    box.show_day(timer.deadline, None, False)
    try:
        reached_the_vote = run_day(timer, say, keys_and_controls, screen, texts)
    finally:
        if laptop is not None:
            laptop.close()
    box.show_day(None, 0, True)
    return reached_the_vote


def _laptop_speakers(night, box: Box, clock, warn: Callable[[str], None]):
    from narrator.shell.audio.player import sounddevice_problem

    problem = sounddevice_problem()
    if problem:
        warn(_("narrate: {problem}; only the tablets will play").format(problem=render(problem)))
        return None
    return LaptopFollower(night, box, clock)


def _take(actions: queue.Queue) -> str | None:
    try:
        return actions.get_nowait()
    except queue.Empty:
        return None
