"""The few Windows functions narrate calls itself, through ctypes (imported on Windows only).

Each is documented by Microsoft (kernel32 and the Restart Manager); each answers "cannot tell"
rather than raising, so that a console or a system that lacks one only loses what it gave.
"""

import ctypes
import time
from collections.abc import Callable
from ctypes import wintypes

ENABLE_VIRTUAL_TERMINAL_PROCESSING = 0x0004
MUI_LANGUAGE_NAME = 0x8
CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT = 2, 5, 6
CLOSE_GRACE = 4.5  # seconds: Windows ends a process 5 s after its console window was closed
ERROR_MORE_DATA = 234
_kept: list = []  # the console handlers handed to Windows must outlive the call that made them


def _kernel32():
    return ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]  # Windows only: the checker reads Linux's stubs


def escape_codes_on(descriptor: int) -> bool:
    """Turn on escape codes for the console behind ``descriptor``; False where the console
    cannot draw them (before Windows 10, or turned off) or it is no console at all."""
    import msvcrt

    try:
        handle = msvcrt.get_osfhandle(descriptor)  # type: ignore[attr-defined]  # Windows only: the checker reads Linux's stubs
        kernel32 = _kernel32()
        mode = wintypes.DWORD()
        if not kernel32.GetConsoleMode(wintypes.HANDLE(handle), ctypes.byref(mode)):
            return False
        if mode.value & ENABLE_VIRTUAL_TERMINAL_PROCESSING:
            return True
        return bool(kernel32.SetConsoleMode(wintypes.HANDLE(handle), mode.value | ENABLE_VIRTUAL_TERMINAL_PROCESSING))
    except (OSError, AttributeError, ValueError):
        return False


def ui_languages() -> list[str]:
    """The languages of the user's Windows display, best first ("it-IT", "en-US")."""
    try:
        kernel32 = _kernel32()
        count, size = wintypes.ULONG(), wintypes.ULONG()
        if not kernel32.GetUserPreferredUILanguages(MUI_LANGUAGE_NAME, ctypes.byref(count), None, ctypes.byref(size)):
            return []
        buffer = ctypes.create_unicode_buffer(size.value)
        if not kernel32.GetUserPreferredUILanguages(MUI_LANGUAGE_NAME, ctypes.byref(count), buffer,
                                                    ctypes.byref(size)):
            return []
    except (OSError, AttributeError):
        return []
    return [name for name in buffer[:size.value].split("\0") if name]  # type: ignore[attr-defined]  # a wide buffer's slice is text


def short_path(path: str) -> str | None:
    """The 8.3 name of ``path`` (plain ASCII, for a library that opens files by ANSI names), or
    None where the volume keeps no short names."""
    try:
        kernel32 = _kernel32()
        buffer = ctypes.create_unicode_buffer(1024)
        length = kernel32.GetShortPathNameW(path, buffer, len(buffer))
    except (OSError, AttributeError):
        return None
    return buffer.value if 0 < length < len(buffer) else None


class _UniqueProcess(ctypes.Structure):
    _fields_ = [("dwProcessId", wintypes.DWORD), ("ProcessStartTime", wintypes.FILETIME)]


class _ProcessInfo(ctypes.Structure):
    _fields_ = [("Process", _UniqueProcess), ("strAppName", wintypes.WCHAR * 256),
                ("strServiceShortName", wintypes.WCHAR * 64), ("ApplicationType", ctypes.c_int),
                ("AppStatus", wintypes.ULONG), ("TSSessionId", wintypes.DWORD), ("bRestartable", wintypes.BOOL)]


def holders(path: str) -> list[str]:
    """The programs that hold ``path`` open, by the names Windows shows ("Adobe Acrobat Reader"),
    asked of the Restart Manager as Explorer asks it; empty when it cannot tell."""
    try:
        manager = ctypes.WinDLL("rstrtmgr", use_last_error=True)  # type: ignore[attr-defined]  # Windows only: the checker reads Linux's stubs
        session, key = wintypes.DWORD(), ctypes.create_unicode_buffer(33)
        if manager.RmStartSession(ctypes.byref(session), 0, key):
            return []
    except (OSError, AttributeError):
        return []
    try:
        files = (wintypes.LPCWSTR * 1)(path)
        if manager.RmRegisterResources(session, 1, files, 0, None, 0, None):
            return []
        needed, count, reasons = wintypes.UINT(), wintypes.UINT(10), wintypes.DWORD()
        found = (_ProcessInfo * 10)()
        if manager.RmGetList(session, ctypes.byref(needed), ctypes.byref(count), found, ctypes.byref(reasons)) not in (
                0, ERROR_MORE_DATA):
            return []
        return list(dict.fromkeys(info.strAppName for info in found[:min(count.value, 10)] if info.strAppName))
    finally:
        manager.RmEndSession(session)


def on_console_close(end: Callable[[], None]) -> None:
    """Call ``end`` when the console window is closed (or the user logs off), then give the main
    thread until Windows' deadline to unwind: the handler runs in a thread of its own, and the
    process ends as soon as it returns."""
    handler_type = ctypes.WINFUNCTYPE(wintypes.BOOL, wintypes.DWORD)  # type: ignore[attr-defined]  # Windows only: the checker reads Linux's stubs

    def handler(event: int) -> bool:
        if event not in (CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT):
            return False  # Ctrl-C and Ctrl-Break: Python's own handler
        end()
        time.sleep(CLOSE_GRACE)  # the process exits by itself once the main thread is done
        return True

    kept = handler_type(handler)
    _kept.append(kept)
    try:
        _kernel32().SetConsoleCtrlHandler(kept, True)
    except (OSError, AttributeError):
        pass
