"""How many files narrate may hold open at once, as each system counts them.

On Linux and macOS every socket is an open file, and the usual soft limit (1,024 on Linux, 256 on
macOS) is far below the hard one the user could raise it to. The speaker box raises the soft limit
to the hard one when it starts serving, so that its own bounds on connections (derived from the
limit) are what a flood of sockets meets, long before the game's saves or its audio run out of
files. macOS refuses a soft limit over OPEN_MAX for files whatever the hard one says, so that is
tried next. Windows counts no such limit for sockets: nothing is asked or changed there, and the
box takes the usual figure (``resource`` does not even exist on Windows).
"""

from narrator.shell import platform

USUAL = 1024  # what the box assumes where the system has no such limit to ask
MACOS_MOST = 10240  # OPEN_MAX: the highest soft limit macOS takes for files


def raise_open_files() -> int:
    """Raise this process's soft limit of open files to its hard one, as far as the system allows;
    the soft limit now in force (``USUAL`` on Windows, where nothing is changed)."""
    if platform.windows():
        return USUAL
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    for wanted in (hard, min(hard, MACOS_MOST)):
        if wanted <= soft:
            return soft
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):
            continue  # over what the system takes: the next, smaller, wish
        return wanted
    return soft
