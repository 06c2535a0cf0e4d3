"""SVOX Pico (py-nanotts): the default voice, for real, and a clean fallback where it is missing."""

import sys

import numpy as np
import pytest

from narrator.shell.audio import tts
from narrator.shell.audio.pico import PICO_RATE, PicoEngine
from narrator.shell.audio.tts import EngineUnavailable, choose_voice, default_engine

pytest.importorskip("py_nanotts", reason="py-nanotts has no wheel for this platform")


@pytest.fixture(scope="module")
def pico():
    return PicoEngine()


def test_pico_has_italian_and_british_english_first(pico):
    assert choose_voice(pico, "it").id == "pico/it-IT"
    assert choose_voice(pico, "en").id == "pico/en-GB"
    assert choose_voice(pico, "en", "pico/en-us").id == "pico/en-US"


@pytest.mark.parametrize("lang, text", [("it", "Veggente, apri gli occhi."), ("en", "Seer, wake up.")])
def test_pico_speaks_a_line(pico, lang, text):
    clip = pico.synthesize(text, choose_voice(pico, lang), 150)
    assert clip.rate == PICO_RATE and clip.samples.dtype == np.float32
    assert 0.8 < clip.seconds < 4 and np.abs(clip.samples).max() > 0.1
    assert np.abs(clip.samples).max() <= 1.0


def test_pico_honours_the_rate(pico):
    italian = choose_voice(pico, "it")
    text = "Uno, due, tre, quattro, cinque, sei, sette."
    slow, fast = (pico.synthesize(text, italian, rate).seconds for rate in (80, 300))
    assert slow > 2 * fast


def test_pico_is_the_default_engine_where_installed():
    assert default_engine().name == "pico"


def test_without_the_wheel_narrate_falls_back_to_the_system_voices(monkeypatch):
    monkeypatch.setattr("importlib.util.find_spec", lambda name, *args: None if name == "py_nanotts" else object())
    assert default_engine().name == "pyttsx3"
    monkeypatch.setitem(sys.modules, "py_nanotts", None)  # an import that fails, as on macOS without a wheel
    with pytest.raises(EngineUnavailable, match="SVOX Pico is not installed here .* use --engine pyttsx3"):
        PicoEngine().voices()


def test_an_unknown_engine_is_one_line(run):
    result = run("render", "-p", "3", "--engine", "festival", "-o", "notte.wav")
    assert (result.exit_code, result.stderr) == (
        2, "narrate render: Invalid value for '--engine': no text-to-speech engine 'festival': choose one of pico, "
           "pyttsx3, piper (see 'narrate render --help')\n")
    assert list(tts.engines_here()) == ["pico", "pyttsx3", "piper"]


def test_engine_on_the_command_line_speaks_without_the_pack(run, tmp_path):
    env_dir = tmp_path / "cache"
    from tests.conftest import make_env

    env = make_env(cache_dir=env_dir)
    result = run("render", "-p", "3", "--engine", "pico", "--lang", "en", "--no-ambience", "-o",
                 str(tmp_path / "n.wav"), env=env)
    assert result.exit_code == 0, result.stderr
    assert any((env_dir / "clips").rglob("*.wav"))  # spoken by the engine, kept in the cache (gains are .json)


def test_a_pack_rendered_with_pico_says_whose_voice_it_is(run, tmp_path):
    from narrator.shell.voicepacks import load_pack
    from tests.conftest import make_env

    folder = tmp_path / "mine"
    result = run("voices", "render", "--engine", "pico", "--lang", "it", str(folder), env=make_env(cache_dir=tmp_path))
    assert result.exit_code == 0, result.stderr
    assert load_pack(folder).licence == ("MIT, like narrator: text by the narrator developers; "
                                         "spoken by SVOX Pico (Apache-2.0)")
