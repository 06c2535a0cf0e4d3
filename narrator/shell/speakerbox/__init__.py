"""The speaker box: tablets on the local network play the night in step and show the day."""
