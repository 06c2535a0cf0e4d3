"""The narration language follows the system locale, Italian when it says nothing usable."""

import pytest

from narrator.core.language import language_from_environ

AVAILABLE = ("it", "en")


@pytest.mark.parametrize("environ, expected", [
    ({}, "it"),
    ({"LANG": "C.UTF-8"}, "it"),
    ({"LANG": "POSIX"}, "it"),
    ({"LANG": "en_GB.UTF-8"}, "en"),
    ({"LANG": "it_IT.UTF-8"}, "it"),
    ({"LANG": "en-US"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "it"),
    ({"LC_ALL": "en_US.UTF-8", "LANG": "it_IT.UTF-8"}, "en"),
    ({"LC_MESSAGES": "en_US.UTF-8", "LANG": "it_IT.UTF-8"}, "en"),
    ({"LC_ALL": "", "LANG": "en_US"}, "en"),
    ({"LANGUAGE": "fr:en", "LANG": "it_IT.UTF-8"}, "en"),
    ({"LANGUAGE": "fr", "LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "sr_RS@latin"}, "it"),
    ({"LANG": "en_US@euro"}, "en"),
])
def test_language_from_locale(environ, expected):
    assert language_from_environ(environ, AVAILABLE, "it") == expected


def test_fallback_is_configurable():
    assert language_from_environ({"LANG": "C"}, AVAILABLE, fallback="en") == "en"
