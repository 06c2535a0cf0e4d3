"""Wherewolf Revised's rules (shared/rules/wherewolf-revised.md), on the contract of a game of many
nights (``narrator.core.nights``) whose group chooses the Possibili (``CHOSEN_POSSIBLE``): the
Possibili and the Effettivi drawn among them, the night's answers, the dawn in the digest's order
(the Capo Gilda, the Assassino, the wolves and every protection, the Angelo Custode, the Vampiro
and the Ghoul, the Guaritore, the Amuleto and the Spada, the lovers and the Eroe, the Pazzo), the
accusations and the ballottaggio with their cancellations, and the end, found only at a day's start.

Pure functions: the game, the state and the night's (or the day's) entries in; values out. The
game's own state (``state.own``): the faction each changed player has now, the Progenie and the
wolf-born, the Amato and Romeo, the powers spent, the Ladra's shield, the next night's double or
cancelled attack, the day after the Giullare's burning, the lovers who die of grief, who wins
whenever the game ends, each dead player's aura, and the holders of the Amuleto and the Spada.
"""

import random
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, ClassVar

from narrator.core.card import Block
from narrator.core.deck import Deck
from narrator.core.errors import DeckError
from narrator.core.game import Game, Language
from narrator.core.i18n import Text, msg, plural
from narrator.core.nights import PLAYER_ANSWER
from narrator.core.procedures import (
    Procedure,
    Said,
    Verdict,
    Vote,
    hands_or_votes,
    said,
    settled,
    tally_text,
    top,
    votes_round,
    weighed,
)
from narrator.core.state import EMPTY, Ask, Dawn, Dusk, State
from narrator.core.vote import Sentences

# --- who is who (game.yaml's ids and sides) ---------------------------------------------------------

VILLAGE, CRIMINALS, CITY, PACK, VAMPIRE_SIDE, LOVERS, NO_FACTION = (
    "villaggio", "criminali", "citta", "lupi-del-branco", "vampiro", "amante", "nessuna")
SHADOW = (PACK, VAMPIRE_SIDE)
ENDS = (VILLAGE, CRIMINALS, CITY, PACK, VAMPIRE_SIDE, LOVERS, "pazzo", "giullare")
END_WITHOUT_SIDE = True  # nobody left, or only the lovers: no faction wins
CHOSEN_POSSIBLE = True  # the group agrees the Possibili; possible_roles is the project's default list
ROLE_FIELDS = {"dark": "flag", "mystic": "flag", "moons": "count"}

SEER, MAGE, MEDIUM, WITCH, HEALER = "veggente", "mago", "medium", "strega", "guaritore"
LEADER, PACK_WOLF, YOUNG_WOLF = "capo-branco", "lupo-del-branco", "giovane-lupo"
WOLF_CARDS = (LEADER, PACK_WOLF, YOUNG_WOLF)
PEASANT, HERO, DESCENDANT = "contadino", "contadino-eroe", "contadino-discendente"
CONTADINI = (PEASANT, HERO, DESCENDANT)
GUARDS = ("guardia", "altra-guardia")
CORRUPT = "guardia-corrotta"
ANGEL, JULIET, TRAITOR, VAMPIRE, GHOUL = "angelo-custode", "giulietta", "traditore", "vampiro", "ghoul"
HUNTER, HERMIT, PRIEST, MONK, BARD, HOST = "cacciatore-di-vampiri", "eremita", "prete", "monaco", "bardo", "oste"
THIEF, GUILD, ASSASSIN, SPY = "ladra", "capo-gilda", "assassino", "spia"
ROSA, MAYOR, MERCHANT, LAWYER, ORATOR = "bocca-di-rosa", "borgomastro", "mercante", "azzeccagarbugli", "oratore"
MADMAN, JESTER = "pazzo", "giullare"
AMULET, SWORD = "amuleto", "spada"
WOLVES_KEY = "lupi-mannari"
ONCE = (THIEF, GUILD, ASSASSIN, HEALER)  # powers used once a game

NIGHT_KEYS = {
    ANGEL: "player", JULIET: "player", SEER: "player", MAGE: "player", MEDIUM: "player", WITCH: "player",
    WOLVES_KEY: "players", VAMPIRE: "player", HEALER: "player", THIEF: "fields", GUILD: "fields",
    ASSASSIN: "fields", AMULET: "player", SWORD: "player",
    "guardie": "told", PRIEST: "told", HUNTER: "told", MONK: "told",
}
DAY_KEYS = {"tied": "players", ORATOR: "players"}
ANSWERS = {
    SEER: ("dark", "white"), MAGE: ("mystic", "not-mystic"), MEDIUM: ("dark", "white"),
    THIEF: (PLAYER_ANSWER, "absent"), GUILD: ("mystic-present", "recruited", "killed", "nothing"),
    "guardie": (0, 1, 2, 3, 4, 5), PRIEST: ("present", "absent"), HUNTER: ("present", "absent"),
    MONK: ("undealt",), ANGEL: ("warn",), JULIET: ("warn",), AMULET: ("warn",), SWORD: ("warn",),
}
# a record's ``amuleto: NAME`` and ``spada: NAME``: the option on, and its first bearer, told on night 1
NAMED_OPTIONS = {AMULET: AMULET, SWORD: SWORD}
NEWS = {BARD: "white", HOST: "dark"}  # the tavern's news: which aura the Veggente saw (dawn answers)
VOTE_KEYS = {"pointing": LAWYER, "accusation": "accusation", "runoff": "ballottaggio"}
END_AFTER = ("dawn",)  # the end is looked for only at the start of a day
SENTENCES = ("title_pointing", "title_accusation", "title_runoff",  # the rounds' titles
             "idle_spent", "idle_acted", "no_accusations",
             "accused", "accusations", "ballottaggio", "round_pointing", "round_accusation", "round_accused",
             "question_pointing", "burned", "spared", "dawn_dead", "news_bardo", "news_oste",
             "no_news", "revealed", "answer_rumour", "answer_silence",
             *(f"reason_{reason}" for reason in (
                 "grief", "guild", "assassin", "wolves", "angel", "protected", "converted", "progenie", "ghoul",
                 "hunted", "sword", "healed", "amulet", "lovers", "hero", "cancelled", "stalemate", "burned",
                 "spared")),
             *(f"ask_{key}" for key in (ANGEL, JULIET, WOLVES_KEY, VAMPIRE, HEALER, THIEF, GUILD, ASSASSIN, AMULET,
                                        SWORD, "tied", ORATOR)),
             "ask_capo-gilda_recruit", "ask_assassino_kill",
             *(f"note_{key}" for key in (
                 "lovers", "amato", "progenie", "wolfborn", "recruited", "spent", "shield", AMULET, SWORD, "grief",
                 "double", "cancel", "jester", "winners", "witch", "healer")))
