"""A pyttsx3 speaker in its own process, set to one voice and one rate before it says anything.

pyttsx3's espeak driver applies voice and rate changes unreliably once it has spoken (measured
on Debian 12: a change can be lost or land one line late, and the rate it reports is not the
rate it uses), but a voice and rate set before the first utterance hold for every line after.
So each (voice, rate) gets a process of its own. Protocol, one JSON object per line:
    stdin:  {"text": "...", "path": "/tmp/line.wav"}
    stdout: {"ok": true} or {"error": "..."}
Anything the driver prints goes to stderr, so stdout carries only the replies.
"""

import json
import os
import sys
import threading
import time

FINISH_TIMEOUT = 30.0


def main(voice: str, rate: int) -> None:
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # the driver's prints ("Audio saved to ...") must not reach the replies
    sys.stdout = sys.stderr
    try:
        import pyttsx3

        engine = pyttsx3.init()
    except Exception as error:  # the driver's own start-up failure, whatever its type
        replies.write(json.dumps({"error": f"the text-to-speech engine did not start ({error})"}) + "\n")
        return
    engine.setProperty("voice", voice)
    engine.setProperty("rate", rate)
    checked = False
    for request in sys.stdin:
        try:
            text, path = (json.loads(request)[key] for key in ("text", "path"))
            speak(engine, text, path)
            if not checked and engine.getProperty("voice") != voice:
                raise RuntimeError(f"the engine did not take the voice '{voice}'")
            checked = True
            replies.write(json.dumps({"ok": True}) + "\n")
        except Exception as error:
            replies.write(json.dumps({"error": str(error)}) + "\n")


WAV_HEADER = 44  # bytes: a WAV file this long holds no sound
ATTEMPTS = 3


def speak(engine, text: str, path: str) -> None:
    """``text`` said into the WAV file ``path``. Under load, the espeak driver may end a line with
    the end of the line before it, late: the file is then written with no sound at all (seen once
    in a whole suite, a 0-second line). A line with words is never silent, so it is said again."""
    for _attempt in range(ATTEMPTS):
        speak_once(engine, text, path)
        if not text.strip() or os.path.getsize(path) > WAV_HEADER:
            return
    raise RuntimeError(f"the engine wrote no sound for {text[:40]!r}, {ATTEMPTS} times")


def speak_once(engine, text: str, path: str) -> None:
    finished = threading.Event()
    token = engine.connect("finished-utterance", lambda name, completed: finished.set())
    try:
        engine.save_to_file(text, path)
        engine.runAndWait()  # may return before the file is written: wait for the callback and the file
        if not finished.wait(FINISH_TIMEOUT):
            raise RuntimeError(f"the engine did not finish speaking {text[:40]!r}")
        wait_until_written(path)
        settle(engine)
    finally:
        engine.disconnect(token)


def wait_until_written(path: str, timeout: float = FINISH_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    last = -1
    while time.monotonic() < deadline:
        size = os.path.getsize(path) if os.path.exists(path) else -1
        if size >= WAV_HEADER and size == last:  # a WAV header at least, and no longer growing
            return
        last = size
        time.sleep(0.005)
    raise RuntimeError(f"the engine wrote no audio to {path}")


def settle(engine) -> None:
    """espeak goes on working for a moment after it reports an utterance finished."""
    driver = getattr(getattr(engine, "proxy", None), "_driver", None)
    if driver is not None and type(driver).__module__.endswith(".espeak"):
        from pyttsx3.drivers import _espeak

        _espeak.Synchronize()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
