"""narrate on a real pseudo-terminal, as in a terminal window: on Linux, or on a simulated Windows
or macOS (tests/foreign/), for the tests that press keys and type answers."""

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

from tests.foreign import simulation

SYSTEMS = ["linux", "windows", "macos"]
ENTER = b"\r"  # what the Enter key sends; a POSIX terminal turns it into a newline (ICRNL), a console does not


class Terminal:
    """narrate running on a pseudo-terminal of a given size, as in a terminal window."""

    def __init__(self, folder: Path, *args, columns=40, lines=10, system="linux", cwd=None, **environ):
        self.leader, self.follower = pty.openpty()
        fcntl.ioctl(self.follower, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        self.before = termios.tcgetattr(self.follower)
        config = folder / "asound.conf"
        config.write_text("pcm.!default { type null }\nctl.!default { type hw card 0 }\n")
        base = {**os.environ, "LANG": "en_US.UTF-8", "ALSA_CONFIG_PATH": str(config)}
        env = base if system == "linux" else simulation.environ(system, base)
        env.update(environ)
        self.system = system
        self.process = subprocess.Popen([sys.executable, "-m", "narrator", *args], stdin=self.follower,
                                        stdout=self.follower, stderr=self.follower, process_group=0, env=env,
                                        cwd=cwd)
        self.output = b""

    def read(self, seconds: float) -> bytes:
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.leader], [], [], left)
            if ready:
                try:
                    self.output += os.read(self.leader, 65536)
                except OSError:
                    break
        return self.output

    def wait_for(self, text: bytes, seconds: float = 30, after: int = 0) -> None:
        deadline = time.monotonic() + seconds
        while text not in self.output[after:]:
            assert time.monotonic() < deadline, self.output[-1500:]
            assert self.process.poll() is None or text in self.read(0.2)[after:], self.output[-1500:]
            self.read(0.05)

    def type(self, text: bytes) -> None:
        os.write(self.leader, text)

    def state(self) -> str:
        with open(f"/proc/{self.process.pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]

    def wait_state(self, wanted: str, seconds: float = 10) -> None:
        deadline = time.monotonic() + seconds
        while self.state() != wanted:
            assert time.monotonic() < deadline, self.state()
            time.sleep(0.01)

    def lflag(self) -> int:
        return termios.tcgetattr(self.follower)[3]

    def finish(self, seconds: float = 60) -> int:
        deadline = time.monotonic() + seconds
        while self.process.poll() is None:
            assert time.monotonic() < deadline, self.output[-1500:]
            self.read(0.05)  # keep reading: a full pseudo-terminal would hold narrate up
        self.read(0.2)
        return self.process.returncode

    def text(self) -> str:
        return self.output.decode("utf-8", errors="replace").replace("\r\n", "\n")

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.leader)
        os.close(self.follower)
