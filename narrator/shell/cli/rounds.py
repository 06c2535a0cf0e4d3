"""A game of many nights at the terminal: night after night, the day and its vote, to a winner.

With a moderator the laptop's screen is the moderator's secret table: each part of the night is
spoken as it comes and the moderator types what each character pointed at. Without one (a
narrator-only variant) each night is spoken whole and the group types who died. Every entry is
saved at once (``narrator.shell.savedgames``); ``undo`` at any prompt takes back the last thing
typed, and ``narrate resume`` continues a game that was stopped.
"""

import random
import secrets
from collections.abc import Callable
from dataclasses import replace
from types import MappingProxyType
from typing import Any

import click

from narrator.core.deck import make_deck
from narrator.core.errors import Interrupted, NarratorError, Stopped, Terminated
from narrator.core.game import NOBODY_DIED_LINE, end_line
from narrator.core.i18n import msg
from narrator.core.kinds import options as tappable
from narrator.core.procedures import HandsStep, QuestionStep, VoteStep
from narrator.core.rounds import (
    ActStep,
    DawnStep,
    DayStep,
    EndQuestion,
    LynchStep,
    NightStep,
    Over,
    PhaseStep,
    Rounds,
    Setup,
    answer_for,
    entry_for,
    notes_for,
    places_for,
)
from narrator.core.script import INTRO_PHASE, OUTRO_PHASE, Count, NightScript, generate_script, settings_for
from narrator.core.state import Dawn
from narrator.core.views import deck_text
from narrator.core.vote import Sentences
from narrator.shell.cli.nightvoice import BoxVoice, NightVoice
from narrator.shell.cli.options import (
    AUDIO_OPTION_NAMES,
    BOX_OPTION_NAMES,
    COUNTDOWN,
    DAY_SECONDS,
    DECK_OPTION_NAMES,
    SCRIPT_OPTION_NAMES,
    choose_audio,
    choose_deck,
    choose_settings,
    day_length,
    day_rules,
    pick,
    say_seed,
)
from narrator.shell.cli.prompts import Undo, ask_form, ask_names, is_undo, prompt
from narrator.shell.cli.words import announced, ending, named, said_answer
from narrator.shell.savedgames import FOLDER, TOKENS, SavedGame, new_game_path
from narrator.shell.speakerbox import forms
from narrator.shell.speakerbox.moderator import UNDO, Console
from narrator.shell.translation import _, active_catalog, say

# What a saved game keeps of the command line, to sound the same when resumed, and what each
# may hold in its file (None: not given).
OPTION_KINDS = {"count_seconds": (int,), "count_style": (str,), "slot_seconds": (dict,), "countdown": (int, None),
                "engine": (str, None), "voice": (str, None), "rate": (int, None), "voice_pack": (str, None),
                "ambience": (str, None), "no_ambience": (bool,), "speaker_box": (bool,), "host": (str,),
                "port": (int,), "laptop_audio": (bool,), "listen": (bool,), "day_seconds": (int,)}


def check_options(game, saved: SavedGame) -> None:
    """A saved game's options are the ones narrate keeps, each of its kind (a file edited by hand)."""
    saved.options.setdefault("listen", False)  # (kept since --listen came: a game saved before had none)
    for name, kinds in OPTION_KINDS.items():
        value = saved.options.get(name, ...)
        fits = any(value is None if kind is None else isinstance(value, kind) and
                   (kind is bool or not isinstance(value, bool)) for kind in kinds)
        if not fits:
            raise NarratorError(msg("{file}: options: '{name}' is missing or not what narrate saved",
                                    file=saved.path, name=name))
    if sorted(saved.options) != sorted(OPTION_KINDS):
        raise NarratorError(msg("{file}: options: '{name}' is not an option narrate keeps", file=saved.path,
                                name=sorted(set(saved.options) - set(OPTION_KINDS))[0]))
    options = saved.options
    if not all(isinstance(seconds, int) and not isinstance(seconds, bool) for seconds in options["slot_seconds"].values()):
        raise NarratorError(msg("{file}: options: 'slot_seconds' holds seconds that are not whole numbers",
                                file=saved.path))
    try:  # the values too, as the command line checks them (a count of 0 s, a day of none)
        saved_settings(game, saved)
        if not 1 <= options["day_seconds"] <= DAY_SECONDS or not 1 <= (options["countdown"] or 1) <= COUNTDOWN:
            raise NarratorError(msg("the day lasts 1 to {most} seconds and counts down 1 to {count}",
                                    most=DAY_SECONDS, count=COUNTDOWN))
    except NarratorError as error:
        raise NarratorError(msg("{file}: options: {error}", file=saved.path, error=error.message)) from None


