"""One Night Ultimate Werewolf's vote, exactly by the project's rulings
(shared/rules/one-night-ultimate-werewolf.md, "The vote"). Each step below names the ruling.

A player's role is the final card in front of them, changed by what the vote asks: the role the
Doppelgänger copied, what a Paranormal Investigator became, an artifact on the card. Which cards
are werewolves, who protects, who shoots and who wins by dying come from the role data in
game.yaml (the fields below), not from role names in the steps.
"""

from collections.abc import Mapping, Sequence

from narrator.core.card import Block
from narrator.core.deck import Deck
from narrator.core.game import Game, Language
from narrator.core.i18n import N_, msg
from narrator.core.vote import Ballot, Question, Sentences, VoteError, VoteResult, tally, voted_for

ROLE_FIELDS = {
    "werewolf": "flag",  # a werewolf card
    "vote_power": ("hunter", "bodyguard"),  # hunter: dying, takes its target; bodyguard: its target cannot die
    "wins_if_dies": "flag",  # the Tanner
    "copies_a_role": "flag",  # the Doppelgänger: the vote asks what she copied...
    "plays_if_nothing_copied": "role",  # ...and she is this role when she copied none (her card in the centre)
    "may_become": "flag",  # the Paranormal Investigator: the vote asks what she became
    "places_artifacts": "flag",  # the Curator: the vote asks which artifact lies on each card
}
SENTENCES = ("tally", "copied", "copied_nothing", "became", "artifact_role", "artifact_nothing", "protects",
             "spared", "dies_one", "dies_two", "dies_tie", "nobody_dies", "hunter_shoots", "hunter_target_protected",
             "village_werewolf_died", "village_no_werewolf", "werewolves_win", "minion_wins", "werewolves_lose",
             "werewolves_lose_tanners", "tanner_wins", "tanners_win", "no_team_wins", "winners", "no_winners")
CARD_TEXTS = ("vote", "vote_most", "vote_protect", "vote_hunter", "vote_village", "vote_werewolves", "vote_tanner",
              "vote_artifacts", "vote_final_card")

TOKEN_FIELDS = {
    "makes": "role",  # an artifact that makes the card it lies on this role (without its vote power)
}

WEREWOLF_TEAM, VILLAGE, TANNER = "werewolf", "village", "tanner"  # game.yaml's sides


def questions(game: Game) -> tuple[Question, ...]:
    """The copy, the Paranormal Investigator's change and the artifacts, each asked only of the
    cards it concerns (a Doppelgänger who copied the investigator may have changed too)."""
    copiers = frozenset(role.id for role in game.roles if role.trait("copies_a_role"))
    investigators = frozenset(role.id for role in game.roles if role.trait("may_become"))
    become = tuple(role.id for role in game.roles if role.trait("werewolf") or role.trait("wins_if_dies"))

    def may_have_changed(card, answers):  # the investigator, or a Doppelgänger who copied one
        return card in investigators or answers.get("copied") in investigators

    return (
        Question("copied", N_("{name} holds the {card}: the role copied at night (or {none})"), "roles",
                 allowed=tuple(role.id for role in game.roles if not role.trait("copies_a_role")), holders=copiers),
        Question("became", N_("{name} holds the {card}: the role seen and taken at night (or {none})"), "roles",
                 allowed=become, holders=investigators | copiers, of_the_deck=False, only_if=may_have_changed),
        Question("artifact", N_("The artifact on {name}'s card (or {none})"), "tokens", allowed=game.tokens,
                 deck_has=frozenset(role.id for role in game.roles if role.trait("places_artifacts"))),
    )