CARD_TEXTS = ("dawn", "dawn_text", "vote", "vote_text", "end", "end_text")


# --- the Possibili and the Effettivi ----------------------------------------------------------------

# The project's default lists (the digest's, carried on to every card of one and of two moons): the
# shadow side first, a quarter of the players rounded half up, then the humans until the table is full.
SHADOW_ORDER = {1: (LEADER, PACK_WOLF, TRAITOR, YOUNG_WOLF),
                2: (LEADER, PACK_WOLF, TRAITOR, VAMPIRE, YOUNG_WOLF, GHOUL)}
HUMAN_ORDER = {
    1: (SEER, WITCH, MAGE, PEASANT, HERO, HEALER, HERMIT, MEDIUM, BARD, HOST, PRIEST, "peccatore", MONK, MADMAN,
        JESTER),
    2: (SEER, WITCH, MAGE, PEASANT, "guardia", ASSASSIN, MAYOR, HERO, HEALER, ANGEL, THIEF, ORATOR, HERMIT, HUNTER,
        MEDIUM, JULIET, GUILD, MERCHANT, BARD, HOST, "altra-guardia", SPY, ROSA, PRIEST, "peccatore", LAWYER,
        CORRUPT, MONK, MADMAN, JESTER),
}
START_SHADOW = (LEADER, PACK_WOLF, YOUNG_WOLF, TRAITOR)  # the shadow side at the start: wolves and traitor
ALWAYS = (SEER, LEADER)


def moons(options) -> int:
    return 2 if options["due-lune"] else 1


def dropped(options) -> set[str]:
    """The roles the options leave out: the Medium with cards shown, the vote's spies with open votes."""
    out = set()
    if options["rivelazione-ruolo"]:
        out.add(MEDIUM)
    if options["votazione-scoperta"]:
        out.update((SPY, LAWYER))
    return out


def shadow_count(players: int) -> int:
    """About a quarter of the players, rounded half up (8 -> 2, 10 -> 3)."""
    return (players + 2) // 4


def default_lists(options) -> tuple[tuple[str, ...], tuple[str, ...]]:
    out = dropped(options)
    return (tuple(role_id for role_id in SHADOW_ORDER[moons(options)] if role_id not in out),
            tuple(role_id for role_id in HUMAN_ORDER[moons(options)] if role_id not in out))


def default_possible(players: int, options) -> tuple[str, ...]:
    """The project's Possibili for ``players``: its Effettivi by the two lists, and the next two
    roles of each list; () when the lists cannot seat everyone (one moon holds 19 at most)."""
    shadow, humans = default_lists(options)
    evil = min(shadow_count(players), len(shadow))
    good = players - evil
    if good > len(humans):
        return ()
    return (*shadow[:evil + 2], *humans[:good + 2])


def draw_counts(game, players: int, options, possible: Mapping[str, int], rng: random.Random) -> dict[str, int]:
    """The Effettivi among ``possible``: the Veggente and the Capo Branco, the shadow side at the
    start as near a quarter of the players as the Possibili allow, then any of the others (more of
    the shadow side only when nothing else is left), never more than two Contadino cards."""
    pool = Counter({role_id: copies for role_id, copies in possible.items() if copies})
    drawn: Counter = Counter()

    def take(role_id):
        drawn[role_id] += 1
        pool[role_id] -= 1

    for role_id in ALWAYS:
        take(role_id)
    shadow = [role_id for role_id in START_SHADOW if pool[role_id] > 0]
    rng.shuffle(shadow)
    for role_id in shadow[:max(0, shadow_count(players) - 1)]:
        take(role_id)
    for shadow_too in (False, True):  # the shadow side beyond a quarter only when nothing else is left
        while sum(drawn.values()) < players:
            cards = [role_id for role_id in game.role_ids for _ in range(pool[role_id])
                     if (shadow_too or role_id not in START_SHADOW)
                     and not (role_id in CONTADINI and sum(drawn[c] for c in CONTADINI) >= 2)]
            if not cards:
                break
            take(rng.choice(cards))
    return {role_id: drawn[role_id] for role_id in game.role_ids if drawn[role_id]}


def draw_deck(game: Game, players: int, options: Mapping[str, bool], possible: Mapping[str, int] | None, rng: random.Random) -> Mapping[str, int]:
    if possible is None:
        shadow, humans = default_lists(options)
        if len(shadow) + len(humans) < players:
            raise DeckError(msg("with these options the box holds cards for {most} players at most, not {players}: "
                                "play with fewer, or with due-lune on and without rivelazione-ruolo or "
                                "votazione-scoperta", most=len(shadow) + len(humans), players=players))
        possible = {role_id: 1 for role_id in default_possible(players, options)}
    problem = possible_problem(game, players, options, possible)
    if problem is not None:
        raise DeckError(problem)
    drawn = draw_counts(game, players, options, possible, rng)
    if sum(drawn.values()) < players:
        raise DeckError(msg("the possible roles seat {seated} players, not {players} (two Contadino cards "
                                       "at most): add roles to --possible", seated=sum(drawn.values()),
                                       players=players))
    return drawn


def possible_roles(game: Game, players: int, options: Mapping[str, bool]) -> Collection[str]:
    return default_possible(players, options)


def deck_problem(game: Game, deck: Deck, options: Mapping[str, bool], possible: Mapping[str, int] | None) -> Text | None:
    """The digest's deck rules, the options' and, when the group chose them, the Possibili's."""
    counts = deck.as_dict()
    for rule in (_always, _contadini, _moons, _options):
        found = rule(game, counts, options)
        if found is not None:
            return found
    if possible is None or dict(possible) == {role.id: role.copies for role in game.roles}:
        return None  # no list agreed (a game record: the whole box)
    found = possible_problem(game, sum(counts.values()), options, possible)
    if found is not None:
        return found
    beyond = next((role_id for role_id, copies in counts.items() if copies > possible.get(role_id, 0)), None)
    if beyond is not None:
        return msg("'{role}' is dealt but not among the possible roles: add it to --possible, or leave it out",
                   role=beyond)
    return None