def start_rounds(env, params: dict) -> None:
    """A new game of many nights from the command line's options, saved from its first moment."""
    game = env.game
    settings = choose_settings(env, **pick(params, SCRIPT_OPTION_NAMES))
    choice = choose_deck(env, **pick(params, DECK_OPTION_NAMES), options=settings.options)
    say_seed(choice)
    day_seconds = day_length(env, params["day_minutes"], params["day_seconds"], False, params["names"])
    choose_audio(**pick(params, AUDIO_OPTION_NAMES))  # refused now, not at the first line
    for option, players in game.option_players.items():  # before the names are asked
        if settings.options.get(option) and choice.players != players:
            raise click.UsageError(_("{option} is played by {players} players, not {count}: add --players "
                                     "{players}").format(option=option, players=players, count=choice.players))
    from narrator.shell.cli.votes import seating_names

    seating = tuple(seating_names(env, params["names"], choice.players))
    click.echo(deck_text(game, choice.deck, choice.players, settings.lang, active_catalog(), settings.options))
    click.echo()
    cards = None
    if game.moderated(choice.deck.role_ids, settings.options):
        cards = (typed_cards(env, seating, choice.deck, settings.lang) if params["dealt"]
                 else dealt_cards(env, seating, choice.deck))
    elif params["dealt"]:
        raise click.UsageError(_("--dealt is for a game with a moderator: without one, nobody at the laptop sees "
                                 "the cards"))
    setup = Setup(seating, MappingProxyType(choice.deck.as_dict()), settings.options, cards,
                  MappingProxyType(dict(choice.deck.possible)))
    kept = (*AUDIO_OPTION_NAMES, *BOX_OPTION_NAMES, "count_style", "countdown", "speaker_box")
    options = {**pick(params, kept), "count_seconds": settings.count_seconds,
               "slot_seconds": dict(settings.slot_seconds), "day_seconds": day_seconds}
    saved = SavedGame(new_game_path(env.data_home / FOLDER, game.id, env.now()), game.id, settings.lang, options,
                      setup)
    Rounds(game, setup)  # the setup is checked before it is kept
    saved.save()
    run_rounds(env, saved, None if params["no_wait"] else "start" if params["dealt"] else "deal")


def dealt_cards(env, seating, deck) -> dict:
    """The narrator deals: the deck shuffled with a fresh seed, a card to each seat."""
    cards = _cards_of(deck)
    random.Random(env.new_seed()).shuffle(cards)
    return dict(zip(seating, cards, strict=True))


def typed_cards(env, seating, deck, lang: str) -> dict:
    """The moderator dealt the cards: who holds which, asked player by player and checked against the deck."""
    game = env.game
    left = _cards_of(deck)
    language = game.languages[lang]
    cards = {}
    for name in seating:
        def card(text: str, name=name) -> str:
            try:
                role_id = game.resolve_card(text, [role for role, _copies in deck.counts], language)
            except NarratorError as error:
                raise click.BadParameter(say(error)) from None
            if role_id not in left:
                raise click.BadParameter(_("no {role} card is left in the deck: {left}").format(
                    role=language.role_name(role_id), left=", ".join(language.role_name(r) for r in sorted(set(left)))))
            return role_id

        role_id = click.prompt(_("{name}'s card").format(name=name), value_proc=card)
        left.remove(role_id)
        cards[name] = role_id
    return cards


def _cards_of(deck) -> list[str]:
    return [role_id for role_id, copies in deck.counts for _copy in range(copies)]


def run_rounds(env, saved: SavedGame, waiting: str | None) -> None:
    """Play the game from where its entries leave it, saving after each one, to its end; the group
    is waited for (``waiting``, see ``ready.wait_for_group``) before the first sound."""
    game = env.game
    check_options(game, saved)
    saved.check_writable()
    rounds = Rounds(game, saved.setup, saved.entries)
    table = GameTable(env, saved, waiting)
    click.echo(_("The game is kept in {file}: if it stops, 'narrate resume' continues it.").format(file=saved.path))
    resumed = bool(rounds.entries) and not isinstance(rounds.step, Over)
    if resumed:
        click.echo(_("Resumed at {step}.").format(step=table.describe(rounds.step)))
        if rounds.step.state.cards is not None:
            table.secret_table(rounds.step.state)
    kept = True  # the saved file holds every answer so far

    def keep() -> None:
        nonlocal kept
        kept = saved.keep(lambda error: click.echo(_("narrate: {error}; the game goes on and is saved again after "
                                                     "the next answer").format(error=say(getattr(error, "held", error))),
                                                   err=True))

    try:
        if resumed:
            table.begin(rounds.step, len(rounds.entries))  # the console shows where the game is at once, while the group sits down
            table.voice.resumed(table.script(rounds.step.state.night, frozenset()), daytime(rounds.step))
        while not isinstance(rounds.step, Over):
            step = rounds.step
            table.begin(step, len(rounds.entries))
            try:
                entry = table.handle(step)
            except Undo:
                try:
                    back = rounds.undo()
                except NarratorError as error:
                    click.echo(say(error))
                    continue
                saved.entries = list(rounds.entries)
                keep()
                table.echo(_("Undone: back to {step}.").format(step=table.describe(back)))
                table.taken_back(step, back, len(rounds.entries))
                continue
            try:
                rounds.enter(entry)
            except NarratorError as error:  # an answer the prompts let through and the rules refuse
                table.echo(say(error))
                continue
            saved.entries = list(rounds.entries)
            keep()
        table.begin(rounds.step, len(rounds.entries))
        table.over(rounds.step)
        saved.over = True
        keep()
    except (KeyboardInterrupt, Interrupted, Terminated, Stopped, click.Abort) as stop:
        if isinstance(stop, (KeyboardInterrupt, Interrupted, click.Abort)):
            click.echo()  # a prompt may be waiting: the message gets a line of its own
        if kept:
            click.echo(_("narrate: the game is saved; 'narrate resume' goes on from here"), err=True)
        else:
            click.echo(_("narrate: the last answers could not be saved; 'narrate resume' goes on from the last "
                         "one that was"), err=True)
        raise
    finally:
        table.close()


