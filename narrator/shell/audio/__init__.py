"""Sound: voices (voice packs and text-to-speech), background beds, the mixed night, playback.

Everything here imports numpy and audio libraries, so only the commands that make sound load it.
"""
