"""Wherewolf in Tabula's rules (shared/rules/wherewolf-in-tabula.md), on the contract of a game of
many nights (``narrator.core.nights``) with a set drawn by its own formula: the set and its
legality, the night's answers (auras, mystics, curses), the dawn (the attacker, protections, the
Discendente, the Eroe, the Mostro, the Megera, the Guaritore, the Pazzo, the two cursed dead), the
secret vote (a cursed voter counts two, a tie burns nobody, the Giullare's day), and the end of
four factions.

Pure functions: the game, the state and the night's (or the day's) entries in; values out. The
game's own state (``state.own``): the curses by source, the joined Becchino, the converted
Discendenti, the spent signal and save, the next night's double attack or annulled first attack,
the day after the Giullare's burning, the players who died cursed and the two-cursed massacre,
who wins whenever the game ends (the burned Giullare, the Pazzo killed by the wolves), and what
the Veggente saw (for the Bardo and the Oste).
"""

import random
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from narrator.core.card import Block
from narrator.core.deck import Deck
from narrator.core.game import Game, Language
from narrator.core.i18n import Text, msg
from narrator.core.procedures import Procedure, SecretVote, Verdict, tally_text
from narrator.core.state import Ask, Dawn, Dusk, State
from narrator.core.vote import Sentences

# --- the set (the digest's formula and legality) ------------------------------------------------------

ROLES = (
    "veggente", "mago", "medium", "strega", "guaritore",
    "bardo", "oste", "bracconiere", "eremita", "monaco", "prete", "peccatore", "becchino",
    "contadino-semplice", "contadino-eroe", "contadino-discendente-dei-lupi", "contadino-mostro",
    "negromante",
    "capo-branco", "lupo-del-branco", "giovane-lupo",
    "lupo-solitario", "traditore", "megera", "giullare", "pazzo",
)
CONTADINI = ("contadino-semplice", "contadino-eroe", "contadino-discendente-dei-lupi", "contadino-mostro")

SEMPLICE = "contadino-semplice"
PACK = ("capo-branco", "lupo-del-branco", "giovane-lupo")
PACK_LEADERS = ("capo-branco", "lupo-del-branco")  # a pack needs one of them
LONE_WOLF = "lupo-solitario"
OTHER_MYSTICS = ("mago", "medium", "strega", "guaritore")
HOLE_FILLERS = ("megera", "traditore", "becchino")
NECROMANCING_ONLY = ("negromante", "becchino")
# The non-mystic villagers' draws: each entry is one draw, the pair prete+peccatore takes two seats.
VILLAGE_DRAWS = (("bardo",), ("bracconiere",), ("eremita",), ("monaco",), ("oste",), ("prete", "peccatore"))
AT_MOST_TWO = ("oste", "bardo", "monaco")


# --- the formula's counts --------------------------------------------------------------------------