def daytime(step) -> str:
    """Where a step is in the round: "night" (its night, its dawn), "day" (the day before its
    discussion) or "vote" (the discussion is over: the vote and what follows it)."""
    if isinstance(step, DayStep):
        return "day"
    if isinstance(step, (VoteStep, QuestionStep, ActStep, LynchStep)):
        return "vote"
    return "night"


BEFORE_STEPS = 6  # the unanswered steps kept above the step in hand on the console
LOG_STEPS = 12  # the steps the console's log keeps


def saved_settings(game, saved: SavedGame, night: int = 1):
    """The narration's settings a saved game was started with, for night ``night``."""
    options = saved.options
    return settings_for(game, saved.lang, options["count_seconds"], options["count_style"], saved.setup.options,
                        options["slot_seconds"], night)


def saved_deck(game, saved: SavedGame):
    """The deck in play in a saved game (its set, drawn or not, with its possible roles)."""
    return make_deck(game, saved.setup.deck, saved.setup.possible)


class GameTable:
    """The laptop during a game of many nights: the voice, the screen and the prompts."""

    def __init__(self, env, saved: SavedGame, waiting: str | None):
        self.env, self.saved, self.game = env, saved, env.game
        self.lang = saved.lang
        self.language = self.game.languages[self.lang]
        self.sentences = Sentences(self.language)
        options = saved.options
        self.audio = choose_audio(**pick(options, AUDIO_OPTION_NAMES))
        self.day_seconds = options["day_seconds"]
        # The steps already said in this run (a part of the night, a day), each with the number of
        # entries before it: an undo to fewer entries says them again.
        self.heard: dict[str, int] = {}
        self.entries = 0  # the entries before the step in hand
        self.eyes_open = True  # whether everyone's eyes are open (the day, or a run just begun)
        self.open_turn: tuple[NightScript, list] | None = None  # a turn called and not yet closed: its close
        self.turn_called: str | None = None  # the turn called last (its silent turns follow it)
        self.explained: int | None = None  # the day whose votes were shown before its actions
        self.places: dict = {}  # who was shown away from home tonight
        self.rules = day_rules(env, options["countdown"])
        self.console = None  # the moderator's console on a phone: a moderated game served to tablets
        self.lines: list[str] = []  # what the terminal printed for the step in hand, shown on the console too
        self.title, self.over_now = "", False
        self.secret: dict = {"table": [], "notes": []}  # the step's cards and the rules' notes, once per step
        self.told = ""  # the answer the moderator nods in the step in hand, shown large on the console
        self.said: list[str] = []  # the lines said aloud in the step in hand: all a tablet may show of it
        self.before: list[dict] = []  # the steps since the moderator last answered, kept on the console
        self.log: list[dict] = []  # what the game came to so far in this run, step by step, for the console
        self.answered = True  # the moderator has answered since the last step began
        if options["speaker_box"]:
            if saved.setup.cards is not None:
                self.console = Console(Undo, (EOFError, click.Abort))  # click's prompt: Abort at the input's end
            if saved.tokens is None:  # kept with the game: pages open when narrate stops come back on resume
                saved.tokens = {page: secrets.token_urlsafe(16) for page in TOKENS}
                saved.save()
            self.voice: NightVoice = BoxVoice(env, self.lang, self.audio, self.rules, pick(options, BOX_OPTION_NAMES), waiting,
                                  self.console, saved.tokens)
        else:
            self.voice = NightVoice(env, self.lang, self.audio, waiting)

    # --- the moderator's console: what the terminal shows and asks, on a phone too --------------------

    def begin(self, step, entries: int) -> None:
        """A new step (``entries`` before it): its title and, so far, no lines. The steps the
        moderator has not answered since the last answer stay on the console above it (a dawn's
        deaths and why, read while the day goes on): they go when the moderator moves on."""
        self.entries = entries
        if self.answered:
            self.before = []
        elif self.lines:
            self.before = [*self.before, {"title": self.title, "lines": self.lines}][-BEFORE_STEPS:]
        self.lines, self.over_now, self.told, self.answered = [], isinstance(step, Over), "", False
        self.said = []
        if self.console is not None:
            self.secret = self.secret_view(step.state, getattr(step, "tonight", MappingProxyType({})))
        self.title = self.describe(step)
        self.title = self.title[:1].upper() + self.title[1:]
        self.show()

    def echo(self, text: str = "", logged: bool = True) -> None:
        """Print a line for the laptop's screen (and the console's, and its log when ``logged``)."""
        click.echo(text)
        self.note(text, logged)

    def note(self, text: str, logged: bool = True) -> None:
        if text and self.console is not None:
            self.lines.append(text)
            if logged:
                self.logged(text.strip())
            self.show()

    def logged(self, text: str) -> None:
        """A line of the game's log, under its step's title; the log keeps the last few steps."""
        if not self.log or self.log[-1]["title"] != self.title:
            self.log = [*self.log, {"title": self.title, "lines": []}][-LOG_STEPS:]
        self.log[-1]["lines"].append(text)

    def spoken(self, text: str, key: str | None = None) -> None:
        """A line the voice says (and shows); kept with the step's others, the only lines a tablet
        may show (it is on the table: what is not said aloud is for the moderator alone)."""
        self.voice.announce(text, key=key)
        self.said.append(text)
        self.note(text)

    def show(self, form: dict | None = None) -> None:
        if self.console is not None:
            self.console.show(self.view(form))

    def view(self, form: dict | None = None) -> dict:
        """The step as the console shows it: its title, the lines printed, the table, the question."""
        return {"title": self.title, "lines": self.lines[-40:], **self.secret, "told": self.told, "form": form,
                "over": self.over_now, "before": self.before, "log": self.log}

    def secret_view(self, state, tonight=MappingProxyType({})) -> dict:
        """The console's table of a step's ``state`` (each player's card, dead or not) and the rules'
        notes, tonight's entries so far (``tonight``) among what they keep in mind."""
        if state.cards is None:
            return {"table": [], "notes": []}
        return {"table": [{"name": name, "card": self.language.role_name(state.cards[name]), "dead": name in state.dead}
                          for name in state.seating], "notes": list(self.notes(state, tonight))}

    def ask(self, form: dict, terminal, check=None):
        """The answer to one question: typed at the terminal (``terminal()`` asks), or tapped on the console."""
        console = self.console
        if console is None:
            return terminal()
        def tapped(value, prompted: bool) -> None:
            shown = _("undo") if value == UNDO else forms.in_words(form, value)
            self.echo(_("{answer} (from the moderator's phone)").format(
                answer=shown if prompted else f"{form['question']}: {shown}"), logged=False)

        def racing():
            typed = click.termui.visible_prompt_func
            click.termui.visible_prompt_func = console.prompt  # click's prompts read their lines here
            try:
                return terminal()
            finally:
                click.termui.visible_prompt_func = typed

        value = console.ask(self.view(form), racing, check, tapped)
        self.answered = True
        if form.get("question") and form["kind"] != "go":  # a choice, for the log (a go is a moment, not one)
            self.logged(f"{form['question']}: {forms.in_words(form, value)}")
        return value

    # --- the steps --------------------------------------------------------------------------------

    def handle(self, step) -> dict:
        handlers: dict[type, Callable[[Any], dict]] = {
            NightStep: self.night, PhaseStep: self.phase, DawnStep: self.dawn, EndQuestion: self.end_question,
            DayStep: self.day, VoteStep: self.vote, QuestionStep: self.question_step, HandsStep: self.hands_step,
            ActStep: self.act, LynchStep: self.lynch}
        return handlers[type(step)](step)

    def script(self, night: int, skip: frozenset[str]) -> NightScript:
        """Tonight's calls: the deck's turns for this night, less those the rules leave out."""
        settings = saved_settings(self.game, self.saved, night)
        return generate_script(self.game, saved_deck(self.game, self.saved), replace(settings, skip=skip))

    def night(self, step: NightStep) -> dict:
        self.heading(step.state.night)
        self.voice.whole_night(self.script(step.state.night, step.skip))
        return entry_for(step)

    def phase(self, step: PhaseStep) -> dict:
        script = self.script(step.state.night, step.skip)
        segments = [segment for segment in script.segments if segment.phase == step.phase]
        split = next((index + 1 for index, segment in enumerate(segments) if isinstance(segment, Count)), len(segments))
        first, rest = segments[:split], segments[split:]
        if step.phase == INTRO_PHASE:
            self.places = {}
        if step.phase == INTRO_PHASE and step.key not in self.heard:
            self.heading(step.state.night)
            self.secret_table(step.state)
        called = step.phase not in (INTRO_PHASE, OUTRO_PHASE) and not self.game.slot(step.phase).silent
        if step.key not in self.heard:
            if step.phase not in (INTRO_PHASE, OUTRO_PHASE) and self.eyes_open:
                self.close_eyes(script)  # a resumed night, or one gone back into: everyone closes them first
            self.voice.part(script, first)
            self.heard[step.key] = self.entries
            self.eyes_open = step.phase == OUTRO_PHASE
            if called:  # closed once the moderator has given a word (after its silent turns, if any)
                self.open_turn, self.turn_called = (script, rest), step.phase
        given = {}
        if step.ask is not None:
            name = self.character(step.phase) if step.phase != OUTRO_PHASE else ""
            if not step.ask.of_kind.entered:
                shown = step.ask.about or ", ".join(self.language.role_name(role_id) for role_id in step.ask.roles)
                if (told := answer_for(self.game, step.state, step.ask, None, step.tonight)) is not None:
                    self.nod(name, step.ask.key, told, shown or None)
            else:
                others = set(step.state.living) - set(step.ask.choosers)
                if step.ask.of_kind.names and set(step.ask.candidates) != others:
                    # a few only (the struck who raise a hand, the dead): named before the question
                    self.echo(_("  To choose from: {names}").format(names=", ".join(step.ask.candidates)))
                given["choice"] = self.entered(step.ask, name, step.phase)
                told = answer_for(self.game, step.state, step.ask, given["choice"], step.tonight)
                if told is not None:
                    about = given["choice"]
                    if isinstance(about, dict):  # a value of named parts: each shown in words (a turn by its name)
                        about = ", ".join(named(self.game, self.language, str(item)) for item in about.values())
                    self.nod(name, step.ask.key, told, about)
                self.show_places(places_for(self.game, step.state, step.ask, given["choice"], step.tonight))
        elif step.phase not in (INTRO_PHASE, OUTRO_PHASE) and (idle := self.idle(step)):
            self.echo(idle)
        if step.confirm:
            self.close_turn(self.character(self.turn_called or step.phase))
        if step.closes and self.open_turn is not None:
            self.voice.part(*self.open_turn)
            self.open_turn = None
        elif step.phase in (INTRO_PHASE, OUTRO_PHASE):  # the night's opening and its end: no turn to close
            self.voice.part(script, rest)
        return entry_for(step, **given)

    def close_turn(self, character: str) -> None:
        """The moderator's word that a turn in which nothing was entered may close: asked in every
        such turn, dealt or not, so that the wait before a close never tells whether anybody holds
        the card (issue 40)."""
        def parse(text: str):
            return Undo if is_undo(text.strip().casefold()) else True

        question = _("{character}: close the turn after as long as a turn usually takes").format(character=character)
        self.ask({"kind": "go", "question": question, "label": _("Close the turn")},  # the phone's button
                 lambda: prompt(question, parse, _("Enter: close it")))

    def close_eyes(self, script: NightScript) -> None:
        """The night's opening (everyone closes their eyes), said again before a turn when the
        group sits with their eyes open: a resumed game, or an undo from the day into the night."""
        opening = [segment for segment in script.segments if segment.phase == INTRO_PHASE]
        self.voice.part(script, opening[:next((index for index, segment in enumerate(opening)
                                               if isinstance(segment, Count)), len(opening))])
        self.eyes_open = False

    def taken_back(self, current, back, entries: int) -> None:
        """After an undo from ``current`` to ``back`` (``entries`` kept): the turn that was called
        is closed, and what the game comes to again is said again (a turn's opening, the day)."""
        if self.open_turn is not None:
            self.voice.part(*self.open_turn)  # its eyes closed before anyone else's open
            self.open_turn = None
        self.heard = {key: before for key, before in self.heard.items() if before < entries}
        self.explained = None
        if not self.eyes_open and not (isinstance(back, PhaseStep) and back.phase != OUTRO_PHASE):
            script = self.script(current.state.night, getattr(current, "skip", frozenset()))
            dawn = [segment for segment in script.segments if segment.phase == OUTRO_PHASE]
            self.voice.part(script, dawn)  # back into the day: everyone opens their eyes
            self.eyes_open = True

    def idle(self, step: PhaseStep) -> str | None:
        """Why nothing is entered in a turn, for the moderator: nobody living holds its card (dead,
        or never dealt), the rules' reason, or only that; nothing for a turn whose characters'
        doings are typed in the silent turns that follow it (asked there)."""
        slot = self.game.slot(step.phase)
        character = self.character(step.phase)
        if step.nobody_alive:
            dealt = any(role in slot.roles for role in (step.state.cards or {}).values())
            if slot.silent:  # nothing was called: only why nothing is asked
                return (_("  ({character}: out of the game)") if dealt else
                        _("  ({character}: nobody holds this card)")).format(character=character)
            return (_("  ({character}: out of the game; the turn is called all the same)") if dealt else
                    _("  ({character}: nobody holds this card; the turn is called all the same)")).format(
                character=character)
        if step.idle is not None:
            return f"  ({character}: {self.sentences.said(step.idle)})"
        if not slot.silent and not step.closes:  # its characters' doings are typed in the silent turns after it
            return None
        return _("  ({character}: nothing to enter tonight)").format(character=character)

    def entered(self, ask, character: str, phase: str | None = None):
        """What the moderator enters for an ask, at the terminal or on the console: the form its
        kind describes (``narrator.core.kinds``), asked the same way for any kind."""
        form = forms.for_ask(ask, self.question(ask, character, phase), self.sentences)
        check = forms.check_for(ask)
        if not ask.drawn:
            return self.ask(form, lambda: ask_form(form, ask.check), check)
        value = self.ask(form, lambda: ask_form(form), lambda value: None if value is None else check(value))
        if value is None:  # the laptop draws, as the moderator would draw a card
            value = random.Random(self.env.new_seed()).choice(ask.candidates)
            self.echo(_("  Drawn at random: {name}").format(name=value))
        return value

    def question(self, ask, character: str, phase: str | None) -> str:
        """An ask's question: the game's ``ask_KEY``, or what its kind asks of the character."""
        turn = phase not in (None, INTRO_PHASE, OUTRO_PHASE)
        copies = self.game.slot(phase).cards(self.saved.setup.deck) if turn else 1
        return self.sentences.optional(f"ask_{ask.key}") or say(ask.of_kind.question(ask, character, copies))

    def show_places(self, places: dict) -> None:
        """Where everyone is, once a movement changes it (the moderator's secret table)."""
        if places and places != self.places:
            lines = [self.sentences.optional("place_out", name=name) or _("{name}: out").format(name=name)
                     if house is None else self.sentences.optional("place_at", name=name, house=house)
                     or _("{name}: at {house}'s").format(name=name, house=house) for name, house in places.items()]
            self.echo(_("  Away from home: {places}").format(places="; ".join(lines)))
        self.places = places

    def dawn(self, step: DawnStep) -> dict:
        if step.dawn is None:
            question = _("Who found their card turned?")
            dead = self.ask({"kind": "several", "question": question, "options": tappable(step.state.living),
                             "none": True}, lambda: ask_names(question, step.state.living)) or []
            self.announce(Dawn(step.state.died(dead), tuple(dead)))
            return entry_for(step, dead=dead)
        for reason, name in step.dawn.reasons:
            self.echo("  " + self.sentences(f"reason_{reason}", name=name, players=len(step.state.seating)))
        self.announce(step.dawn)
        return entry_for(step)

    def announce(self, result) -> None:
        """What a night or a day came to, said aloud as the game's rules say it (a dawn with no
        death has a line of its own, in the voice packs)."""
        if isinstance(result, Dawn) and not result.dead and not result.revived:
            self.spoken(self.language.line(NOBODY_DIED_LINE), key=NOBODY_DIED_LINE)
        for line in announced(self.game, result, self.sentences):
            self.spoken(line)

    def end_question(self, step: EndQuestion) -> dict:
        shown = {winner: self.winner_name(winner) for winner in step.winners}
        sides = {name.casefold(): winner for winner, name in shown.items()} | {winner: winner for winner in shown}
        names = ", ".join(shown.values())
        question, hint = ((_("Which side has won?"), names) if step.must_end
                          else (_("Has a side won?"), _("Enter: not yet; or {sides}").format(sides=names)))

        def side(text: str):
            text = text.strip().casefold()
            if is_undo(text):
                return Undo
            if not text and not step.must_end:
                return None
            if text in sides:
                return sides[text]
            raise click.BadParameter(_("'{answer}' is not a side: {sides}").format(answer=text, sides=names))

        winner = self.ask({"kind": "pick", "question": question, "none": not step.must_end,
                           "options": [{"label": name, "value": side} for side, name in shown.items()]},
                          lambda: prompt(question, side, hint))
        return entry_for(step, winner=winner)

    def winner_name(self, winner: str) -> str:
        """A side's name, or a role's that wins alone."""
        return self.language.sides[winner] if winner in self.language.sides else self.language.role_name(winner)

    def day(self, step: DayStep) -> dict:
        self.echo()
        self.echo(_("Day {night}. Living: {names}.").format(night=step.state.night,
                                                             names=", ".join(step.state.living)))
        if self.game.day.on_timer(step.state.options):
            self.voice.day(self.day_seconds, self.rules)
        else:
            self.open_day()
        self.heard[step.key] = self.entries
        for opening in step.procedure.opening:  # what the game says of today's vote, however it is given
            self.echo(self.sentences.said(opening))
        if step.procedure.most_hands is not None and self.by_hands(_("The secret vote")):
            return entry_for(step, hands=self.hands(step.procedure.candidates, step.procedure.most_hands))
        return entry_for(step)

    def hands_step(self, step: HandsStep) -> dict:
        """A round of the day's vote the moderator may give as the hands counted for each name."""
        for said in step.intro:  # the round's opening, in the game's words
            self.echo(self.sentences.said(said))
        if self.by_hands(_("This round of votes")):
            return entry_for(step, hands=self.hands(step.candidates, step.most))
        return entry_for(step, hands=None)

    def open_day(self) -> None:
        """A discussion off the timer: its opening line, then the vote when the moderator says it is over."""
        from narrator.core.day import DISCUSS, VOTE

        self.voice.open_day()
        self.spoken(self.language.line(DISCUSS), key=DISCUSS)

        def parse(text: str):
            if is_undo(text.strip().casefold()):
                return Undo
            return None

        question = _("The discussion is on: press Enter when it is over")
        self.ask({"kind": "go", "question": _("The discussion is on: when it is over, call the vote"),
                  "label": _("The vote")},  # the phone's words: it has a button, not an Enter key
                 lambda: prompt(question, parse, _("Enter: the vote")) or True)
        self.voice.call_vote()
        self.spoken(self.language.line(VOTE), key=VOTE)

    def by_hands(self, title: str) -> bool:
        """Whether the moderator gives the hands counted for each name rather than each vote (in the
        vote ``title`` names)."""
        def parse(text: str):
            text = text.strip().casefold()
            if is_undo(text):
                return Undo
            if text in ("", _("v")):
                return False
            if text == _("h"):
                return True
            raise click.BadParameter(_("type {hands} or press Enter").format(hands=_("h")))

        question = _("{vote}: Enter to type each vote, {hands} to type the hands counted for each "
                     "name").format(vote=title, hands=_("h"))
        return self.ask({"kind": "pick", "question": title, "options": [
            {"label": _("Each vote"), "value": False}, {"label": _("Hands for each name"), "value": True}]},
            lambda: prompt(question, parse))

    def hands(self, candidates, most: int) -> dict[str, int]:
        """The hands raised for each of ``candidates``, called aloud one by one, as the moderator
        counted them (``most`` in all at most)."""
        def parse(text: str):
            text = text.strip()
            if is_undo(text):
                return Undo
            if not text:
                return 0
            if text.isascii() and text.isdigit() and int(text) <= most:
                return int(text)
            raise click.BadParameter(_("a number of hands from 0 to {most}").format(most=most))

        while True:
            counts = {}
            for name in candidates:  # the laptop calls each name aloud; the moderator counts the hands
                self.spoken(name)
                question = _("Hands for {name}").format(name=name)
                counts[name] = self.ask({"kind": "count", "question": question, "most": most},
                                        lambda question=question: prompt(question, parse, _("Enter: none")))
            if sum(counts.values()) <= most:
                return counts
            self.echo(_("{count} hands, but the voters have {most} at most: count again.").format(
                count=sum(counts.values()), most=most))

    def vote(self, step: VoteStep) -> dict:
        for said in step.intro:  # the round's opening, in the game's words
            self.echo(self.sentences.said(said))
        out = _(" (out of the game)") if step.voter in step.state.dead else ""
        question = self.sentences.said(step.question) if step.question else \
            _("{voter}{out} votes for").format(voter=step.voter, out=out)
        nobody = step.may_pass
        form = {"kind": "several" if step.several else "one", "question": question, "none": nobody,
                "options": tappable(step.candidates)}
        return entry_for(step, voted=self.ask(form, lambda: ask_form(form)))  # several: one vote for each name

    def question_step(self, step: QuestionStep) -> dict:
        """A question of the day's procedure that is no vote, asked as the rules' asks are."""
        for said in step.intro:
            self.echo(self.sentences.said(said))
        return entry_for(step, choice=self.entered(step.ask, ""))

    def act(self, step: ActStep) -> dict:
        """A day's action once the vote has decided (a pardon, a shot): the votes it acts on are
        shown first (once a day), then whom the vote condemns, then the question."""
        if self.explained != step.state.night:
            lines = self.game.rules.explain_day(self.game, step.procedure, step.verdict, self.sentences)
            for line in lines[:-1]:
                self.echo(line)
            self.explained = step.state.night
        if step.verdict.lynched is not None:
            self.echo(_("The vote condemns {name}.").format(name=step.verdict.lynched))
        return entry_for(step, choice=self.entered(step.ask, self.language.role_name(
            step.state.cards[step.ask.choosers[0]]) if step.ask.choosers and step.state.cards is not None else ""))

    def lynch(self, step: LynchStep) -> dict:
        lines = self.game.rules.explain_day(self.game, step.procedure, step.verdict, self.sentences)
        shown = len(lines) - 1 if self.explained == step.state.night else 0  # the votes, shown before an action
        self.explained = None
        lines += [self.sentences(f"reason_{reason}", name=name, players=len(step.state.seating))
                  for reason, name in step.dusk.reasons]
        for line in lines[shown:-1]:
            self.echo(line)
        self.spoken(lines[-1])
        self.announce(step.dusk)
        self.voice.result(self.said, final=False)  # what was said: the counts and the votes are the moderator's
        return entry_for(step)

    def over(self, step: Over) -> None:
        self.echo()
        key = end_line(step.sides)
        self.spoken(self.language.line(key), key=key)
        also = ending(self.language, step.sides)[1:]  # the other sides that win with the first
        for line in also:
            self.spoken(line)
        self.voice.result(self.said)  # the winners' names are shown here, not said
        if step.winners:
            self.echo(_("Winners: {names}").format(names=", ".join(step.winners)))
        if step.state.cards is not None:
            self.secret_table(step.state)

    # --- the screen and the prompts ---------------------------------------------------------------

    def heading(self, night: int) -> None:
        click.echo()
        click.echo(_("── Night {night} ──").format(night=night))

    def secret_table(self, table) -> None:
        """The moderator's table: each player's card, the dead marked (for the moderator's eyes)."""
        click.echo(_("The cards (for the moderator's eyes only):"))
        width = max(len(name) for name in table.seating)
        for name in table.seating:
            mark = " " + _(" (out of the game)") if name in table.dead else ""
            click.echo(f"  {name.ljust(width)}  {self.language.role_name(table.cards[name])}{mark}")
        for note in self.notes(table):
            click.echo(f"  · {note}")

    def notes(self, state, tonight=MappingProxyType({})) -> tuple[str, ...]:
        """What the rules tell the moderator beyond the cards and the dead (lovers, curses, powers
        spent, who is protected tonight)."""
        return notes_for(self.game, state, self.sentences, tonight)

    def character(self, slot_id: str) -> str:
        """A turn's name as the deck calls it (plural for several cards)."""
        slot = self.game.slot(slot_id)
        return self.language.slot_name(slot, slot.cards(self.saved.setup.deck))

    def nod(self, character: str, key: str, told: str | int, name) -> None:
        """The answer the moderator gives with a nod or a shake of the head (the character's eyes are
        open) for the ask's ``key``, and whom or what it is about, when anybody or anything."""
        answer = said_answer(self.game, self.sentences, key, told)
        self.told = answer if name is None else f"{answer} ({name})"
        self.echo(_("  {character}: {answer}").format(character=character, answer=self.told))

    def describe(self, step) -> str:
        night = step.state.night
        if isinstance(step, PhaseStep) and step.phase not in (INTRO_PHASE, OUTRO_PHASE):
            return _("night {night}, {character}").format(night=night, character=self.character(step.phase))
        if isinstance(step, (VoteStep, QuestionStep)) and (title := self.sentences.optional(f"title_{step.round}")):
            # a round the game names (the accusations, the runoff): its title, and whose turn it is
            day = _("{round}, day {night}").format(round=title, night=night)
            return _("{step}: {voter}").format(step=day, voter=step.voter) if isinstance(step, VoteStep) else day
        if isinstance(step, PhaseStep):
            return (_("the start of night {night}") if step.phase == INTRO_PHASE else
                    _("the end of night {night}")).format(night=night)
        if isinstance(step, EndQuestion):
            return _("night {night}, whether a side has won").format(night=night)
        if isinstance(step, VoteStep):
            return _("{voter}'s vote, day {night}").format(voter=step.voter, night=night)
        if isinstance(step, DawnStep):
            return _("the dawn after night {night}").format(night=night)
        if isinstance(step, QuestionStep | HandsStep):
            return _("day {night}, the vote").format(night=night)
        if isinstance(step, (ActStep, LynchStep)):
            return _("day {night}, after the vote").format(night=night)
        if isinstance(step, DayStep):
            return _("day {night}").format(night=night)
        if isinstance(step, Over):
            return _("the end of the game")
        return _("night {night}").format(night=night)

    def close(self) -> None:
        self.voice.close()

