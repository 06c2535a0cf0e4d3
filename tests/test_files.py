"""Nothing the user owns is damaged, nothing is left behind: links, devices, modes, full disks,
signals, interrupted renders and long takes, met for real where the machine allows it."""

import os
import signal
import stat
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from narrator.core.errors import NarratorError
from narrator.shell.audio.clip import Clip, read_clip
from narrator.shell.audio.packs import add_recording, open_or_start_pack, render_pack
from narrator.shell.files import write_atomically
from narrator.shell.voicepacks import load_pack
from tests.conftest import make_env
from tests.foreign import simulation
from tests.test_voices import CountingEngine


def narrate(*args, cwd, limit_bytes=None, environ=None, system="linux", **popen):
    """Run the real ``narrate`` in a subprocess, optionally unable to write files over ``limit_bytes``,
    on Linux or a simulated Windows (tests/foreign/), speaking Italian."""

    def limit():
        if limit_bytes is not None:
            import resource

            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead of killing
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

    env = ({**os.environ, "LANG": "C.UTF-8"} if system == "linux" else
           simulation.environ(system, NARRATOR_FOREIGN_LANGUAGES="it-IT"))
    return subprocess.Popen([sys.executable, "-m", "narrator", *args], cwd=cwd, preexec_fn=limit,
                            env={**env, **(environ or {})}, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)


def finish(process, timeout=120):
    out, err = process.communicate(timeout=timeout)
    return process.returncode, out, err


def write_text(path: Path, text: str) -> None:
    write_atomically(path, lambda temporary: temporary.write_text(text, encoding="utf-8"))


# --- Where the file goes ------------------------------------------------------------------------

def test_a_link_is_written_through_to_its_file_and_stays_a_link(tmp_path):
    real = tmp_path / "cards" / "tessera.txt"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "latest.txt"
    link.symlink_to(real)
    write_text(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "new"
    assert sorted(p.name for p in real.parent.iterdir()) == ["tessera.txt"]


def test_a_pipe_is_refused_not_replaced(tmp_path):
    fifo = tmp_path / "night.wav"
    os.mkfifo(fifo)
    with pytest.raises(NarratorError, match=r"is not a regular file \(a device or a pipe\): give a file name"):
        write_text(fifo, "x")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can make a device node")
def test_a_device_node_is_refused_not_replaced(tmp_path, run):
    node = tmp_path / "null"
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a copy of /dev/null, so a failure harms nothing real
    result = run("card", "--players", "5", "-o", str(node))
    assert (result.exit_code, result.stderr) == (2, f"narrate: {node} is not a regular file (a device or a pipe): "
                                                    "give a file name\n")
    assert stat.S_ISCHR(node.lstat().st_mode)


def test_a_read_only_file_is_refused_even_for_root(tmp_path, run):
    card = tmp_path / "tessera.pdf"
    card.write_bytes(b"%PDF keep me")
    card.chmod(0o444)
    result = run("card", "--players", "5", "-o", str(card))
    assert (result.exit_code, result.stderr) == (2, f"narrate: {card} is read-only: choose another name, or make "
                                                    "it writable first\n")
    assert card.read_bytes() == b"%PDF keep me"


def test_a_replaced_file_keeps_its_mode(tmp_path, run):
    night = tmp_path / "notte.wav"
    night.write_bytes(b"old")
    night.chmod(0o600)
    result = run("render", "--players", "3", "--no-ambience", "-o", str(night))
    assert result.exit_code == 0, result.stderr
    assert stat.S_IMODE(night.stat().st_mode) == 0o600
    assert read_clip(night).seconds > 30


def test_a_new_file_gets_the_umask_mode(tmp_path):
    old = os.umask(0o027)
    try:
        write_text(tmp_path / "names.json", "[]")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "names.json").stat().st_mode) == 0o640


# --- A full disk ----------------------------------------------------------------------------------

@pytest.mark.parametrize("command, name, room", [(["render", "--players", "6", "--no-ambience"], "notte.wav", 40_000),
                                                 (["render", "--players", "6", "--no-ambience"], "notte.flac", 40_000),
                                                 (["render", "--players", "6", "--no-ambience"], "notte.ogg", 40_000),
                                                 (["render", "--players", "6", "--no-ambience"], "notte.ogg", 0),
                                                 (["card", "--players", "6"], "tessera.pdf", 4_000)])
def test_a_write_that_runs_out_of_room_is_one_line_and_keeps_the_old_file(tmp_path, command, name, room):
    target = tmp_path / name
    target.write_bytes(b"the group's old file")
    code, _, err = finish(narrate(*command, "-o", name, cwd=tmp_path, limit_bytes=room))
    assert code == 2
    assert err == f"narrate: {name}: non posso scriverlo (file troppo grande); non è cambiato niente\n"  # C locale
    assert target.read_bytes() == b"the group's old file"
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