def check(game: Game, ballots: Sequence[Ballot], table: Mapping[str, str], deck: Deck | None) -> None:
    """Each artifact lies on one card, and no more lie out than the night's turns could place (what
    the copy allows is the questions' ``only_if``)."""
    placed = [ballot.answers["artifact"] for ballot in ballots if "artifact" in ballot.answers]
    most = artifact_turns(game, deck)
    if len(placed) > most:
        raise VoteError(msg("{count} artifacts lie on cards, but this deck places at most {most} (one at each turn "
                            "that places one): check the tokens", count=len(placed), most=most))
    twice = next((artifact for artifact in placed if placed.count(artifact) > 1), None)
    if twice is not None:
        holders = ", ".join(ballot.name for ballot in ballots if ballot.answers.get("artifact") == twice)
        raise VoteError(msg("'{artifact}' lies on two cards ({players}), but there is one of each: check the tokens",
                            artifact=twice, players=holders))


def artifact_turns(game, deck) -> int:
    """How many artifacts a night can place: one per card that places one, and one per card that may
    copy it (without a known deck, the box's)."""
    def copies(role):
        return role.copies if deck is None else deck.all_copies(role.id)

    placers = sum(copies(role) for role in game.roles if role.trait("places_artifacts"))
    return placers + (sum(copies(role) for role in game.roles if role.trait("copies_a_role")) if placers else 0)


def final_role(game, ballot):
    """The role a player plays at the vote, and whether it keeps its vote power."""
    role = ballot.card
    if game.role(role).trait("copies_a_role"):
        role = ballot.answers.get("copied", game.role(role).trait("plays_if_nothing_copied"))
    if "became" in ballot.answers:
        role = ballot.answers["became"]
    changed_to = game.token_trait(ballot.answers.get("artifact"), "makes")
    return (changed_to, False) if changed_to else (role, True)