def possible_problem(game, players, options, possible) -> Text | None:
    """Why the group's Possibili do not do for ``players``: players to twice the players cards,
    with the Veggente and the Capo Branco, of the moons and the options chosen."""
    beyond = next((role_id for role_id, copies in possible.items() if copies > game.role(role_id).copies), None)
    if beyond is not None:
        return plural("the possible roles: the box has only {count} '{role}' card",
                      "the possible roles: the box has only {count} '{role}' cards", game.role(beyond).copies,
                      role=beyond)
    size = sum(possible.values())
    if not players <= size <= 2 * players:
        return msg("the possible roles are {size} cards: {players} players agree {players} to {most} of them",
                   size=size, players=players, most=2 * players)
    for rule in (_always, _moons, _options):
        found = rule(game, dict(possible), options)
        if found is not None:
            return msg("the possible roles: {problem}", problem=found)
    return None


def _always(game, counts, options) -> Text | None:
    missing = next((role_id for role_id in ALWAYS if not counts.get(role_id)), None)
    if missing is None:
        return None
    return msg("every game has the '{role}': add it", role=missing)


def _contadini(game, counts, options) -> Text | None:
    have = sum(counts.get(role_id, 0) for role_id in CONTADINI)
    if have <= 2:
        return None
    return msg("at most 2 Contadino cards, this deck has {have}: remove {extra}", have=have, extra=have - 2)


def _moons(game, counts, options) -> Text | None:
    beyond = next((role_id for role_id in counts if game.role(role_id).trait("moons") > moons(options)), None)
    if beyond is None:
        return None
    return msg("'{role}' is a card of two moons: remove it, or play with due-lune on", role=beyond)


def _options(game, counts, options) -> Text | None:
    out = next((role_id for role_id in counts if role_id in dropped(options)), None)
    if out is None:
        return None
    return msg("'{role}' does not play with these options (rivelazione-ruolo drops the Medium, "
               "votazione-scoperta the Spia and the Azzeccagarbugli): remove it", role=out)


# --- the state's helpers ------------------------------------------------------------------------------

# No ``calls``: every turn of every Possibile is called, dealt or not, dead or alive; no ``places``.


def start(game: Game, state: State) -> State:
    return state.kept(faction={}, progenie=[], wolfborn=[], amato=None, romeo=None, spent=[], shield=False,
                      double=False, cancel=False, jester_day=False, grief=[], extra=[], auras={}, wolf_killed=[],
                      amulet=None, amulet_past=[], sword=None, sword_past=[], stalemate=False)


def _card(state, name):
    return state.cards[name]


def _powered(state, name) -> bool:
    """A Progenie loses every power and trait of its card."""
    return name not in state.own["progenie"]


def _has(state, name, role_id) -> bool:
    return name is not None and _card(state, name) == role_id and _powered(state, name)


def _alive(state, name) -> bool:
    return name is not None and name not in state.dead


def _holder(state, role_id, living=True):
    """The player whose card (and its power) is ``role_id``: living only, unless ``living`` is False."""
    return next((name for name in state.seating if _has(state, name, role_id)
                 and (not living or _alive(state, name))), None)


def faction(game, state, name) -> str:
    return state.own["faction"].get(name) or game.role(_card(state, name)).side


def is_wolf(state, name) -> bool:
    return (_card(state, name) in WOLF_CARDS and _powered(state, name)) or name in state.own["wolfborn"]


def creature(game, state, name) -> bool:
    """A Creature of the Shadow: of the wolves' or the Vampiro's faction; Romeo stays one."""
    return faction(game, state, name) in SHADOW or name in state.own["progenie"] or name in state.own["wolfborn"] \
        or (name == state.own["romeo"] and game.role(_card(state, name)).side in SHADOW)


def aura(game, state, name) -> str:
    dark = name in state.own["progenie"] or name in state.own["wolfborn"] or \
        (_powered(state, name) and game.role(_card(state, name)).trait("dark"))
    return "dark" if dark else "white"


def mystic(game, state, name) -> bool:
    return _powered(state, name) and game.role(_card(state, name)).trait("mystic")


def attacker(state):
    """The strongest living wolf, whose pick is the pack's attack: Capo Branco, Lupo del Branco,
    then the wolf-born in the order they turned; the Giovane Lupo never decides."""
    for name in (_holder(state, LEADER), _holder(state, PACK_WOLF), *state.own["wolfborn"]):
        if _alive(state, name):
            return name
    return None


def _others(state, name):
    return tuple(other for other in state.living if other != name)


def _angel_bond(state):
    """The Angelo Custode in play (unconverted) and his Amato, or (None, None)."""
    angel = _holder(state, ANGEL)
    return (angel, state.own["amato"]) if angel and state.own["amato"] else (None, None)


def _romeo_guarded(state) -> str | None:
    """Romeo, while Giulietta is in play (unconverted)."""
    return state.own["romeo"] if _holder(state, JULIET) else None


def _lovers(state) -> tuple[str, str] | None:
    juliet = _holder(state, JULIET, living=False)
    return (juliet, state.own["romeo"]) if juliet and state.own["romeo"] else None


# --- the night -----------------------------------------------------------------------------------------

def _beat(game: Game, turn: str) -> tuple[str, str] | None:
    """The mystic whose turn a Criminali's silent turn belongs to (``ladra-veggente``), or None."""
    for key in (THIEF, GUILD, ASSASSIN):
        mystic_turn = turn.removeprefix(key + "-")
        if mystic_turn != turn and mystic_turn in game.role_ids and game.role(mystic_turn).trait("mystic"):
            return key, mystic_turn
    return None


def ask(game: Game, state: State, turn: str, tonight: Mapping[str, Any]) -> Ask | None:
    found = _ask(game, state, turn, tonight)
    if found is not None and found.kind in ("player", "players") and not found.candidates:
        return None  # nobody to choose (a token every living player has held: not passed, destroyed)
    return found