@pytest.fixture
def full_disk(tmp_path):
    """A real 64 KiB filesystem (tmpfs), where root may mount one."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                                           capture_output=True).returncode != 0:
        pytest.skip("needs root and mount to make a small real filesystem")
    yield folder
    subprocess.run(["umount", str(folder)], check=True)


def test_a_full_cache_disk_does_not_stop_the_night(tmp_path, full_disk):
    code, out, err = finish(narrate("render", "--players", "3", "--rate", "160", "-o", "notte.wav", cwd=tmp_path,
                                    environ={"XDG_CACHE_HOME": str(full_disk)}))
    assert (code, err) == (0, ""), err
    assert read_clip(tmp_path / "notte.wav").seconds > 30
    room = os.statvfs(full_disk)
    assert room.f_bavail < room.f_blocks // 4  # the cache did fill the disk: a line did not fit


def test_a_full_disk_for_the_output_is_one_line(tmp_path, full_disk):
    code, _, err = finish(narrate("render", "--players", "3", "--no-ambience", "-o", str(full_disk / "notte.wav"),
                                  cwd=tmp_path))
    assert code == 2
    assert err == (f"narrate: {full_disk / 'notte.wav'}: non posso scriverlo (spazio esaurito sul disco); "
                   "non è cambiato niente\n")
    assert list(full_disk.iterdir()) == []


@contextmanager
def file_size_limit(limit_bytes):
    """Files cannot grow past ``limit_bytes`` in this process while it lasts: the system cuts the
    write (EFBIG) as a full disk would. Only the soft limit moves, so it can be put back."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)


TWO_MINUTES = Clip((0.3 * np.sin(np.arange(48000 * 120) * 0.05)).astype(np.float32), 48000)


@pytest.mark.parametrize("name", ["line.wav", "line.flac", "line.ogg", "names.json", "pack.yaml"])
def test_every_kind_of_file_cut_short_is_an_error_and_keeps_the_old_one(tmp_path, name):
    """Sound (a clip, a pack's line: wav, flac, ogg) and text (saved games, names, manifests, the
    gains cache: all written as text through write_atomically), cut by the system."""
    from narrator.shell.audio.clip import write_clip

    target = tmp_path / name
    target.write_bytes(b"the group's old file")
    if target.suffix in (".wav", ".flac", ".ogg"):
        write = lambda: write_clip(TWO_MINUTES, target)  # noqa: E731
    else:
        write = lambda: write_text(target, "x" * 100_000)  # noqa: E731
    with file_size_limit(30_000), pytest.raises(NarratorError, match=r": cannot write it \(File too large\); "
                                                                      r"nothing was changed$"):
        write()
    assert target.read_bytes() == b"the group's old file"
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


@pytest.mark.parametrize("name", ["line.wav", "line.flac", "line.ogg"])
def test_a_sound_file_that_comes_out_short_without_an_error_is_refused(tmp_path, monkeypatch, name):
    """Should an encoder lose data with no error from the system (no such failure can be made for
    real, hence the stand-in), the file read back is short: refused, and the old one kept."""
    from narrator.shell.audio import clip
    from narrator.shell.audio.clip import write_clip

    write_all = clip._CarefulFile._write_all

    def lossy(self, data):
        if self.raw.tell() > 20_000 and len(data) > 64:  # the header's rewrite at the end still lands
            return len(data)  # says written, writes nothing
        return write_all(self, data)

    monkeypatch.setattr(clip._CarefulFile, "_write_all", lossy)
    target = tmp_path / name
    target.write_bytes(b"the group's old file")
    with pytest.raises(NarratorError, match=r": cannot write it \(Input/output error\); nothing was changed$"):
        write_clip(TWO_MINUTES, target)
    assert target.read_bytes() == b"the group's old file"
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


# --- Signals --------------------------------------------------------------------------------------

@pytest.mark.parametrize("system, signal_number, ends_as", [
    ("linux", signal.SIGTERM, signal.SIGTERM), ("linux", signal.SIGHUP, signal.SIGHUP),
    ("windows", simulation.SIGBREAK, simulation.SIGBREAK),  # Ctrl-Break
    ("windows", signal.SIGUSR1, signal.SIGTERM),  # the console window closed (simulated): unwound as SIGTERM
], ids=["SIGTERM", "SIGHUP", "windows-Ctrl-Break", "windows-window-closed"])
def test_a_signal_while_writing_leaves_no_hidden_files(tmp_path, system, signal_number, ends_as):
    process = narrate("render", "--players", "10", "-o", "notte.ogg", cwd=tmp_path, system=system)
    deadline = time.monotonic() + 60
    while not any(p.name.startswith(".notte.") for p in tmp_path.iterdir()):
        assert process.poll() is None, "the render ended before its temporary file was seen"
        assert time.monotonic() < deadline
        time.sleep(0.002)
    process.send_signal(signal_number)
    code, _, err = finish(process)
    assert (code, err) == (128 + ends_as, "narrate: fermato da un segnale\n")  # unwound, not cut off
    assert list(tmp_path.iterdir()) == []


