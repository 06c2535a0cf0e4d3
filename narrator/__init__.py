"""narrator: an offline speaker for One Night werewolf games."""

__version__ = "0.1.0"