def _ask(game, state, turn, tonight):
    beat = _beat(game, turn)
    if beat is not None:
        return _criminal_ask(game, state, *beat, tonight)
    holder = _holder(state, turn)
    night = state.night
    if turn in (ANGEL, JULIET):
        return Ask(turn, "player", (holder,), _others(state, holder)) if holder else None
    if turn == "guardie":
        guards = tuple(name for name in state.living if _card(state, name) in (*GUARDS, CORRUPT))
        return Ask("guardie", "told", guards) if guards else None
    if turn in (PRIEST, HUNTER):
        return Ask(turn, "told", (holder,)) if holder else None
    if turn == MONK:  # some of the Possibili nobody was dealt (a Contadino card never shows its identity)
        undealt = tuple(role_id for role_id in _possibili(game, state) if not state.deck.get(role_id)
                        and role_id not in CONTADINI)
        return Ask(MONK, "told", (holder,), roles=undealt) if holder else None
    if turn in (SEER, MAGE, WITCH):
        return Ask(turn, "player", (holder,), _others(state, holder)) if holder else None
    if turn == MEDIUM:
        dead = tuple(name for name in state.dead)
        return Ask(MEDIUM, "player", (holder,), dead) if holder and dead and night >= 2 else None
    if turn == WOLVES_KEY:
        wolf = attacker(state)
        if wolf is None or night < 2:
            return None
        return Ask(WOLVES_KEY, "players", (wolf,), state.living, most=2 if state.own["double"] else 1)
    if turn == VAMPIRE:
        return Ask(VAMPIRE, "player", (holder,), _others(state, holder)) if holder and night >= 2 else None
    if turn == HEALER:
        if holder is None or night < 2 or HEALER in state.own["spent"]:
            return None
        dying = _resolve(game, state, tonight, saved=None, saves=False)["dead"]
        return Ask(HEALER, "player", (holder,), tuple(name for name in state.seating if name in dying)) \
            if dying else None
    if turn in (AMULET, SWORD):
        if night == 1:  # the first bearer, drawn secretly: named by the moderator, or drawn by the laptop
            return Ask(turn, "player", (), state.living, required=True, drawn=True)
        bearer = state.own["amulet" if turn == AMULET else "sword"]
        if not _alive(state, bearer):
            return None
        return Ask(turn, "player", (bearer,), state.living)  # to himself or a past bearer: destroyed
    return None


def _possibili(game, state):
    return tuple(state.possible) if state.possible else \
        tuple(dict.fromkeys((*state.deck, *default_possible(len(state.seating), state.options))))


def _criminal_ask(game, state, key, mystic_turn, tonight):
    """The Ladra, the Capo Gilda or the Assassino in the beat before ``mystic_turn``: once a game, from night 2."""
    holder = _holder(state, key)
    if holder is None or state.night < 2 or key in state.own["spent"] or key in tonight:
        return None
    form = (("turn", (mystic_turn,)),)
    if key != THIEF and _holder(state, mystic_turn) is None:  # the mystic is not in play: a player instead
        form += (("recruit" if key == GUILD else "kill", _others(state, holder)),)
    return Ask(key, "fields", (holder,), forms=(form,))


def idle(game: Game, state: State, turn: str, tonight: Mapping[str, Any]) -> Said | None:
    """Why a living Criminale, or the Guaritore, enters nothing: the once-a-game power is spent,
    or was used earlier tonight."""
    beat = _beat(game, turn)
    key = beat[0] if beat is not None else turn
    if key not in ONCE or state.night < 2:
        return None
    if key in state.own["spent"]:
        return said("idle_spent")
    return said("idle_acted") if key in tonight else None


def answer(game: Game, state: State, ask: Ask, value: Any, tonight: Mapping[str, Any]) -> str | int | None:
    if ask.key == "guardie":  # a Romeo chosen tonight is a lover already
        romeo = tonight.get(JULIET)
        return min(5, sum(1 for name in state.living if faction(game, state, name) == CRIMINALS and name != romeo))
    if ask.key in (PRIEST, HUNTER):
        return "present" if state.deck.get(ROSA if ask.key == PRIEST else VAMPIRE) else "absent"
    if ask.key == MONK:
        return "undealt"
    if value is None:
        return None
    if ask.key in (ANGEL, JULIET, AMULET, SWORD):  # the Amato, Romeo, a token's new bearer: a touch
        return "warn"
    if ask.key == SEER:
        return aura(game, state, value)
    if ask.key == MAGE:
        return "mystic" if mystic(game, state, value) else "not-mystic"
    if ask.key == MEDIUM:
        return state.own["auras"].get(value, "white")
    if ask.key == THIEF:  # the mystic's living holder, shown to her, or nobody
        return _holder(state, value["turn"]) or "absent"
    if ask.key == GUILD:
        return _guild(game, state, value)[0]
    return None


def _guild(game, state, value):
    """What the Capo Gilda's recruiting comes to, and whom it concerns."""
    target = value.get("recruit")
    if target is None:
        return "mystic-present", None
    if any(_has(state, target, guard) for guard in GUARDS) or is_wolf(state, target):
        return "killed", _holder(state, GUILD)
    if faction(game, state, target) in (VILLAGE, CITY) and target != state.own["romeo"]:
        return "recruited", target
    return "nothing", None


def _protected(state, tonight, name, shielded) -> bool:
    """Whether an attack on ``name`` has no effect: the Strega's charge tonight, the Eremita,
    Romeo while Giulietta is in play, the Ladra's first attack (``shielded``)."""
    witch = _holder(state, WITCH)
    return (witch is not None and tonight.get(WITCH) == name) or _has(state, name, HERMIT) \
        or name == _romeo_guarded(state) or shielded


def _shield(state, name, free) -> tuple[bool, bool]:
    """Whether the Ladra's one protection covers this attack on ``name``, and whether it is still
    unused after it (the first attack on her spends it)."""
    thief = _has(state, name, THIEF)
    return thief and free, free and not thief


def _bears_sword(state, name, used) -> bool:
    """The Spada's bearer, from night 2: it kills the creature attacking him (once: then destroyed)."""
    return state.options[SWORD] and state.night >= 2 and state.own["sword"] == name and not used