class Stopped(Exception):
    pass


def test_a_signal_another_thread_receives_while_the_temporary_file_is_made_leaves_nothing(tmp_path, monkeypatch):
    """The kernel may hand a process's SIGTERM to any thread; Python then runs the handler in the
    main thread at its next instruction, which can be just after the temporary file was made."""
    import tempfile
    import threading

    made = tempfile.mkstemp

    def made_then_signalled(*args, **kwargs):
        result = made(*args, **kwargs)
        receiver = threading.Thread(target=lambda: signal.pthread_kill(threading.get_ident(), signal.SIGTERM))
        receiver.start()
        receiver.join()
        return result

    def stop(number, frame):
        raise Stopped

    monkeypatch.setattr(tempfile, "mkstemp", made_then_signalled)
    previous = signal.signal(signal.SIGTERM, stop)
    try:
        with pytest.raises(Stopped):
            write_atomically(tmp_path / "names.json", lambda path: path.write_text("[]"))
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert list(tmp_path.iterdir()) == []


# --- Voice packs ----------------------------------------------------------------------------------

class InterruptedEngine(CountingEngine):
    """Speaks a few lines, then the user presses Ctrl-C."""

    def __init__(self, lines_before=5):
        super().__init__()
        self.lines_before = lines_before

    def synthesize(self, text, voice, rate):
        if len(self.spoken) == self.lines_before:
            raise KeyboardInterrupt
        return super().synthesize(text, voice, rate)


def test_an_interrupted_render_into_a_new_folder_leaves_nothing_and_runs_again(tmp_path):
    game = make_env().game
    folder = tmp_path / "packs" / "nuovo"
    with pytest.raises(KeyboardInterrupt):
        render_pack(game, "it", folder, InterruptedEngine(), None, 150, "Nuovo", "test", overwrite=False)
    assert list((tmp_path / "packs").iterdir()) == []
    pack = render_pack(game, "it", folder, CountingEngine(), None, 150, "Nuovo", "test", overwrite=False)
    assert load_pack(folder).clips.keys() == pack.clips.keys() and len(pack.clips) > 40
    assert sorted(p.name for p in (tmp_path / "packs").iterdir()) == ["nuovo"]


def test_an_interrupted_overwrite_keeps_the_old_pack_whole(tmp_path):
    game = make_env().game
    folder = tmp_path / "nuovo"
    render_pack(game, "it", folder, CountingEngine(), None, 150, "Primo", "test", overwrite=False)
    before = sorted((p.name, p.read_bytes()) for p in folder.iterdir())
    with pytest.raises(KeyboardInterrupt):
        render_pack(game, "it", folder, InterruptedEngine(), None, 150, "Secondo", "test", overwrite=True)
    assert sorted((p.name, p.read_bytes()) for p in folder.iterdir()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["nuovo"]
    render_pack(game, "it", folder, CountingEngine(), None, 150, "Secondo", "test", overwrite=True)
    assert load_pack(folder).name == "Secondo"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["nuovo"]


def test_a_take_of_several_minutes_is_kept(tmp_path):
    """libsndfile's Vorbis encoder crashes on one long write; a take of any length must be kept."""
    game = make_env().game
    pack = open_or_start_pack(game, "it", tmp_path / "nonna", "Nonna", "hers")
    rng = np.random.default_rng(3)
    take = (0.2 * rng.standard_normal(48000 * 150)).astype(np.float32)  # two and a half minutes
    pack = add_recording(pack, "night.start", "Cala la notte.", Clip(take, 48000))
    kept = read_clip(pack.file("night.start"))
    assert kept.seconds == pytest.approx(150, abs=0.01)


def test_ctrl_c_while_a_take_plays_back_stops_the_stream(monkeypatch):
    """PortAudio waits for ever at exit for a stream that still plays: Ctrl-C must stop it first."""
    from narrator.shell.audio import recorder

    class Device:
        PortAudioError = RuntimeError
        stopped = False

        def play(self, samples, rate, blocking):
            raise KeyboardInterrupt

        def stop(self):
            Device.stopped = True

    monkeypatch.setattr(recorder, "_sounddevice", lambda: Device())
    with pytest.raises(KeyboardInterrupt):
        recorder.MicrophoneRecorder().play(Clip(np.zeros(4800, dtype=np.float32), 48000))
    assert Device.stopped
