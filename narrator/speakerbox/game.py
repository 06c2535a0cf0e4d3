"""A whole game with tablets as the speaker box: the laptop serves, starts and drives; tablets play."""

import io
import queue
import sys
import threading

import click

from narrator.audio.mix import MixSettings
from narrator.day import DayTimer, day_spoken_keys
from narrator.dayrun import DayScreen, run_day
from narrator.errors import NarratorError
from narrator.i18n import Text, _, active_catalog, active_language, msg, os_reason, say
from narrator.speakerbox.server import BoxServer, network_addresses
from narrator.speakerbox.state import Box

TABLET_RATE = 24000  # plenty for speech and drums, and half the bytes for every tablet to fetch


def wav_bytes(samples, rate: int) -> bytes:
    import soundfile

    out = io.BytesIO()
    soundfile.write(out, samples, rate, format="WAV", subtype="PCM_16")
    return out.getvalue()


def prepare(env, script, audio, lang: str, labels: dict[str, str], rules):
    """The night for the tablets, the day's lines, and the box state they will share."""
    from narrator.audio.clip import prepare_voice
    from narrator.audio.night import night_audio, voice_source

    night = night_audio(env, script, audio, MixSettings(rate=TABLET_RATE))
    language = env.game.languages[lang]
    source = voice_source(env, lang, audio)
    day_lines = {key: source.raw_clip(key, language.line(key)) for key in day_spoken_keys(rules)}
    clips = {key: wav_bytes(prepare_voice(raw, TABLET_RATE).samples, TABLET_RATE) for key, raw in day_lines.items()}
    phases = [(start / night.rate, labels.get(phase, phase)) for phase, start in night.phase_starts()]
    box = Box(night.length / night.rate, phases, env.clock)
    return night, wav_bytes(night.render(), night.rate), day_lines, clips, box


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
        ahead = max(0.0, time_info.outputBufferDacTime - time_info.currentTime)
        with self.box.lock:
            running = self.box.stage == "night" and self.box.playhead.running
            expected = round(self.box.playhead.position(self.clock() + ahead) * self.night.rate)
        if not running or expected < 0:
            outdata[:, 0] = 0
            self.position = None
            return
        if self.position is None or abs(self.position - expected) > self.night.rate // 50:
            self.position = expected  # (re)join the playhead; otherwise run on smoothly
        block = self.night.block(self.position, frames)
        outdata[:, 0] = 0
        outdata[:len(block), 0] = block
        self.position += frames

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


def run_box_game(env, choice, settings, script, audio, *, host: str, port: int, laptop_audio: bool,
                 day_seconds: int | None, names: str | None, labels: dict[str, str], rules=None) -> None:
    from narrator.audio.console import keys
    from narrator.cli.votes import ask_ballots
    from narrator.vote import resolve_vote
    from narrator.votes_view import vote_text

    rules = rules or env.game.day
    night, night_wav, day_lines, clips, box = prepare(env, script, audio, settings.lang, labels, rules)
    actions: queue.Queue[str] = queue.Queue()
    server = BoxServer(box, night_wav, clips, env.clock, actions.put, host=host, port=port,
                       language=active_language(), catalog=active_catalog())
    box.on_change = server.broadcast
    try:
        server.start()
    except OSError as error:
        raise NarratorError(serve_error(host, port, error)) from None
    follower = None
    try:
        _announce(server, host)
        with keys(sleep=env.sleep) as read_key:
            _wait_for_start(box, actions, read_key)
            if laptop_audio:
                follower = _laptop_speakers(night, box, env.clock)
            if not _night(box, actions, read_key):
                click.echo(_("narrate: stopped"), err=True)
                raise SystemExit(130)
            if day_seconds is None:
                return
            if not _day(env, rules, box, server, actions, read_key, settings.lang, day_seconds,
                        day_lines if follower else None):
                click.echo(_("narrate: stopped"), err=True)
                raise SystemExit(130)
        ballots, bewitched = ask_ballots(env, names, settings.lang, deck=choice.deck,
                                             players=choice.players)
        result = resolve_vote(env.game, ballots, bewitched, settings.lang, choice.deck)
        click.echo(vote_text(env.game, ballots, result, settings.lang, active_catalog()))
        box.show_result(list(result.explanation))
        threading.Event().wait(1.0)  # let the result reach the tablets before the server stops
    finally:
        if follower is not None:
            follower.close()
        server.stop()