def _resolve(game, state, tonight, saved, saves=True):
    """The dawn's steps 1 to 10 of the digest: who dies and why, who changed and how. ``saved`` is
    the Guaritore's choice, who does not die tonight (nor, if still dying, the Amuleto's bearer);
    without ``saves``, who would die with nobody saved (those the Guaritore chooses from)."""
    marked: list[tuple[str, str]] = []  # (reason, name): who would die, and why
    notes: list[tuple[str, str]] = []  # what else the dawn tells the moderator
    factions, progenie, wolfborn = dict(state.own["faction"]), list(state.own["progenie"]), \
        list(state.own["wolfborn"])
    shield_free = not state.own["shield"]
    sword_used = False

    def mark(reason, name):
        if name is not None and all(name != other for _, other in marked):
            marked.append((reason, name))

    for name in state.own["grief"]:
        mark("grief", name)
    guild = tonight.get(GUILD)
    if guild is not None:
        outcome, whom = _guild(game, state, guild)
        if outcome == "killed":
            mark("guild", whom)
        elif outcome == "recruited":
            factions[whom] = CRIMINALS
    assassin = tonight.get(ASSASSIN)
    if assassin is not None:
        mark("assassin", _holder(state, assassin["turn"]) or assassin.get("kill"))
    wolf = attacker(state)
    targets = list(tonight.get(WOLVES_KEY) or []) if wolf is not None else []
    if targets and state.own["cancel"]:
        notes += [("cancelled", target) for target in targets]
        targets = []
    wolf_victims = []
    for target in targets:
        turned = _has(state, target, DESCENDANT) and target not in wolfborn
        if turned:  # the side effects of an attack happen whatever protects him
            wolfborn.append(target)
            factions[target] = PACK
            notes.append(("converted", target))
        shielded, shield_free = _shield(state, target, shield_free)
        if _bears_sword(state, target, sword_used):
            sword_used = True
            mark("sword", wolf)
        if turned or _has(state, target, TRAITOR) or _protected(state, tonight, target, shielded):
            notes.append(("protected", target))
            continue
        angel, amato = _angel_bond(state)
        if target == amato:  # the Angelo dies in his place (no protection of his own applies)
            mark("angel", angel)
            continue
        mark("wolves", target)
        wolf_victims.append(target)
    bitten = tonight.get(VAMPIRE)
    vampire = _holder(state, VAMPIRE)
    if bitten is not None and vampire is not None:
        shielded, shield_free = _shield(state, bitten, shield_free)
        ghoul = _holder(state, GHOUL)
        if _bears_sword(state, bitten, sword_used):
            sword_used = True
            mark("sword", ghoul or vampire)
        if _has(state, bitten, HUNTER) or is_wolf(state, bitten) or bitten in wolfborn:
            mark("ghoul" if ghoul else "hunted", ghoul or vampire)  # it would die in its own turn
        elif mystic(game, state, bitten) or bitten in progenie or _protected(state, tonight, bitten, shielded):
            notes.append(("protected", bitten))
        else:
            progenie.append(bitten)
            if bitten != state.own["romeo"]:  # Romeo keeps the lovers' faction
                factions[bitten] = VAMPIRE_SIDE
            notes.append(("progenie", bitten))
    def deaths(spared):
        """Who dies, and why, when ``spared`` do not: the marked, then the chains on the real deaths
        (lovers together, the Eroe taking the attacking wolf) until nothing changes."""
        dead = [name for _, name in marked if name not in spared]
        reasons = [(reason, name) for reason, name in marked if name not in spared]
        changed = True
        while changed:
            changed = False
            lovers = _lovers(state)
            extra = []
            if lovers and (lovers[0] in dead) != (lovers[1] in dead):
                other = lovers[1] if lovers[0] in dead else lovers[0]
                if _alive(state, other):
                    extra.append(("lovers", other))
            for name in wolf_victims:
                if name in dead and _has(state, name, HERO) and wolf is not None:
                    extra.append(("hero", wolf))
            for reason, name in extra:
                if name not in dead and name not in spared:
                    dead.append(name)
                    reasons.append((reason, name))
                    changed = True
        return dead, reasons

    healed = {saved} if saved is not None and saves else set()
    amulet = state.own["amulet"] if state.options[AMULET] and saves else None
    amulet_used = amulet is not None and amulet in deaths(healed)[0]  # the Guaritore's save first, then the Amuleto
    dead, reasons = deaths(healed | ({amulet} if amulet_used else set()))
    if healed and any(name == saved for name in deaths(set())[0]):
        notes.append(("healed", saved))
    if amulet_used and amulet is not None:
        notes.append(("amulet", amulet))
    madman = next((name for name in wolf_victims if name in dead and _has(state, name, MADMAN)), None)
    return {"dead": [name for name in state.seating if name in dead], "reasons": reasons + notes,
            "faction": factions, "progenie": progenie, "wolfborn": wolfborn, "madman": madman,
            "shield": not shield_free, "sword_used": sword_used, "amulet_used": amulet_used,
            "wolf_killed": [name for name in wolf_victims if name in dead]}


def dawn(game: Game, state: State, tonight: Mapping[str, Any]) -> Dawn:
    """The dawn in the digest's order, then the bonds of night 1, the powers spent, the auras of the
    dead, the tokens passed, the tavern's news and the rule of two players left."""
    save = tonight.get(HEALER)
    found = _resolve(game, state, tonight, save)
    dead = found["dead"]
    own = state.own
    spent = [*own["spent"], *(key for key in ONCE if tonight.get(key) is not None and key not in own["spent"])]
    factions = dict(found["faction"])
    romeo, amato = own["romeo"], own["amato"]
    if state.night == 1:
        amato = tonight.get(ANGEL)
        romeo = tonight.get(JULIET)
        if romeo is not None:
            factions[romeo] = LOVERS
    progenie = found["progenie"]  # a converted Angelo or Giulietta loses the card's powers: the bond ends
    extra = list(own["extra"])
    if found["madman"] and found["madman"] not in extra:
        extra.append(found["madman"])
    amulet, amulet_past = _passed(state, tonight, AMULET, "amulet", found["amulet_used"])
    sword, sword_past = _passed(state, tonight, SWORD, "sword", found["sword_used"])
    after = state.kept(faction=factions, progenie=progenie, wolfborn=found["wolfborn"], amato=amato, romeo=romeo,
                       spent=spent, shield=found["shield"], double=False, cancel=bool(found["madman"]), grief=[],
                       extra=extra, wolf_killed=[*own["wolf_killed"], *found["wolf_killed"]],
                       amulet=amulet, amulet_past=amulet_past, sword=sword, sword_past=sword_past)
    after = after.kept(auras={**own["auras"], **{name: aura(game, after, name) for name in dead}}).died(dead)
    reasons = list(found["reasons"])
    if not dead and len(after.living) == 2 and game_over(game, after) is None:
        lower = _lower_of_two(game, after)
        if lower is not None:
            after = after.kept(auras={**after.own["auras"], lower: aura(game, after, lower)}).died([lower])
            dead = [lower]
            reasons.append(("stalemate", lower))
        else:  # a stalemate: the factions left win together
            after = after.kept(stalemate=True)
    return Dawn(after, tuple(dead), tuple(reasons), answers=_news(game, state, tonight))


