"""The user's folders: the XDG base directories on Linux, as platformdirs gives them."""

import os
import pwd
from pathlib import Path

import platformdirs
import pytest

from narrator.shell.folders import user_dir

KINDS = ("cache", "data", "config", "state")


@pytest.mark.parametrize("kind", KINDS)
def test_the_folders_are_platformdirs_own_on_this_system(kind, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for variable in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.delenv(variable, raising=False)
    expected = getattr(platformdirs, f"user_{kind}_dir")("narrator")
    assert str(user_dir(kind)) == expected == str(tmp_path / "home" / {
        "cache": ".cache", "data": ".local/share", "config": ".config", "state": ".local/state"}[kind] / "narrator")
    variable = f"XDG_{kind.upper()}_HOME"
    monkeypatch.setenv(variable, str(tmp_path / "elsewhere"))
    assert str(user_dir(kind)) == getattr(platformdirs, f"user_{kind}_dir")("narrator") == str(
        tmp_path / "elsewhere" / "narrator")


@pytest.mark.parametrize("value", ["", "relative/path"])
def test_a_blank_or_relative_xdg_variable_is_ignored_as_the_rule_says(value, tmp_path):
    environ = {"HOME": str(tmp_path), "XDG_CACHE_HOME": value}
    assert user_dir("cache", environ) == tmp_path / ".cache" / "narrator"


def test_a_relative_home_falls_back_on_the_password_database():
    home = pwd.getpwuid(os.getuid()).pw_dir
    assert user_dir("config", {"HOME": "here"}) == Path(home) / ".config" / "narrator"


@pytest.mark.parametrize("system", ["windows", "macos"])
def test_windows_and_macos_folders_are_platformdirs_own_without_the_author_twice(system, monkeypatch):
    """platformdirs names a Windows folder AUTHOR\\APP, the author being the app unless told: the
    data folder would be AppData\\Local\\narrator\\narrator."""
    import narrator.shell.platform

    monkeypatch.setattr(narrator.shell.platform, "SYSTEM", system)
    asked = []
    for kind in KINDS:
        monkeypatch.setattr(platformdirs, f"user_{kind}_dir",
                            lambda app, appauthor=None, kind=kind: asked.append((kind, app, appauthor)) or f"/{kind}")
    assert [user_dir(kind) for kind in KINDS] == [Path(f"/{kind}") for kind in KINDS]
    assert asked == [(kind, "narrator", False) for kind in KINDS]