def tablet_addresses(host: str, port: int, networks: list[tuple[str, str]]) -> list[str]:
    """Where the tablets can open the box: the address --host names, or each network's address."""
    if host not in ("0.0.0.0", "::", ""):
        literal = f"[{host}]" if ":" in host else host
        return [f"http://{literal}:{port}/"]
    return [f"http://{address}:{port}/" for _, address in networks]


def _announce(server: BoxServer, host: str) -> None:
    import segno

    addresses = tablet_addresses(host, server.port, network_addresses())
    if not addresses:
        click.echo(_("Speaker box: this laptop is on no network the tablets could reach: connect it to the same "
                     "Wi-Fi as the tablets and start again."))
    else:
        click.echo(_("Speaker box: open {addresses} on the tablets and tap to join.").format(
            addresses=_(" or ").join(addresses)))
        out = io.StringIO()
        segno.make(addresses[0], error="m").terminal(out=out, compact=True)
        click.echo(out.getvalue().rstrip("\n"))
    click.echo(_("This laptop's controls: {address}").format(
        address=f"http://127.0.0.1:{server.port}/?token={server.token}"))
    click.echo(_("Press Enter here (or Start on the controls page) to begin the night. q stops."))


def _wait_for_start(box: Box, actions: queue.Queue, read_key) -> None:
    while box.stage == "waiting":
        key = read_key(0.1)
        if key in ("\n", "\r") or _take(actions) in ("start", "next"):
            box.start_night()
        elif key in ("q", "Q"):
            raise SystemExit(130)


def _night(box: Box, actions: queue.Queue, read_key) -> bool:
    """Until daybreak: pause, resume and skip from the keys or the controls page."""
    while not box.night_over():
        key = read_key(0.1)
        action = _take(actions)
        if key == " " or action == "pause":
            box.toggle_pause()
        elif key in ("q", "Q"):
            return False
        elif action == "next":
            box.skip_night()
    return True


def _day(env, rules, box: Box, server: BoxServer, actions: queue.Queue, read_key, lang: str, seconds: int,
         laptop_lines) -> bool:
    """The day on every tablet (and on the laptop's speakers, given their lines, when they play too).

    Returns False when q stopped it.
    """
    language = env.game.languages[lang]
    texts = {key: language.line(key) for key in day_spoken_keys(rules)}
    laptop = _laptop_day_speaker(laptop_lines) if laptop_lines is not None else None

    def say(key: str) -> None:
        lead = 0.3
        server.say(key, lead)
        if laptop is not None:
            threading.Timer(lead, laptop.say, args=(key,)).start()  # at the tablets' moment
    timer = DayTimer(rules, seconds, env.clock)
    screen = DayScreen(sys.stderr, interactive=sys.stderr.isatty())

    def keys_and_controls(timeout: float) -> str | None:
        action = _take(actions)
        if action == "pause":
            return " "
        if action == "next":
            return "\n"
        key = read_key(timeout)
        box.show_day(None if timer.paused else env.clock() + timer.left(), timer.left() if timer.paused else None,
                     timer.voting or timer.finished)
        return key

    box.show_day(env.clock() + seconds, None, False)
    try:
        reached_the_vote = run_day(timer, say, keys_and_controls, screen, texts)
    finally:
        if laptop is not None:
            laptop.close()
    box.show_day(None, 0, True)
    return reached_the_vote


def _laptop_day_speaker(lines):
    from narrator.audio.clip import prepare_voice
    from narrator.audio.speaker import SounddeviceSpeaker

    return SounddeviceSpeaker({key: prepare_voice(raw, 48000) for key, raw in lines.items()})


def _laptop_speakers(night, box: Box, clock):
    from narrator.audio.player import sounddevice_problem

    problem = sounddevice_problem()
    if problem:
        click.echo(_("narrate: {problem}; only the tablets will play").format(problem=say(problem)), err=True)
        return None
    return LaptopFollower(night, box, clock)


def _take(actions: queue.Queue) -> str | None:
    try:
        return actions.get_nowait()
    except queue.Empty:
        return None