def _passed(state, tonight, key, own_key, used):
    """Who holds a token after the night: night 1's first bearer; from night 2 the one it is passed
    to (not passed, or used: destroyed)."""
    if not state.options[key]:
        return None, []
    bearer, past = state.own[own_key], list(state.own[f"{own_key}_past"])
    if state.night == 1:
        first = tonight.get(key)
        return first, [first] if first else []
    if used or bearer is None:
        return None, past
    given = tonight.get(key)
    if given is None or given == bearer or given in past:  # not passed, or back: destroyed
        return None, past
    return given, [*past, given]


def _rank(game, state, name) -> int:
    if is_wolf(state, name):
        return 3
    if _has(state, name, VAMPIRE):
        return 2
    return 1 if name in state.own["progenie"] else 0


def _lower_of_two(game, state):
    """Of the two left, the lower in Lupi Mannari > Vampiro > Progenie > everyone else (same rank: None)."""
    first, second = state.living
    ranks = _rank(game, state, first), _rank(game, state, second)
    if ranks[0] == ranks[1]:
        return None
    return first if ranks[0] < ranks[1] else second


def _news(game, state, tonight):
    """The tavern's news for each Bardo or Oste dealt: a rumour when the Veggente saw that aura tonight
    and the teller was in play at nightfall."""
    seen = tonight.get(SEER)
    seer = _holder(state, SEER)
    found = aura(game, state, seen) if seen is not None and seer is not None else None
    return {teller: "rumour" if found == shade and _holder(state, teller) else "silence"
            for teller, shade in NEWS.items() if state.deck.get(teller)}


# --- the day --------------------------------------------------------------------------------------------

def _city(game, state):
    return tuple(name for name in state.living if faction(game, state, name) == CITY)