def wolf_count(players: int) -> int:
    """W: wolf cards, one per kind; 4 means the three pack kinds and the lupo-solitario."""
    return min(4, max(1, players // 4 - 1))


def villager_count(players: int) -> int:
    """V: non-mystic villagers, the two Contadini included (leftover holes not counted)."""
    return players // 2


def mystic_count(players: int) -> int:
    """M: village mystics besides the veggente."""
    return min(3, villager_count(players) // 2 - 1)


def hole_count(players: int, necromancing: bool) -> int:
    """H: the seats left after veggente, negromante, wolves, villagers and mystics."""
    sure = 1 + int(necromancing)
    return players - (sure + wolf_count(players) + villager_count(players) + mystic_count(players))


# --- drawing ---------------------------------------------------------------------------------------

def draw_counts(players: int, necromancing: bool, rng: random.Random) -> dict[str, int]:
    """The set for `players` (8..24: the core checks the number first) drawn by the digest's formula: role id -> copies (every copy 1 except contadino-semplice).

    Holes no filler may take (all spent or excluded) become extra non-mystic villagers, drawn with
    the V - 2 from the same pool and then as contadino-semplice. The result is in ROLES order.
    """
    sure = ["veggente", "negromante"] if necromancing else ["veggente"]
    contadini = draw_contadini(rng)
    wolves = draw_wolves(wolf_count(players), rng)
    holes = hole_count(players, necromancing)
    fillers = draw_hole_fillers(holes, necromancing, contadini, rng)
    mystics = draw_mystics(mystic_count(players), "megera" in fillers, rng)
    seats = villager_count(players) - len(contadini) + holes - len(fillers)
    villagers = draw_villagers(seats, LONE_WOLF in wolves, rng)
    drawn = Counter(sure + contadini + wolves + fillers + mystics + villagers)
    return {role_id: drawn[role_id] for role_id in ROLES if drawn[role_id]}


def draw_contadini(rng: random.Random) -> list[str]:
    """The two Contadini's identities: the second may repeat only contadino-semplice."""
    first = rng.choice(CONTADINI)
    others = CONTADINI if first == SEMPLICE else tuple(role_id for role_id in CONTADINI if role_id != first)
    return [first, rng.choice(others)]


def draw_wolves(count: int, rng: random.Random) -> list[str]:
    """One card per wolf kind: a leader alone, two pack kinds, the whole pack, or the pack and the lone wolf."""
    if count == 1:
        return [rng.choice(PACK_LEADERS)]
    if count == 2:
        return rng.sample(PACK, 2)  # any two of three include a leader
    return list(PACK) + ([LONE_WOLF] if count >= 4 else [])


def draw_hole_fillers(holes: int, necromancing: bool, contadini: Sequence[str], rng: random.Random) -> list[str]:
    """Up to `holes` fillers, one at a time among those the set so far does not exclude."""
    candidates = hole_fillers(necromancing)
    fillers: list[str] = []
    while len(fillers) < holes:
        allowed = tuple(role_id for role_id in candidates
                        if role_id not in fillers and not excluded_together({*contadini, *fillers, role_id}))
        if not allowed:
            break
        fillers.append(rng.choice(allowed))
    return fillers


def draw_mystics(count: int, megera: bool, rng: random.Random) -> list[str]:
    """`count` village mystics besides the veggente; mago first when megera plays, since she needs him."""
    chosen = ["mago"] if megera else []
    rest = tuple(role_id for role_id in OTHER_MYSTICS if role_id not in chosen)
    return chosen + rng.sample(rest, count - len(chosen))


def draw_villagers(seats: int, lone_wolf: bool, rng: random.Random) -> list[str]:
    """`seats` non-mystic villagers from the pool (bracconiere first with the lone wolf, who needs him),
    then contadino-semplice once nothing in the pool fits the seats left."""
    drawn = ["bracconiere"] if lone_wolf and seats else []
    while len(drawn) < seats:
        closed = closed_villagers(drawn)
        room = seats - len(drawn)
        fitting = tuple(draw for draw in VILLAGE_DRAWS if draw[0] not in closed and len(draw) <= room)
        if not fitting:
            break
        drawn.extend(rng.choice(fitting))
    return drawn + [SEMPLICE] * (seats - len(drawn))


def closed_villagers(drawn: Sequence[str]) -> set[str]:
    """The pool's roles no longer drawable: those drawn, and oste/bardo/monaco once two of them are in."""
    closed = set(drawn)
    if len(closed.intersection(AT_MOST_TWO)) >= 2:
        closed.update(AT_MOST_TWO)
    return closed


def excluded_together(role_ids: Collection[str]) -> bool:
    """Whether the roles break a Contadino's exclusion: mostro with becchino and megera, discendente with traditore."""
    return mostro_clash(role_ids) or discendente_clash(role_ids)


def mostro_clash(role_ids: Collection[str]) -> bool:
    """contadino-mostro with both becchino and megera."""
    return "contadino-mostro" in role_ids and "becchino" in role_ids and "megera" in role_ids


def discendente_clash(role_ids: Collection[str]) -> bool:
    """contadino-discendente-dei-lupi with traditore."""
    return "contadino-discendente-dei-lupi" in role_ids and "traditore" in role_ids


# --- the Possibili ---------------------------------------------------------------------------------

def possible(players: int, necromancing: bool) -> tuple[str, ...]:
    """Every role id the formula could draw for `players` (the "Possibili"), in the order of ROLES."""
    wolves, holes = wolf_count(players), hole_count(players, necromancing)
    fillers = hole_fillers(necromancing) if holes else ()
    # With a single mystic seat and megera in every draw, that seat is always the mago's.
    lone_mystic_is_mago = mystic_count(players) == 1 and not megera_avoidable(holes, necromancing)
    mystics = ("mago",) if lone_mystic_is_mago else OTHER_MYSTICS
    village = [role_id for draw in VILLAGE_DRAWS if len(draw) <= villager_count(players) - 2 for role_id in draw]
    reachable = {"veggente", *CONTADINI, *mystics, *village, *fillers,
                 *(PACK_LEADERS if wolves == 1 else PACK), *([LONE_WOLF] if wolves >= 4 else [])}
    if necromancing:
        reachable.add("negromante")
    return tuple(role_id for role_id in ROLES if role_id in reachable)


def hole_fillers(necromancing: bool) -> tuple[str, ...]:
    """The roles that may fill a hole: becchino only with necromancing on."""
    return tuple(role_id for role_id in HOLE_FILLERS if necromancing or role_id not in NECROMANCING_ONLY)


def megera_avoidable(holes: int, necromancing: bool) -> bool:
    """Whether some draw leaves megera out: the other fillers can take every hole, or a becchino drawn
    first with a contadino-mostro excludes her."""
    others = tuple(role_id for role_id in hole_fillers(necromancing) if role_id != "megera")
    return holes <= len(others) or "becchino" in others


# --- legality --------------------------------------------------------------------------------------

def problem(counts: Mapping[str, int], necromancing: bool) -> Text | None:
    """Why a deck (role id -> copies, any source: drawn or written by a user) breaks the game's own
    rules, as one msg(); None when it keeps them. Its ids, its copies (one of each card but
    contadino-semplice: game.yaml's box) and its size are the core's checks (``check_deck``), made
    first. The rules run in RULES' order and the first broken one is reported; a role with 0 copies
    is absent."""
    for rule in RULES:
        found = rule(counts, necromancing)
        if found is not None:
            return found
    return None


# Each rule takes the deck and the option and returns its message when the deck breaks it, else None.

def _veggente(counts: Mapping[str, int], necromancing: bool) -> Text | None:
    if counts.get("veggente", 0):
        return None
    return msg("the deck has no 'veggente', every game needs one: add 'veggente'")


def _necromancing(counts: Mapping[str, int], necromancing: bool) -> Text | None:
    if necromancing and not counts.get("negromante", 0):
        return msg("with necromancing on the deck needs a 'negromante': add it, or turn necromancing off")
    forbidden = next((role_id for role_id in NECROMANCING_ONLY if counts.get(role_id, 0)), None)
    if not necromancing and forbidden is not None:
        return msg("with necromancing off '{role}' cannot play: remove it, or turn necromancing on", role=forbidden)
    return None


def _contadini(counts: Mapping[str, int], necromancing: bool) -> Text | None:
    have = sum(counts.get(role_id, 0) for role_id in CONTADINI)
    if have >= 2:
        return None
    return msg("a deck needs at least 2 Contadini, this one has {have}: add {missing} (contadino-semplice, "
               "-eroe, -discendente-dei-lupi or -mostro)", have=have, missing=2 - have)


def _pack_leader(counts: Mapping[str, int], necromancing: bool) -> Text | None:
    if any(counts.get(role_id, 0) for role_id in PACK_LEADERS):
        return None
    return msg("the pack needs a 'capo-branco' or a 'lupo-del-branco': add one of them")


def _prete_and_peccatore(counts: Mapping[str, int], necromancing: bool) -> Text | None:
    prete, peccatore = counts.get("prete", 0), counts.get("peccatore", 0)
    if bool(prete) == bool(peccatore):
        return None
    present, absent = ("prete", "peccatore") if prete else ("peccatore", "prete")
    return msg("'{present}' plays only with '{absent}': add '{absent}' or remove '{present}'",
               present=present, absent=absent)


def _oste_bardo_monaco(counts: Mapping[str, int], necromancing: bool) -> Text | None:
    present = [role_id for role_id in AT_MOST_TWO if counts.get(role_id, 0)]
    if len(present) <= 2:
        return None
    return msg("at most 2 of oste, bardo and monaco may play, this deck has {have} ({roles}): remove {extra}",
               have=len(present), roles=", ".join(present), extra=len(present) - 2)


def _needs(role_id: str, needed: str, counts: Mapping[str, int]) -> Text | None:
    if not counts.get(role_id, 0) or counts.get(needed, 0):
        return None
    return msg("'{role}' needs '{needed}' in the deck: add '{needed}' or remove '{role}'", role=role_id, needed=needed)


def _lupo_solitario(counts: Mapping[str, int], necromancing: bool) -> Text | None:
    return _needs(LONE_WOLF, "bracconiere", counts)


def _megera(counts: Mapping[str, int], necromancing: bool) -> Text | None:
    return _needs("megera", "mago", counts)


def _present(counts: Mapping[str, int]) -> set[str]:
    return {role_id for role_id, copies in counts.items() if copies}


def _contadino_mostro(counts: Mapping[str, int], necromancing: bool) -> Text | None:
    if not mostro_clash(_present(counts)):
        return None
    return msg("with 'contadino-mostro' the deck cannot hold both 'becchino' and 'megera': remove one of them")


def _contadino_discendente(counts: Mapping[str, int], necromancing: bool) -> Text | None:
    if not discendente_clash(_present(counts)):
        return None
    return msg("'contadino-discendente-dei-lupi' and 'traditore' never play together: remove one of them")


RULES = (_veggente, _necromancing, _contadini, _pack_leader, _prete_and_peccatore, _oste_bardo_monaco,
         _lupo_solitario, _megera, _contadino_mostro, _contadino_discendente)


# --- the contract's drawn set (narrator.core.nights.DRAWN_SET) --------------------------------------

def draw_deck(game: Game, players: int, options: Mapping[str, bool], possible: Mapping[str, int] | None, rng: random.Random) -> Mapping[str, int]:
    return draw_counts(players, options["necromancing"], rng)  # its Possibili are its formula's (possible is None)


def deck_problem(game: Game, deck: Deck, options: Mapping[str, bool], possible: Mapping[str, int] | None) -> Text | None:
    return problem(deck.as_dict(), options["necromancing"])


def possible_roles(game: Game, players: int, options: Mapping[str, bool]) -> Collection[str]:
    return possible(players, options["necromancing"])


# --- who is who ------------------------------------------------------------------------------------

VILLAGE, PACK_SIDE, LONE_SIDE, NECRO_SIDE, NO_FACTION = (
    "villaggio", "lupi-del-branco", "lupo-solitario", "negromante", "nessuna")  # game.yaml's sides
SHADOW = (PACK_SIDE, LONE_SIDE, NECRO_SIDE)
CURSED = "maledetto"  # a cursed player of no Shadow faction counts as this faction, for the end only
ENDS = (VILLAGE, PACK_SIDE, LONE_SIDE, NECRO_SIDE)
END_WITHOUT_SIDE = True  # only the cursed are left, or nobody: the game ends and no side wins
ROLE_FIELDS = {"black": "flag", "mystic": "flag"}

DESCENDANT, HERO, MONSTER = "contadino-discendente-dei-lupi", "contadino-eroe", "contadino-mostro"
NECROMANCER, UNDERTAKER, HAG, TRAITOR, JESTER, MADMAN = (
    "negromante", "becchino", "megera", "traditore", "giullare", "pazzo")
SEER, MAGE, MEDIUM, WITCH, HEALER = "veggente", "mago", "medium", "strega", "guaritore"
HERMIT, POACHER, MONK, PRIEST, SINNER, BARD, HOST = (
    "eremita", "bracconiere", "monaco", "prete", "peccatore", "bardo", "oste")
LEADER, PACK_WOLF, YOUNG_WOLF = "capo-branco", "lupo-del-branco", "giovane-lupo"
VILLAGE_MYSTICS = (SEER, MAGE, WITCH, HEALER)  # the mystics whose pointing the Megera curses
POINTING = (SEER, MAGE, WITCH, HEALER)  # whose key naming the Mostro kills them (and any wolf's)

# The game record's keys (the digest's ACTION KEYS), and three told at once, never written.
NIGHT_KEYS = {NECROMANCER: "players", UNDERTAKER: "choice", SEER: "player", MAGE: "player", MEDIUM: "player",
              WITCH: "player", LEADER: "players", PACK_WOLF: "players", DESCENDANT: "players",
              LONE_WOLF: "players", POACHER: "choice", HEALER: "player",
              PRIEST: "told", "branco": "told", MONK: "told"}
DAY_KEYS = {MONSTER: "player"}
ANSWERS = {SEER: ("black", "white"), MAGE: ("mystic", "not-mystic"), MEDIUM: ("black", "white"),
           WITCH: ("cursed", "not-cursed"), PRIEST: ("sinner",), MONK: ("undealt",),
           "branco": ("1", "2", "3", "1-lone", "2-lone", "3-lone")}
VOTE_KEYS = {"vote": "votes"}
END_AFTER = ("dawn", "day")
JOIN, SIGNAL = "join", "signal"

SENTENCES = ("round_vote", "vote_weights", "votes", "no_votes", "burned", "spared", "dawn_dead", "bardo", "oste", "two_cursed", "died_cursed",
             "reason_attacked", "reason_hero", "reason_monster", "reason_massacre",
             "reason_taken", "reason_converted", "reason_protected", "reason_blocked", "reason_annulled",
             "reason_healed", "reason_hag",
             "ask_negromante", "ask_becchino", "ask_bracconiere", "ask_guaritore", "ask_contadino-mostro",
             "choice_join", "choice_signal",
             "note_necro_cursed", "note_hag_cursed", "note_cursed_dead", "note_massacre_due",
             "note_converted_pack", "note_converted_lone", "note_joined", "note_double", "note_annulled",
             "note_jester_day", "note_signal_spent", "note_save_spent", "note_winners")
CARD_TEXTS = ("dawn", "dawn_text", "dawn_curses", "vote", "vote_text", "end", "end_text", "set", "set_text")


def _card(state, name):
    return state.cards[name]


def _role(game, state, name):
    return game.role(state.cards[name])


def _holder(state, role_id, living=True):
    """The player holding the one card ``role_id`` (alive, unless ``living`` is False), or None."""
    names = state.living if living else state.seating
    return next((name for name in names if state.cards[name] == role_id), None)


def _alive(state, name):
    return name is not None and name in state.living


def faction(game, state, name):
    """A player's faction now: a converted Discendente's is his converter's, the joined Becchino
    has none; None for the cards of no faction."""
    converted = state.own["converted"].get(name)
    if converted is not None:
        return converted
    if _card(state, name) == UNDERTAKER and state.own["joined"]:
        return None
    side = _role(game, state, name).side
    return None if side == NO_FACTION else side


def _curse_sources(state, tonight=None):
    """Who is cursed by whom, now: the Negromante's two while he lives (his night-1 curse holds
    at once), the Megera's mystics while she lives, the Mostro himself while alive."""
    necro = list(state.own["necro_cursed"])
    if tonight is not None and state.night == 1 and tonight.get(NECROMANCER):
        necro = list(tonight[NECROMANCER])
    cursed = set()
    if _alive(state, _holder(state, NECROMANCER)):
        cursed.update(necro)
    if _alive(state, _holder(state, HAG)):
        cursed.update(state.own["hag_cursed"])
    monster = _holder(state, MONSTER)
    if monster is not None:
        cursed.add(monster)
    return {name for name in cursed if name in state.living}


def is_cursed(state, name, tonight=None):
    return name in _curse_sources(state, tonight)


def _hag_cursed(state, name):
    """A village mystic the Megera cursed on an earlier night, while she lives: learns and protects nothing."""
    return name in state.own["hag_cursed"] and _alive(state, _holder(state, HAG))


def _black(game, state, name):
    """A card's own aura: black cards, and a converted Discendente."""
    return bool(_role(game, state, name).trait("black")) or name in state.own["converted"]


def attacker(game, state):
    """Who attacks tonight: the strongest living pack wolf (never the Giovane Lupo); with no pack
    wolf alive, the Lupo Solitario, then a Discendente he converted. None: nobody attacks."""
    living = state.living
    for role_id in (LEADER, PACK_WOLF):
        holder = _holder(state, role_id)
        if holder is not None:
            return holder
    converted = state.own["converted"]
    pack_converted = [name for name in living if converted.get(name) == PACK_SIDE]
    if pack_converted:
        return pack_converted[0]
    if _pack_alive(game, state):
        return None  # only the Giovane Lupo is left of the pack: he never attacks
    lone = _holder(state, LONE_WOLF)
    if lone is not None:
        return lone
    return next((name for name in living if converted.get(name) == LONE_SIDE), None)


def _pack_alive(game, state):
    return any(faction(game, state, name) == PACK_SIDE for name in state.living)


def _double(game, state, name):
    """The night after the Giovane Lupo was burned, the attacking pack wolf attacks twice."""
    return bool(state.own["double"]) and name is not None and faction(game, state, name) == PACK_SIDE


# --- the night -------------------------------------------------------------------------------------

def start(game: Game, state: State) -> State:
    return state.kept(necro_cursed=[], hag_cursed=[], joined=False, converted={}, signal_spent=False,
                      save_spent=False, double=False, annul=False, jester_day=False, cursed_dead=[],
                      two_cursed="", extra_winners=[], seen=None, dawn_cursed=[])


# No ``places``: nobody leaves home in this game.


def calls(game: Game, state: State, turn: str) -> bool:
    """Every phase of the Possibili is called, dealt or not, alive or dead; only the silent turns
    where a wolf's choice is typed are left out when that wolf cannot attack tonight."""
    if turn in (LEADER, PACK_WOLF, DESCENDANT):
        return any(_key_of(game, state, name) == turn for name in _pointing_wolves(game, state))
    return True


def _key_of(game, state, name):
    """The ACTION KEY a wolf's choice is written under: his card's id."""
    return _card(state, name)


def _pointing_wolves(game, state):
    """The pack's living wolves who may point tonight (each has a key; the Giovane Lupo none):
    the pack's, or the lone side's when the pack is dead (its Discendente's key)."""
    converted = state.own["converted"]
    if _pack_alive(game, state):
        return [name for name in state.living if _card(state, name) in (LEADER, PACK_WOLF)
                or converted.get(name) == PACK_SIDE]
    return [name for name in state.living if converted.get(name) == LONE_SIDE]


def ask(game: Game, state: State, turn: str, tonight: Mapping[str, Any]) -> Ask | None:
    living = state.living
    holder = _holder(state, turn) if turn in game.role_ids else None
    if turn == PRIEST:
        sinner = _holder(state, SINNER)
        return Ask(PRIEST, "told", (holder,), about=sinner) if holder and sinner else None
    if turn == NECROMANCER:
        if holder is None:
            return None
        hermit = _holder(state, HERMIT)
        targets = tuple(name for name in living if name not in (holder, hermit))
        return Ask(NECROMANCER, "players", (holder,), targets, required=True, most=2, least=2)
    if turn == UNDERTAKER:
        return Ask(UNDERTAKER, "choice", (holder,), choices=(JOIN,)) if holder and _holder(state, NECROMANCER) \
            else None
    if turn in (SEER, MAGE):
        return Ask(turn, "player", (holder,), living) if holder else None
    if turn == MEDIUM:
        return Ask(MEDIUM, "player", (holder,), tuple(name for name in state.seating if name in state.dead)) \
            if holder and state.dead else None
    if turn == WITCH:
        return Ask(WITCH, "player", (holder,), tuple(name for name in living if name != holder)) if holder else None
    if turn in (LEADER, PACK_WOLF, DESCENDANT):
        wolf = next((name for name in _pointing_wolves(game, state) if _key_of(game, state, name) == turn), None)
        if wolf is None:
            return None
        most = 2 if wolf == attacker(game, state) and _double(game, state, wolf) else 1
        return Ask(turn, "players", (wolf,), living, most=most)
    if turn == LONE_WOLF:
        return Ask(LONE_WOLF, "players", (holder,), living, most=1) if holder and not _pack_alive(game, state) \
            else None
    if turn == "segnale":
        poacher = _holder(state, POACHER)
        return Ask(POACHER, "choice", (poacher,), choices=(SIGNAL,)) if poacher and not state.own["signal_spent"] \
            else None
    if turn == POACHER:
        return Ask("branco", "told", (holder,)) if holder else None
    if turn == MONK:  # some of the Possibili nobody was dealt, the moderator's choice (every Contadino
        # card says only Contadino: an identity is never shown as undealt)
        undealt = tuple(role_id for role_id in possible(len(state.seating), state.options["necromancing"])
                        if not state.deck.get(role_id) and role_id not in CONTADINI)
        return Ask(MONK, "told", (holder,), roles=undealt) if holder else None
    if turn == HEALER:
        if holder is None or state.own["save_spent"]:
            return None
        killed = _resolve(game, state, tonight, healed=None)["killed"]
        return Ask(HEALER, "player", (holder,), tuple(name for name in state.seating if name in killed)) \
            if killed else None
    return None


def answer(game: Game, state: State, ask: Ask, value: Any, tonight: Mapping[str, Any]) -> str | None:
    if ask.key == PRIEST:
        return "sinner"
    if ask.key == MONK:
        return "undealt"
    if ask.key == "branco":
        pack = sum(state.deck.get(role_id, 0) for role_id in (LEADER, PACK_WOLF, YOUNG_WOLF))
        return f"{pack}-lone" if state.deck.get(LONE_WOLF) else str(pack)
    if value is None or ask.key not in (SEER, MAGE, MEDIUM, WITCH):
        return None
    asker = ask.choosers[0]
    blind = _hag_cursed(state, asker)
    if ask.key == SEER:
        return "white" if blind else "black" if _black(game, state, value) or is_cursed(state, value, tonight) \
            else "white"
    if ask.key == MAGE:
        return "not-mystic" if blind or not _role(game, state, value).trait("mystic") else "mystic"
    if ask.key == MEDIUM:
        return "white" if blind or not _black(game, state, value) else "black"
    return "not-cursed" if blind or not is_cursed(state, value, tonight) else "cursed"


def _protected_by_witch(state, tonight):
    """Whom the Strega protects tonight: her choice, if she lives and the Megera has not cursed her."""
    witch = _holder(state, WITCH)
    if witch is None or _hag_cursed(state, witch):
        return None
    return tonight.get(WITCH)


def _attacks(game, state, tonight):
    """The attacker and his targets in order: only the attacker's choice is an attack."""
    wolf = attacker(game, state)
    if wolf is None:
        return None, []
    chosen = tonight.get(_key_of(game, state, wolf)) or []
    return wolf, list(chosen[:2 if _double(game, state, wolf) else 1])


def _resolve(game, state, tonight, healed):
    """The dawn's steps 2 to 7 of the digest: who is killed and why, who converted, the
    Megera's new curses, the Pazzo's effect; ``healed`` is the Guaritore's save (survives all)."""
    killed, reasons, converted, new_hag = [], [], {}, []
    wolf, targets = _attacks(game, state, tonight)
    witch_protects = _protected_by_witch(state, tonight)
    hermit, traitor, lone = _holder(state, HERMIT), _holder(state, TRAITOR), _holder(state, LONE_WOLF)
    madman_killed = False

    def kill(name, reason):
        if name not in killed:
            killed.append(name)
            reasons.append((reason, name))

    blocked = tonight.get(POACHER) == SIGNAL and wolf is not None and \
        sum(1 for name in state.living if faction(game, state, name) == faction(game, state, wolf)) == 1
    if blocked and targets:
        reasons.append(("blocked", wolf))
        targets = []
    if targets and state.own["annul"]:
        reasons.append(("annulled", targets[0]))
        targets = targets[1:]
    for target in targets:
        if _card(state, target) == DESCENDANT and target not in state.own["converted"]:
            converted[target] = faction(game, state, wolf)
            reasons.append(("converted", target))
            continue
        if target in (witch_protects, hermit, traitor) or (target == lone and faction(game, state, wolf) == PACK_SIDE):
            reasons.append(("protected", target))
            continue
        kill(target, "attacked")
        if _card(state, target) == MADMAN:
            madman_killed = True
        if _card(state, target) == HERO and wolf != target:
            kill(wolf, "hero")
    monster = _holder(state, MONSTER)
    if monster is not None and state.night >= 2:
        pointers = [_holder(state, role_id) for role_id in POINTING if tonight.get(role_id) == monster]
        pointers += [name for name in _pointing_wolves(game, state) if monster in (tonight.get(_card(state, name))
                                                                                   or [])]
        if lone is not None and monster in (tonight.get(LONE_WOLF) or []):
            pointers.append(lone)
        for name in dict.fromkeys(pointers):
            if name is None or (witch_protects == monster and faction(game, state, name) in SHADOW):
                continue
            kill(name, "monster")
    hag = _holder(state, HAG)
    if hag is not None and witch_protects != hag:
        for role_id in VILLAGE_MYSTICS:
            mystic = _holder(state, role_id)
            if mystic is not None and tonight.get(role_id) == hag and mystic not in state.own["hag_cursed"]:
                new_hag.append(mystic)
    if healed in killed:  # he survives every cause tonight; a saved Eroe's wolf survives too
        saved = {healed} | ({wolf} if _card(state, healed) == HERO and ("hero", wolf) in reasons else set())
        killed = [name for name in killed if name not in saved]
        reasons = [(reason, name) for reason, name in reasons if name not in saved] + [("healed", healed)]
        madman_killed = madman_killed and _card(state, healed) != MADMAN
    return {"killed": killed, "reasons": reasons, "converted": converted, "hag": new_hag,
            "madman": madman_killed}


def dawn(game: Game, state: State, tonight: Mapping[str, Any]) -> Dawn:
    """The dawn in the digest's order: answers were told during the night; the attacks, the
    Mostro, the Megera, the Guaritore, the deaths and the curses they end, the two cursed dead."""
    save = tonight.get(HEALER)
    found = _resolve(game, state, tonight, save)
    killed, reasons = list(found["killed"]), list(found["reasons"])
    curses = _curse_sources(state, tonight)
    necromancer = _holder(state, NECROMANCER)
    if state.own["two_cursed"] == "due" and necromancer is not None and necromancer not in killed:
        for name in state.living:  # after the night's deaths, whatever protection
            if name != necromancer and name not in killed:
                killed.append(name)
                reasons.append(("massacre", name))
    dead = [name for name in state.seating if name in killed]
    after = state.died(dead)
    necro = list(tonight.get(NECROMANCER) or state.own["necro_cursed"])
    hag_cursed = [*state.own["hag_cursed"], *found["hag"]]
    if not _alive(after, _holder(state, HAG)):
        hag_cursed = []  # her curses end with her, tonight's too
    else:
        reasons += [("hag", name) for name in found["hag"]]
    cursed_dead = [*state.own["cursed_dead"], *(name for name in dead if name in curses)]
    two_cursed = {"due": "done", "": "due" if len(cursed_dead) >= 2 else ""}.get(state.own["two_cursed"], "done")
    seen = tonight.get(SEER)
    seen_aura = answer(game, state, Ask(SEER, "player", (_holder(state, SEER),)), seen, tonight) \
        if seen is not None and _holder(state, SEER) else None
    extra = list(state.own["extra_winners"])
    if found["madman"]:
        extra += [name for name in dead if _card(state, name) == MADMAN and name not in extra]
    after = after.kept(
        necro_cursed=necro, hag_cursed=hag_cursed, joined=state.own["joined"] or tonight.get(UNDERTAKER) == JOIN,
        converted={**state.own["converted"], **found["converted"]},
        signal_spent=state.own["signal_spent"] or tonight.get(POACHER) == SIGNAL,
        save_spent=state.own["save_spent"] or save is not None, double=False, annul=found["madman"],
        cursed_dead=cursed_dead, two_cursed=two_cursed, extra_winners=extra, seen=seen_aura,
        dawn_cursed=[name for name in dead if name in curses])
    return Dawn(after, tuple(dead), tuple(reasons))


# --- the day ---------------------------------------------------------------------------------------

def day(game: Game, state: State) -> SecretVote:
    """One secret vote: each living player votes for another living player or abstains; a cursed
    voter counts two; the most voted burns, a tie burns nobody, and nobody burns the day after
    the Giullare's burning."""
    weights = {name: 2 for name in _curse_sources(state)}
    return SecretVote(state.living, state.living, weights=weights, may_abstain=True, others_only=True,
                      spares_all=bool(state.own["jester_day"]))


def day_asks(game: Game, state: State, lynched: str | None, votes: Mapping[str, Mapping[str, str]]) -> Sequence[Ask]:
    """The burned Mostro takes a player with him: one of those who voted for him, when the votes
    are known (any other living player when only the burning was entered)."""
    if lynched is None or _card(state, lynched) != MONSTER:
        return ()
    ballots = votes.get("vote", {})
    voters = {voter for voter, voted in ballots.items() if voted == lynched}
    candidates = tuple(name for name in state.living if name != lynched and (not ballots or name in voters))
    return (Ask(MONSTER, "player", (lynched,), candidates, required=True),) if candidates else ()


def dusk(game: Game, state: State, lynched: str | None, acts: Mapping[str, Any]) -> Dusk:
    if lynched is None:
        return Dusk(state.kept(jester_day=False, dawn_cursed=[]))
    curses = _curse_sources(state)
    dead, reasons = [lynched], []  # the burning itself is explain_day's
    taken = acts.get(MONSTER)
    if taken is not None:
        dead.append(taken)
        reasons.append(("taken", taken))
    after = state.died(dead)
    extra = list(state.own["extra_winners"])
    if _card(state, lynched) == JESTER and lynched not in extra:
        extra.append(lynched)
    hag_cursed = state.own["hag_cursed"] if _alive(after, _holder(state, HAG)) else []
    return Dusk(after.kept(jester_day=_card(state, lynched) == JESTER, double=_card(state, lynched) == YOUNG_WOLF,
                           hag_cursed=hag_cursed, extra_winners=extra, dawn_cursed=[],
                           cursed_dead=[*state.own["cursed_dead"], *(name for name in dead if name in curses)]),
                tuple(dead), tuple(reasons))


def explain_day(game: Game, procedure: Procedure, verdict: Verdict, say: Sentences) -> Sequence[str]:
    """The votes as counted, then who burns or that nobody does (never why)."""
    counted = {} if verdict.given else verdict.tallies["vote"]
    lines = [] if verdict.given else [say("votes", tally=tally_text(counted)) if any(counted.values())
                                      else say("no_votes")]  # not "Hands counted: -"
    lines.append(say("burned", name=verdict.lynched) if verdict.lynched is not None else say("spared"))
    return lines


def announce(game: Game, result: Dawn | Dusk, say: Sentences) -> Sequence[str]:
    """At dawn: the dead by name; the Bardo's and the Oste's news of the Veggente's aura; each
    death of a cursed player while the Becchino lives unjoined; the two cursed dead."""
    if not isinstance(result, Dawn):
        return []
    state = result.state
    lines = [say("dawn_dead", names=say.join(list(result.dead)))] if result.dead else []
    seen = state.own.get("seen")
    for role_id, aura in ((BARD, "white"), (HOST, "black")):
        if seen == aura and _alive(state, _holder(state, role_id)):
            lines.append(say(role_id))
    if _alive(state, _holder(state, UNDERTAKER)) and not state.own["joined"]:
        lines += [say("died_cursed", name=name) for name in state.own.get("dawn_cursed", ())]
    if state.own["two_cursed"] == "due":  # reached at this dawn: said once, the massacre comes at the next
        lines.append(say("two_cursed"))
    return lines


def notes(game: Game, state: State, say: Sentences) -> Sequence[str]:
    """What the moderator keeps in mind that the cards and the dead do not show, a sentence each:
    the Negromante's curses while he lives and the Megera's while she lives (the living cursed
    only; the Mostro's own curse is his card's); while the Negromante lives, who died cursed so
    far, or, once two have, the massacre due at the next dawn; the converted Discendente and his
    side, and the joined Becchino (alive or dead: both change who wins); the pack's double attack
    and the annulled first attack of the next dawn, while a wolf is left to attack; the next vote
    that burns nobody; the Bracconiere's signal and the Guaritore's save, spent, while each
    lives; who wins whatever the end. Left out: the Veggente's last aura and the dawn's cursed
    dead (what the dawn announces), and the cursed dead once the massacre is due or done."""
    own, lines = state.own, []
    necromancer = _holder(state, NECROMANCER)
    for key, source, by_source in (("note_necro_cursed", necromancer, own["necro_cursed"]),
                                   ("note_hag_cursed", _holder(state, HAG), own["hag_cursed"])):
        cursed = [name for name in state.living if name in by_source]
        if source is not None and cursed:
            lines.append(say(key, names=say.join(cursed)))
    if necromancer is not None and own["two_cursed"] == "due":
        lines.append(say("note_massacre_due"))
    elif necromancer is not None and not own["two_cursed"] and own["cursed_dead"]:
        lines.append(say("note_cursed_dead", names=say.join(list(own["cursed_dead"]))))
    for name in state.seating:
        side = own["converted"].get(name)
        if side is not None:
            lines.append(say("note_converted_pack" if side == PACK_SIDE else "note_converted_lone", name=name))
    if own["joined"]:
        lines.append(say("note_joined", name=_holder(state, UNDERTAKER, living=False)))
    wolf = attacker(game, state)
    if own["double"] and _double(game, state, wolf):
        lines.append(say("note_double"))
    if own["annul"] and wolf is not None:
        lines.append(say("note_annulled"))
    if own["jester_day"]:
        lines.append(say("note_jester_day"))
    if own["signal_spent"] and _holder(state, POACHER) is not None:
        lines.append(say("note_signal_spent"))
    if own["save_spent"] and _holder(state, HEALER) is not None:
        lines.append(say("note_save_spent"))
    winners = [name for name in state.seating if name in own["extra_winners"]]
    if winners:
        lines.append(say("note_winners", names=say.join(winners)))
    return lines


# --- the end ---------------------------------------------------------------------------------------

def _creature_factions(game, state):
    """The Shadow factions alive: a living player's, and maledetto for a cursed one of none."""
    curses = _curse_sources(state)
    factions = set()
    for name in state.living:
        side = faction(game, state, name)
        if side in SHADOW:
            factions.add(side)
        elif name in curses:
            factions.add(CURSED)
    return factions


def game_over(game: Game, state: State) -> tuple[Sequence[str], Sequence[str]] | None:
    """Villaggio when no Creature of the Shadow lives; a Shadow side when it is the only Shadow
    faction alive and no uncursed villager lives; no side when only the cursed are left or
    nobody. The burned Giullare and the Pazzo killed by the wolves win whenever it ends."""
    living = state.living
    factions = _creature_factions(game, state)
    curses = _curse_sources(state)
    humans = [name for name in living if faction(game, state, name) == VILLAGE and name not in curses]
    extra = list(state.own["extra_winners"])
    if not living or factions == {CURSED}:
        return (), tuple(name for name in state.seating if name in extra)
    if not factions:
        winners = {name for name in state.seating if faction(game, state, name) == VILLAGE
                   and name not in state.own["converted"]}
        return (VILLAGE,), tuple(name for name in state.seating if name in winners or name in extra)
    if len(factions) == 1 and not humans:
        side = next(iter(factions))
        winners = {name for name in state.seating if faction(game, state, name) == side}
        allies = {HAG} | ({TRAITOR} if side in (PACK_SIDE, LONE_SIDE) else set())
        winners |= {name for name in state.seating if _card(state, name) in allies}
        if side == NECRO_SIDE and state.own["joined"]:
            winners.add(_holder(state, UNDERTAKER, living=False))
        return (side,), tuple(name for name in state.seating if name in winners or name in extra)
    return None


def card_back(game: Game, language: Language, deck: Deck) -> tuple[Block, ...]:
    """The dawn's order, the vote, the end, and the set's rules."""
    texts = language.card
    back = [Block("heading", texts["dawn"]), Block("text", texts["dawn_text"])]
    if deck.copies(NECROMANCER) or deck.copies(HAG) or deck.copies(MONSTER):
        back.append(Block("text", texts["dawn_curses"]))
    back += [Block("heading", texts["vote"]), Block("text", texts["vote_text"]),
             Block("heading", texts["end"]), Block("text", texts["end_text"]),
             Block("heading", texts["set"]), Block("text", texts["set_text"])]
    return tuple(back)
