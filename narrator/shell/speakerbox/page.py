"""The speaker box page in the game's language: its words, and the page filled in with them.

The page's HTML holds ``{{name}}`` slots; the words go in escaped, and box.js reads the same
words (for what it writes later, such as "reconnecting…") from a JSON block in the page.
"""

import html
import json
import re

from narrator.core.i18n import N_, Catalog
from narrator.shell.speakerbox import pace

PAGE_TEXTS = {
    "title": N_("narrate · speaker box"),
    "control_title": N_("narrate · controls"),
    "join": N_("Tap to join"),
    "join_hint": N_("This tablet becomes one of the speakers of the night."),
    "connecting": N_("connecting…"),
    "loading": N_("loading the night…"),
    "in_step": N_("connected · in step (±{ms} ms)"),
    "catching_up": N_("connected · catching up ({ms} ms off)"),
    "lost": N_("Connection lost"),
    "lost_retry": N_("trying again… ({seconds} s)"),
    "lost_hint": N_("Is narrate still running on the laptop? Is this tablet on the same Wi-Fi?"),
    "stale": N_("This address is not the game's"),
    "stale_hint": N_("Its key belongs to another game, or to none: open the address narrate printed for this one."),
    "sound_off": N_("Sound off"),
    "sound_off_hint": N_("Tap the screen to turn this tablet's sound back on."),
    "waiting": N_("Ready"),
    "waiting_hint": N_("Put the tablet in the middle of the table, face down, with the volume up."),
    "waiting_control": N_("Waiting for Start."),
    "waiting_deal": N_("Deal the cards, then press Start when everyone has theirs."),
    "waiting_go_on": N_("Press Start when everyone is back at the table."),
    "may_lock": N_("This browser cannot keep the screen on from here: set the tablet's screen to stay on "
                   "for the game (Settings, Display), or its sound may stop when it locks."),
    "night": N_("Night"),
    "night_hint": N_("Eyes closed."),
    "night_done": N_("{percent}% of the night"),
    "paused": N_("Paused"),
    "paused_hint": N_("The night goes on from here when the laptop resumes it."),
    "day": N_("Day"),
    "day_paused": N_("Day · paused"),
    "day_open": N_("The discussion is on."),
    "vote": N_("Vote!"),
    "result": N_("Result"),
    "game_over": N_("Game over"),
    "start": N_("Start"),
    "pause": N_("Pause"),
    "resume": N_("Resume"),
    "next_night": N_("End the night"),
    "next_day": N_("Vote now"),
    "confirm_next_night": N_("Tap again to end the night"),
    "confirm_next_day": N_("Tap again to call the vote"),
    "sending": N_("Sending…"),
    "done_start": N_("The night starts."),
    "done_day": N_("The day goes on."),
    "done_pause": N_("Pausing."),
    "done_resume": N_("Going on."),
    "done_next": N_("On to what comes next."),
    "no_tablets": N_("No tablet has joined yet: open the address narrate printed on each tablet."),
    "tablet": N_("Tablet {n}"),
    "tablet_in_step": N_("in step (±{ms} ms)"),
    "tablet_catching_up": N_("catching up ({ms} ms off)"),
    "tablet_ready": N_("ready"),
    "tablet_loading": N_("loading the night"),
    "tablet_sound_off": N_("sound off: tap its screen"),
    "tablet_may_lock": N_("its screen may lock"),
    "tablet_silent": N_("no news for {seconds} s"),
    "tablet_gone": N_("disconnected"),
    "tablet_refused": N_("refused {seconds} s ago: no place free"),
    "remove": N_("Remove"),
    "tablet_delay": N_("speaker {ms} ms late"),
    "delay_hint": N_("How late this tablet's speaker sounds (a far or Bluetooth one): it plays that much earlier."),
    "done_remove": N_("Removed: its place is free."),
    "done_delay": N_("Set: that tablet plays by it from now on."),
    "tablet_missed": N_("the laptop did not hear it: is its sound up?"),
    "tablet_unheard": N_("silent until the laptop has heard it"),
    "listen": N_("Listen to the tablets"),
    "listen_hint": N_("Each tablet plays a short hiss and the laptop's microphone sets its speaker delay from it."),
    "done_listen": N_("The laptop listens before the next start."),
    "refused": N_("Not playing"),
    "refused_hint": N_("It joins by itself once a place is free: on the laptop's controls page, remove a tablet "
                       "that is not in use."),
    "moderator_title": N_("narrate · moderator"),
    "moderator_cards": N_("The table"),
    "moderator_dead": N_("out"),
    "moderator_log": N_("What has happened"),
    "moderator_undo": N_("Take back the last answer"),
    "moderator_undo_again": N_("Tap again to take back the last answer"),
    "moderator_nobody": N_("Nobody"),
    "moderator_none": N_("None"),
    "moderator_confirm": N_("Confirm"),
    "moderator_listen": N_("Nothing to enter: listen."),
    "moderator_answered": N_("Already answered: here is what the game asks now."),
    "moderator_taken": N_("Taken."),
    "moderator_lost_hint": N_("Nothing tapped here reaches the game until the connection is back. Is narrate "
                              "still running on the laptop? Is this phone on the same Wi-Fi as the laptop?"),
    "moderator_not_sent": N_("Not sent: no connection to the laptop. Tap again once it is back."),
    "moderator_refused": N_("Not taken: {reason}"),
    "moderator_not_this": N_("Not this one"),
    "moderator_yes": N_("Yes"),
    "moderator_chosen": N_("{count} chosen"),
    "moderator_too_many": N_("{count} chosen: {most} at most"),
    "moderator_too_few": N_("{count} chosen: at least {least}"),
    "moderator_still": N_("Still to choose: {names}"),
    "moderator_count": N_("count: {seconds} s left"),
}

_SLOT = re.compile(r"\{\{(\w+)\}\}")


def page_texts(catalog: Catalog) -> dict[str, str]:
    return {name: catalog.gettext(message) for name, message in PAGE_TEXTS.items()}


def filled_page(template: str, language: str, catalog: Catalog) -> bytes:
    """The page with its language, its words, and the words and pace box.js needs."""
    words = page_texts(catalog)
    # In a <script> block only "</" could end it early; JSON's \\u escape keeps it inert.
    data = json.dumps(words, ensure_ascii=False).replace("</", "<\\u002f")
    values = {**{name: html.escape(text) for name, text in words.items()},
              "lang": html.escape(language), "texts": data, "pace": pace.told()}
    return _SLOT.sub(lambda match: values[match[1]], template).encode("utf-8")