@dataclass(frozen=True)
class Accusations(Vote):
    """Every living player raises a hand once for anyone, himself included, as the names are called
    in the order given; the accused are all those tied for the most hands, or the most accused and
    all those tied second (a player who had every hand burns at once); then a runoff, in which the
    living who are not accused (and any accused allowed to) vote one of the accused: the most voted
    burns, a tie spares everybody. With two players alive, the accusations alone decide. The
    accusations may be given as the hands counted for each name called, as the moderator sees them
    (``hands_or_votes``), the counts adjusted as each accusation's would be."""

    voters: tuple[str, ...]  # the living, in the order their names are called
    weights: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # voter: hands counted (default 1)
    standing_in: Mapping[str, str] = field(default_factory=lambda: EMPTY)  # accused: who is accused instead (the Amato's Angelo)
    accused_vote: frozenset[str] = frozenset()  # the accused who still vote in the runoff (the Città)
    runoff_weights: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # voter: votes in the runoff (the Borgomastro)
    halved: frozenset[str] = frozenset()  # the votes these receive count half, rounded up (Bocca di Rosa)
    less: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # taken from what each receives (the Mercante)
    several: frozenset[str] = frozenset()  # voters who may accuse several players, one vote each (the Mercante)
    # voters who may point at another player instead of accusing (a round of their own, first: the
    # Azzeccagarbugli): one of ``clears`` pointed at receives no accusation, anyone else is accused too
    pointers: frozenset[str] = frozenset()
    clears: frozenset[str] = frozenset()
    rounds: ClassVar[tuple[str, ...]] = ("pointing", "accusation", "runoff")

    @property
    def candidates(self) -> tuple[str, ...]:
        """Who may end on the pyre: anyone but a player another stands in for."""
        return tuple(name for name in self.voters if name not in self.standing_in)

    def barred(self, name: str) -> Text | None:
        """The Amato, while his Angelo is in play: the Angelo is accused and burned in his place."""
        if name not in self.standing_in:
            return None
        return msg("{name} is the Guardian Angel's Beloved, and his Angel, {angel}, is in play: the Angel is "
                   "accused and burned in his place", name=name, angel=self.standing_in[name])

    def adjusted(self, counted: Mapping[str, int]) -> dict[str, int]:
        """What each receives once halved (rounded up) and lessened, never below nothing."""
        return {name: max(0, ((count + 1) // 2 if name in self.halved else count) - self.less.get(name, 0))
                for name, count in counted.items()}

    def run(self, state):
        voters = self.voters
        pointing: dict = {}
        for pointer in (voter for voter in voters if voter in self.pointers and len(voters) > 2):
            pointing |= yield from votes_round(self, state, "pointing", [pointer],
                                               tuple(name for name in voters if name != pointer), optional={pointer},
                                               intro=(said("round_pointing", voter=pointer),),
                                               question=lambda voter: said("question_pointing", voter=voter))
        accusers = [voter for voter in voters if voter not in pointing]
        # the names called in turn: the hands counted for each, or each accuser's accusation
        hands, accusations = yield from hands_or_votes(
            self, state, "accusation", accusers, voters, self.most_accusations(accusers),
            intro=(said("round_accusation", first=accusers[0]),) if accusers else (), several=self.several)
        counted, pointed = accusation_count(self, accusations, pointing, hands)
        votes, tallies = {"accusation": MappingProxyType(accusations)}, {"accusation": MappingProxyType(counted)}
        counts = MappingProxyType({"accusation": MappingProxyType(hands)} if hands is not None else {})
        if pointing:
            votes["pointing"] = MappingProxyType(pointing)
        accused = the_accused(self, counted, pointed)
        if not accused:  # two left, no accusation at all, or every hand on one: settled at once
            return replace(settled(counted, votes, tallies), hands=counts)
        ballot = yield from votes_round(self, state, "runoff",
                                        [voter for voter in voters if voter not in accused or voter in self.accused_vote],
                                        accused, accused, optional=frozenset(accused) & self.accused_vote,
                                        intro=(said("round_accused", names=accused),))
        recount = self.adjusted(weighed(ballot, accused, self.runoff_weights))
        votes["runoff"], tallies["runoff"] = MappingProxyType(ballot), MappingProxyType(recount)
        return replace(settled(recount, votes, tallies), hands=counts)

    def most_accusations(self, accusers) -> int:
        """The most hands the accusations may add up to: one from each accuser (each name, from one
        who may accuse several), as much as each counts."""
        return sum(self.weights.get(voter, 1) * (len(self.voters) if voter in self.several else 1)
                   for voter in accusers)


def accusation_count(procedure: Accusations, accusations: Mapping, pointing: Mapping[str, str],
                     hands: Mapping[str, int] | None = None) -> tuple[dict, list]:
    """What each player receives in the accusation (the hands counted for him, or the accusations
    given, a stand-in's moved to him, halved, lessened, cleared by a pointing), and the players a
    pointing accuses whatever the hands."""
    counted = dict(hands) if hands is not None else weighed(accusations, procedure.voters, procedure.weights)
    for accused, instead in procedure.standing_in.items():
        if instead in counted and counted.get(accused):
            counted[instead] += counted[accused]
            counted[accused] = 0
    counted = procedure.adjusted(counted)
    pointed = []
    for name in (procedure.standing_in.get(name, name) for name in pointing.values()):
        if name in procedure.clears:
            counted[name] = 0
        elif name not in pointed:
            pointed.append(name)
    return counted, pointed


def the_accused(procedure: Accusations, counted: Mapping[str, int], pointed) -> tuple[str, ...]:
    """Who goes to the runoff: all tied for the most, or the most accused and the tied second, and
    those a pointing accuses; () when the accusation settles the day at once (two players left,
    no accusation at all, every hand on one)."""
    most = top(counted)
    if len(procedure.voters) <= 2 or (not most and not pointed) or (
            len(most) == 1 and counted[most[0]] == sum(counted.values()) and set(pointed) <= set(most)):
        return ()
    accused = most if len(most) > 1 else most + top({name: count for name, count in counted.items() if name not in most})
    return accused + tuple(name for name in procedure.voters if name in pointed and name not in accused)


def day(game: Game, state: State) -> Accusations:
    """The accusations (names called clockwise on odd days, the other way on even ones) and the
    ballottaggio: the Borgomastro's vote counts the Città in play plus one, Bocca di Rosa's votes
    are halved, the Mercante's lessened by each other Città player, the Amato's accusations go to
    his Angelo, the Mercante may accuse several, the Azzeccagarbugli may point at a player instead
    (a Città or Criminali player then receives no accusation, anyone else is accused too), and the
    Città vote even when accused."""
    order = state.living if state.night % 2 else tuple(reversed(state.living))
    city = _city(game, state)
    mayor, merchant, rosa, lawyer = (_holder(state, role_id) for role_id in (MAYOR, MERCHANT, ROSA, LAWYER))
    angel, amato = _angel_bond(state)
    return Accusations(
        order, standing_in={amato: angel} if angel and _alive(state, amato) else {},
        # the Città cards (game.yaml's side) vote in the ballottaggio even when accused, whatever their faction now
        accused_vote=frozenset(name for name in state.living
                               if _powered(state, name) and game.role(_card(state, name)).side == CITY),
        runoff_weights={mayor: len({*city, mayor}) + 1} if mayor else {},
        halved=frozenset({rosa}) if rosa else frozenset(),
        less={merchant: len([name for name in city if name != merchant])} if merchant else {},
        several=frozenset({merchant}) if merchant else frozenset(),
        pointers=frozenset({lawyer}) if lawyer else frozenset(),
        clears=frozenset(name for name in state.living if faction(game, state, name) in (CITY, CRIMINALS)))


def day_asks(game: Game, state: State, lynched: str | None, votes: Mapping[str, Mapping[str, str]],
             hands: Mapping[str, Mapping[str, int]]) -> Sequence[Ask]:
    """When only the result was entered: the tied at the top of the ballottaggio (nobody burned);
    and the Oratore, in play and not accused, may signal players in the ballottaggio (the accused
    from the accusations as given: each vote, or the hands counted for each name)."""
    asks = []
    accused = ()
    if votes:
        procedure = day(game, state)
        accused = the_accused(procedure, *accusation_count(procedure, votes.get("accusation", {}),
                                                             votes.get("pointing", {}), hands.get("accusation")))
    if lynched is None and not votes:
        asks.append(Ask("tied", "players", (), state.living, least=2))
    orator = _holder(state, ORATOR)
    if orator is not None and orator not in accused:
        asks.append(Ask(ORATOR, "players", (orator,), _others(state, orator)))
    return tuple(asks)


def _cancelled(game, state, condemned, signalled) -> bool:
    """Whether a burning does not happen: the day after the Giullare's, another Città player or one
    the Oratore signalled while he is in play, the Amuleto's bearer."""
    orator = _holder(state, ORATOR)
    if state.own["jester_day"]:
        return True
    if orator is not None and condemned != orator and (faction(game, state, condemned) == CITY
                                                        or condemned in signalled):
        return True
    return state.options[AMULET] and state.own["amulet"] == condemned


def dusk(game: Game, state: State, lynched: str | None, acts: Mapping[str, Any]) -> Dusk:
    signalled = tuple(acts.get(ORATOR) or ())
    tied = tuple(acts.get("tied") or ())
    condemned = lynched
    orator = _holder(state, ORATOR)
    if lynched is None and tied and orator is not None:  # the Oratore spares all the tied but one: he burns
        left = [name for name in tied if not (name != orator and (faction(game, state, name) == CITY
                                                                 or name in signalled))]
        condemned = left[0] if len(left) == 1 and len(tied) > 1 else None
    own = state.own
    if condemned is None or _cancelled(game, state, condemned, signalled):
        amulet = own["amulet"]
        used = condemned is not None and state.options[AMULET] and amulet == condemned and not own["jester_day"]
        after = state.kept(jester_day=False, amulet=None if used else amulet)
        return Dusk(after, (), (("spared", ""),))
    after = state.kept(auras={**own["auras"], condemned: aura(game, state, condemned)}).died([condemned])
    extra = list(own["extra"])
    if _has(state, condemned, JESTER) and condemned not in extra:
        extra.append(condemned)
    lovers = _lovers(state)
    grief = []
    if lovers and condemned in lovers:
        other = lovers[1] if condemned == lovers[0] else lovers[0]
        if _alive(state, other):
            grief.append(other)
    return Dusk(after.kept(jester_day=_has(state, condemned, JESTER), double=_has(state, condemned, YOUNG_WOLF),
                           extra=extra, grief=grief),
                (condemned,), (("burned", condemned),))


def explain_day(game: Game, procedure: Procedure, verdict: Verdict, say: Sentences) -> Sequence[str]:
    """The accusations and the ballottaggio as counted (the burning itself is the dusk's to say)."""
    lines: list[str] = []
    if verdict.given:
        return lines
    accusation = verdict.tallies.get("accusation", {})
    if accusation:  # counted, or nobody accused at all (not "Accusations counted: -")
        lines.append(say("accusations", tally=tally_text(accusation)) if any(accusation.values())
                     else say("no_accusations"))
    runoff = verdict.tallies.get("runoff")
    if runoff is not None:
        lines.append(say("accused", names=say.join(list(runoff))))
        lines.append(say("ballottaggio", tally=tally_text(runoff)))
    return lines


def announce(game: Game, result: Dawn | Dusk, say: Sentences) -> Sequence[str]:
    """At dawn the dead by name and the tavern's news (a Bardo or an Oste among the Possibili: their
    news, or none); with rivelazione-ruolo, the card of each player out of the game."""
    state = result.state
    if isinstance(result, Dusk):  # the burning, or that nobody burns, is the dusk's reason, said with the vote
        lines = []
    else:
        lines = [say("dawn_dead", names=say.join(list(result.dead)))] if result.dead else []
        tellers = [teller for teller in NEWS if teller in _possibili(game, state)]
        news = {BARD: say("news_bardo"), HOST: say("news_oste")}
        told = [news[teller] for teller in tellers if result.answers.get(teller) == "rumour"]
        lines += told or ([say("no_news")] if tellers else [])
    if state.options["rivelazione-ruolo"]:
        lines += [say("revealed", name=name, role=say.role(_card(state, name))) for name in result.dead]
    return lines


def notes(game: Game, state: State, say: Sentences, tonight: Mapping[str, Any]) -> Sequence[str]:
    """What the moderator keeps in mind that the cards and the dead do not show, a sentence each:
    the bonds in force (the lovers, both in play; the Amato, while his Angelo is in play), who
    changed side and is in play (the Progenie, the wolf-born, the Capo Gilda's recruit), the
    once-a-game powers spent and the Ladra's protection used (while their holder is in play), who
    bears the Amuleto and the Spada, what the next dawn or day holds (a lover's grief,
    the pack's two attacks, its attack cancelled by the Pazzo, a burning cancelled by the Giullare),
    and who wins whatever the end (the Pazzo killed by the wolves, the Giullare burned); in the
    night, who the Strega protects and the Guaritore saves once they have chosen."""
    own = state.own
    lines = []
    lovers = _lovers(state)
    if lovers and all(_alive(state, name) for name in lovers):
        lines.append(say("note_lovers", names=say.join(list(lovers))))
    angel, amato = _angel_bond(state)
    if angel and _alive(state, amato):
        lines.append(say("note_amato", name=amato))
    for key, names in (
            ("note_progenie", own["progenie"]),
            ("note_wolfborn", own["wolfborn"]),
            ("note_recruited", [name for name, side in own["faction"].items()
                                if side == CRIMINALS and game.role(_card(state, name)).side != CRIMINALS])):
        living = [name for name in state.seating if name in names and _alive(state, name)]
        if living:
            lines.append(say(key, names=say.join(living)))
    spent = [say.role(key) for key in ONCE if key in own["spent"] and _holder(state, key)]
    if spent:
        lines.append(say("note_spent", roles=say.join(spent)))
    if own["shield"] and _holder(state, THIEF):
        lines.append(say("note_shield"))
    for key, token, bearer in (("note_amuleto", AMULET, own["amulet"]), ("note_spada", SWORD, own["sword"])):
        if state.options[token] and _alive(state, bearer):
            lines.append(say(key, name=bearer))
    if own["grief"]:
        lines.append(say("note_grief", names=say.join(list(own["grief"]))))
    if own["double"] and attacker(state):
        lines.append(say("note_double"))
    if own["cancel"] and attacker(state):
        lines.append(say("note_cancel"))
    if own["jester_day"]:
        lines.append(say("note_jester"))
    if own["extra"]:
        lines.append(say("note_winners", names=say.join([name for name in state.seating if name in own["extra"]])))
    for key, power in (("note_witch", WITCH), ("note_healer", HEALER)):
        if tonight.get(power) is not None:
            lines.append(say(key, name=tonight[power]))
    return lines


# --- the end --------------------------------------------------------------------------------------------

def game_over(game: Game, state: State) -> tuple[Sequence[str], Sequence[str]] | None:
    """At a day's start: Men when no creature is in play; the Shadow when the living (faction-less
    ones aside) share one faction; nobody left, no faction. Then the Traditore, the Ghoul, the
    Amante, the Pazzo and the Giullare."""
    living = state.living
    if not living:
        return _extras(game, state, [])
    if state.own["stalemate"]:
        return _with_allies(game, state, [side for side in dict.fromkeys(faction(game, state, name) for name in living)
                                          if side in ENDS])
    creatures = [name for name in living if creature(game, state, name)]
    if not creatures:
        criminals = any(faction(game, state, name) == CRIMINALS for name in living)
        guards = any(_has(state, name, guard) for name in living for guard in GUARDS)
        sides = [CITY] if any(faction(game, state, name) == CITY for name in state.seating) else []
        sides.append(VILLAGE if not criminals or guards else CRIMINALS)
    else:
        factions = {faction(game, state, name) for name in living if faction(game, state, name) != NO_FACTION}
        if len(factions) != 1:
            return None
        side = next(iter(factions))
        sides = [side] if side in SHADOW else []
    return _with_allies(game, state, sides)


def _with_allies(game, state, sides):
    winners = {name for name in state.seating if faction(game, state, name) in sides}
    if PACK in sides:  # a converted Traditore or Ghoul has lost the card's trait: he won by his faction
        winners |= {name for name in state.seating if _has(state, name, TRAITOR)}
    if VAMPIRE_SIDE in sides:
        winners |= {name for name in state.seating if _has(state, name, GHOUL)}
    sides = list(sides)
    lovers = _lovers(state)
    angel, amato = _holder(state, ANGEL, living=False), state.own["amato"]
    amante = []
    if lovers:  # each lover wins if the other is in play
        amante += [name for name, other in (lovers, lovers[::-1]) if _alive(state, other)]
    if angel and amato and _alive(state, amato):
        amante.append(angel)
    if amante:
        winners |= set(amante)
        if LOVERS not in sides:
            sides.append(LOVERS)
    return _extras(game, state, sides, winners)


def _extras(game, state, sides, winners=frozenset()):
    winners = set(winners)
    sides = list(sides)
    for name in state.own["extra"]:
        winners.add(name)
        end = _card(state, name)
        if end in ENDS and end not in sides:
            sides.append(end)
    return tuple(sides), tuple(name for name in state.seating if name in winners)


def card_back(game: Game, language: Language, deck: Deck) -> tuple[Block, ...]:
    """The dawn's order, the two votes and the end (the beat before the mystics is on the front)."""
    texts = language.card
    return (Block("heading", texts["dawn"]), Block("text", texts["dawn_text"]),
            Block("heading", texts["vote"]), Block("text", texts["vote_text"]),
            Block("heading", texts["end"]), Block("text", texts["end_text"]))
