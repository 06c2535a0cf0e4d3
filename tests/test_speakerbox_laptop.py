"""The laptop's own speakers in a speaker-box game: they follow the box's playhead."""

import asyncio
import json
import os
import re
import subprocess
import sys
from types import SimpleNamespace

import aiohttp
import numpy as np
import pytest

from narrator.core.deck import recommended_deck
from narrator.core.script import generate_script, settings_for
from narrator.shell.audio.clip import Clip
from narrator.shell.audio.mix import MixSettings, build_night
from narrator.shell.speakerbox.game import LaptopFollower
from narrator.shell.speakerbox.state import Box
from tests.conftest import make_env
from tests.test_playback import portaudio_missing

RATE = 8000


@pytest.fixture
def follower():
    env = make_env()
    script = generate_script(env.game, recommended_deck(env.game, 3), settings_for(env.game, "it"))
    ramp = Clip(np.linspace(0.1, 0.5, RATE // 2, dtype=np.float32), RATE)
    night = build_night(script, {cue.key: ramp for cue in script.cues()}, None, MixSettings(rate=RATE))
    now = [100.0]
    box = Box(night.length / RATE, [], lambda: now[0])
    laptop = LaptopFollower.__new__(LaptopFollower)  # no stream: the fill logic alone
    laptop.night, laptop.box, laptop.clock, laptop.position = night, box, lambda: now[0], None
    return laptop, night, box, now


def fill(laptop, frames=256, ahead=0.0):
    out = np.ones((frames, 1), dtype=np.float32)
    laptop._fill(out, frames, SimpleNamespace(outputBufferDacTime=10.0 + ahead, currentTime=10.0), None)
    return out[:, 0].copy()


def test_silent_until_the_night_starts(follower):
    laptop, _, box, now = follower
    assert not fill(laptop).any()
    box.start_night(lead=0.5)
    assert not fill(laptop).any()  # the first sample is half a second away


def test_plays_the_samples_the_playhead_points_at_and_runs_on_smoothly(follower):
    laptop, night, box, now = follower
    box.start_night(lead=0.0)
    now[0] += 5.0
    first = fill(laptop, ahead=0.02)  # the block will sound 20 ms from now
    start = round((5.0 + 0.02) * RATE)
    assert np.array_equal(first, night.block(start, 256))
    now[0] += 0.001  # the next callback: a little later, but the stream runs on from where it was
    assert np.array_equal(fill(laptop, ahead=0.02), night.block(start + 256, 256))


def test_a_pause_stops_it_at_its_sample_and_the_resume_goes_on_from_there(follower):
    laptop, night, box, now = follower
    samples = night.block(0, night.length)
    sounding = np.flatnonzero(np.convolve(samples != 0, np.ones(RATE // 10), "valid") == RATE // 10)
    start = sounding[0]  # a tenth of a second where every sample sounds
    box.start_night(lead=0.0)
    now[0] += start / RATE
    box.pause(lead=80 / RATE)  # set 80 samples ahead: it lands inside the next block
    block = fill(laptop)
    assert np.array_equal(block[:80], samples[start:start + 80]) and not block[80:].any()
    now[0] += 60.0
    assert not fill(laptop).any()
    box.resume(lead=0.0)
    assert np.array_equal(fill(laptop), samples[start + 80:start + 80 + 256])  # nothing played twice or skipped


@pytest.mark.skipif(portaudio_missing(), reason="PortAudio (libportaudio2) is not installed")
@pytest.mark.parametrize("day, game, votes, verdict", [
    (False, "una-notte-da-lupi", "", ""),
    (True, "una-notte-da-lupi", "contadino\nB\nlupo-mannaro\nA\nveggente\nB\n",
     "Lynched: B\nWinning side: Humans\nWinners: A, C"),
    (True, "one-night-ultimate-werewolf", "villager\nB\nwerewolf\nA\nseer\nB\n",
     "Dead: B\nWinning side: Village\nWinners: A, C"),
])
def test_a_box_game_with_the_laptop_playing_too_on_a_null_device(tmp_path, day, game, votes, verdict):
    config = tmp_path / "asound.conf"
    config.write_text("pcm.!default { type null }\nctl.!default { type hw card 0 }\n")
    when = ["--day-seconds", "2", "--names", "A,B,C"] if day else ["--no-day"]
    process = subprocess.Popen(
        [sys.executable, "-m", "narrator", "--game", game, "--players", "3", "--speaker-box", "--port", "0", "--host", "127.0.0.1",
         "--no-ambience", "--lang", "en", *when], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env={**os.environ, "ALSA_CONFIG_PATH": str(config), "LANG": "C.UTF-8",
                                                 "XDG_CACHE_HOME": str(tmp_path / "cache"),
                                                 "XDG_CONFIG_HOME": str(tmp_path / "config")})
    try:
        for line in process.stdout:
            if "?token=" in line:  # the control page's address, in any language
                break
        control = re.search(r"(http://\S+)", line)[1]
        token = control.split("token=")[1]

        async def drive():
            async with aiohttp.ClientSession() as session:
                async with session.ws_connect(control.split("?")[0] + "ws") as ws:
                    await ws.receive()
                    await ws.send_str(json.dumps({"type": "control", "action": "start", "token": token}))
                    await asyncio.sleep(1.5)  # the laptop's stream plays along
                    await ws.send_str(json.dumps({"type": "control", "action": "next", "token": token}))

        asyncio.run(drive())
        output, errors = process.communicate(votes, timeout=60)
        assert process.returncode == 0, errors
        assert "only the tablets will play" not in errors and "Traceback" not in errors
        if day:  # the laptop said the day's lines too, then the vote was settled
            assert verdict in output
    finally:
        process.kill()
