"""Choosing the narration language from the system locale."""

from collections.abc import Callable, Iterable, Mapping

# POSIX precedence: LANGUAGE (a colon list of preferences) first, then LC_ALL, LC_MESSAGES, LANG.
_LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
_NO_LANGUAGE = ("", "c", "posix")  # locales that name no language


def language_from_environ(environ: Mapping[str, str], available: Iterable[str], fallback: str,
                          system: Callable[[], Iterable[str]] = tuple) -> str:
    """The language the locale asks for, if we narrate in it; otherwise ``fallback``.

    ``C``, ``POSIX``, unset variables and languages we lack say nothing usable. Where no
    variable names a language at all (Windows has none, a macOS terminal may have none),
    ``system()`` gives the languages the system itself is set to, best first.
    """
    offered = set(available)
    named = False
    for variable in _LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if not value:
            continue
        for entry in value.split(":") if variable == "LANGUAGE" else [value]:
            code = _language_code(entry)
            if code in offered:
                return code
            named = named or code not in _NO_LANGUAGE
        if variable != "LANGUAGE":
            break  # the first set locale variable decides, even on a language we lack
    if not named:
        for tag in system():
            if (code := _language_code(tag)) in offered:
                return code
    return fallback


def _language_code(locale_name: str) -> str:
    """``it_IT.UTF-8`` → ``it``; ``en-GB`` → ``en``; ``C.UTF-8`` → ``c``."""
    return locale_name.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