def resolve(game: Game, ballots: Sequence[Ballot], table: Mapping[str, str], say: Sentences) -> VoteResult:
    """Count, protect, kill, let the Hunters shoot, and find every side that wins, with the reasons."""
    names = [ballot.name for ballot in ballots]  # seating order
    voted = voted_for(ballots)
    explanation = []

    # The final role: the card, what the Doppelgänger copied, what the investigator became, the artifact.
    role, power = {}, {}
    for ballot in ballots:
        role[ballot.name], keeps_power = final_role(game, ballot)
        power[ballot.name] = game.role(role[ballot.name]).trait("vote_power") if keeps_power else None
        card_name = say.role(ballot.card)
        if game.role(ballot.card).trait("copies_a_role"):
            copied = ballot.answers.get("copied")
            explanation.append(say("copied", name=ballot.name, card=card_name, role=say.role(copied)) if copied
                               else say("copied_nothing", name=ballot.name, card=card_name,
                                       role=say.role(game.role(ballot.card).trait("plays_if_nothing_copied"))))
        if "became" in ballot.answers:
            explanation.append(say("became", name=ballot.name, card=card_name, role=say.role(ballot.answers["became"])))
        artifact = ballot.answers.get("artifact")
        if artifact is not None:
            artifact_name = say.language.tokens[artifact]
            if game.token_trait(artifact, "makes"):
                explanation.append(say("artifact_role", name=ballot.name, artifact=artifact_name,
                                       role=say.role(role[ballot.name])))
            else:
                explanation.append(say("artifact_nothing", name=ballot.name, artifact=artifact_name))

    def is_werewolf(name):
        return game.role(role[name]).trait("werewolf")

    def is_tanner(name):
        return game.role(role[name]).trait("wins_if_dies")

    def side(name):
        return game.role(role[name]).side

    # Step 1: every player points at another player; count the votes.
    votes = tally(ballots)
    explanation.append(say("tally", tally=", ".join(f"{name} {votes[name]}" for name in names)))

    # Step 2, the Bodyguard: whoever a Bodyguard points at cannot die, by the vote or a Hunter.
    protected = set()
    for name in names:
        if power[name] == "bodyguard":
            protected.add(voted[name])
            explanation.append(say("protects", name=name, role=say.role(role[name]), target=voted[name]))

    # Step 3, deaths: among those who may die, the most votes die (all when tied), only with 2 or more.
    most = max(votes.values())
    spared = [name for name in names if name in protected and votes[name] == most and most >= 2]
    if spared:
        explanation.append(say("spared", names=say.join(spared)))
    top = max((votes[name] for name in names if name not in protected), default=0)
    dead = [name for name in names if name not in protected and votes[name] == top] if top >= 2 else []
    if not dead:
        explanation.append(say("nobody_dies"))
    else:
        kind = {1: "dies_one", 2: "dies_two"}.get(len(dead), "dies_tie")
        explanation.append(say(kind, names=say.join(dead), count=top))

    # Step 4, the Hunter: a Hunter who dies takes the player they point at, unless protected; a
    # Hunter taken this way shoots too.
    shooters = [name for name in dead if power[name] == "hunter"]
    while shooters:
        hunter = shooters.pop(0)
        target = voted[hunter]
        if target in protected:
            explanation.append(say("hunter_target_protected", name=hunter, role=say.role(role[hunter]),
                                   target=target))
        elif target not in dead:
            explanation.append(say("hunter_shoots", name=hunter, role=say.role(role[hunter]), target=target))
            dead.append(target)
            if power[target] == "hunter":
                shooters.append(target)
    dead = [name for name in names if name in dead]  # seating order

    # Step 5, the winners; several sides may win at once.
    werewolves = [name for name in names if is_werewolf(name)]
    werewolves_dead = [name for name in dead if is_werewolf(name)]
    tanners_dead = [name for name in dead if is_tanner(name)]
    sides = []
    if werewolves_dead:
        sides.append(VILLAGE)
        explanation.append(say("village_werewolf_died", names=say.join(werewolves_dead)))
    elif not werewolves and not dead:
        sides.append(VILLAGE)
        explanation.append(say("village_no_werewolf"))
    if werewolves and not werewolves_dead and not tanners_dead:
        sides.append(WEREWOLF_TEAM)
        explanation.append(say("werewolves_win"))
    elif not werewolves:
        minions = [name for name in names if side(name) == WEREWOLF_TEAM]
        if minions and any(name not in minions for name in dead) and not tanners_dead:
            sides.append(WEREWOLF_TEAM)
            explanation.append(say("minion_wins"))
    elif tanners_dead and not werewolves_dead:
        explanation.append(say("werewolves_lose" if len(tanners_dead) == 1 else "werewolves_lose_tanners",
                               names=say.join(tanners_dead)))
    if tanners_dead:
        sides.append(TANNER)
        explanation.append(say("tanner_wins" if len(tanners_dead) == 1 else "tanners_win", names=say.join(tanners_dead)))
    if not sides:
        explanation.append(say("no_team_wins"))

    winners = [name for name in names
               if (VILLAGE in sides and side(name) == VILLAGE)
               or (WEREWOLF_TEAM in sides and side(name) == WEREWOLF_TEAM)
               or name in tanners_dead]
    explanation.append(say("winners", names=say.join(winners)) if winners else say("no_winners"))
    return VoteResult(votes, dict(votes), tuple(dead), tuple(sides), tuple(winners), tuple(explanation))


def card_back(game: Game, language: Language, deck: Deck) -> tuple[Block, ...]:
    """Who dies and who wins, with the powers of the deck's roles."""
    texts = language.card
    in_play = deck.table_role_ids

    def has(field, value=True):
        return any(game.role(role_id).trait(field) == value for role_id in in_play)

    back = [Block("heading", texts["vote"]), Block("text", texts["vote_final_card"]),
            Block("text", texts["vote_most"])]
    if has("vote_power", "bodyguard"):
        back.append(Block("text", texts["vote_protect"]))
    if has("vote_power", "hunter"):
        back.append(Block("text", texts["vote_hunter"]))
    back += [Block("text", texts["vote_village"]), Block("text", texts["vote_werewolves"])]
    if has("wins_if_dies"):
        back.append(Block("text", texts["vote_tanner"]))
    if has("places_artifacts"):
        back.append(Block("text", texts["vote_artifacts"]))
    return tuple(back)
