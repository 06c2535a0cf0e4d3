"""``narrate votes``: settle the vote, from a file or asked player by player."""

import json
from contextlib import contextmanager
from pathlib import Path

import click

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg, os_reason
from narrator.core.names import player_name, seating
from narrator.core.vote import Ballot, ballots_from_data, check_cards, resolve_vote
from narrator.core.votes_view import vote_text
from narrator.shell.cli.interface import Command, confirm
from narrator.shell.cli.options import language
from narrator.shell.files import write_atomically
from narrator.shell.translation import _, active_catalog, say

NAMES_FILE = "players.json"


@click.command(cls=Command)
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path), metavar="FILE")
@click.option("--names", metavar="NAMES", help='The players in seating order: "Anna,Bruno,Carla,...".')
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON, for programs.")
@click.option("--lang", "-l", metavar="LANG", help="Language of the explanation: it or en.")
@click.pass_obj
def votes(env, file, names, as_json, lang):
    """Settle the vote: who is lynched, who wins, and why, by the rules.

    With FILE, read the players (name, card now, vote) from YAML; without it, ask for them.

    \b
    Examples:
      narrate votes
      narrate votes --names "Anna,Bruno,Carla,Dario"
      narrate votes partita.yaml --json
    """
    lang = language(env, lang)
    if file is not None:
        from narrator.games.yamlfile import read_yaml

        ballots, bewitched = ballots_from_data(env.game, read_yaml(file, plain_text_scalars=True), str(file))
    else:
        ballots, bewitched = ask_ballots(env, names, lang)
    show_result(env, ballots, bewitched, lang, as_json)


def show_result(env, ballots, bewitched, lang: str, as_json: bool = False, deck=None) -> None:
    result = resolve_vote(env.game, ballots, bewitched, lang, deck)
    if as_json:
        click.echo(json.dumps(result.as_dict(), ensure_ascii=False))
    else:
        click.echo(vote_text(env.game, ballots, result, lang, active_catalog()))


def ask_ballots(env, names_option: str | None, lang: str, deck=None, players: int | None = None):
    """Ask for the names (once), then each player's card and vote; every answer checked as typed.

    After a played night, ``deck`` and ``players`` are the ones played: the names must number
    ``players``, every card must be one of the deck's (no more copies than it has), and only a
    token of the deck's roles can have been turned.
    """
    game = env.game
    names = _names(env, names_option, players)
    in_play = [role for role in game.roles if deck is None or role.id in deck.role_ids]
    role_choices = sorted({name for role in in_play for name in (role.id, game.languages[lang].role_name(role.id))})
    ballots: list[Ballot] = []
    for name in names:
        with completion(role_choices):
            card = click.prompt(_("{name}'s card now").format(name=name),
                                value_proc=lambda text, name=name: _as_parameter(_card, game, name, text, deck,
                                                                                 ballots))
        others = [other for other in names if other != name]
        with completion(others):
            target = click.prompt(_("{name} voted for").format(name=name), value_proc=lambda text, others=others: _player(text, others))
        ballots.append(Ballot(name, card, target))
    bewitched = None
    bewitchers = [role.id for role in in_play if role.bewitches]
    if bewitchers:
        bewitchable = [role.id for role in in_play if role.bewitchable]
        who = _(" or ").join(game.languages[lang].role_name(role) for role in bewitchers)
        nobody = _("none")
        with completion([*bewitchable, nobody]):
            bewitched = click.prompt(_("Token turned by the {role} (or {none})").format(role=who, none=nobody),
                                     default=nobody,
                                     value_proc=lambda text: _bewitched(game, text, bewitchable))
    return ballots, bewitched


def _card(game, name: str, text: str, deck, so_far: list[Ballot]) -> str:
    """A card named at the prompt, checked with the cards already given (see ``check_cards``)."""
    role_id = game.resolve_role(text)
    check_cards(game, [*so_far, Ballot(name, role_id, "")], deck)
    return role_id


def _names(env, option: str | None, players: int | None) -> list[str]:
    """The names, from the option or asked; last game's names are offered when the count fits."""
    saved = env.config_dir / NAMES_FILE
    if option is not None:
        names = check_names(env, option, players)
    else:
        previous = _load_names(saved)
        if previous and (players is None or len(previous) == players) and \
                confirm(_("Same players as last time ({names})?").format(names=", ".join(previous))):
            names = previous
        else:
            names = click.prompt(_("Players in seating order, separated by commas"),
                                 value_proc=lambda text: _as_parameter(check_names, env, text, players))
    _save_names(saved, names)
    return names


def check_names(env, text: str, players: int | None) -> list[str]:
    """``--names`` checked against the game, and against the deck's player count when there is a deck."""
    return seating(text, env.game.min_players, env.game.max_players, exactly=players)


def _as_parameter(check, *args):
    """A core check at a prompt: its refusal is asked again, not the end of narrate."""
    try:
        return check(*args)
    except NarratorError as error:
        raise click.BadParameter(say(error)) from None


def _player(text: str, others: list[str]) -> str:
    for other in others:
        if other.casefold() == text.strip().casefold():
            return other
    raise click.BadParameter(_("'{name}' is not another player: one of {players}").format(
        name=text.strip(), players=", ".join(others)))


def _bewitched(game, text: str, allowed: list[str]) -> str | None:
    if text.strip().casefold() in ("", "none", _("none").casefold()):
        return None
    role = _as_parameter(game.resolve_role, text)
    if role not in allowed:
        raise click.BadParameter(_("'{role}' cannot be turned: one of {roles}, or {none}").format(
            role=role, roles=", ".join(allowed), none=_("none")))
    return role


def _load_names(path: Path) -> list[str] | None:
    try:
        names = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        return None
    try:
        return [player_name(name) for name in names]
    except NarratorError:
        return None


def _save_names(path: Path, names: list[str]) -> None:
    """Remember the names for next time, atomically."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, lambda temporary: temporary.write_text(json.dumps(names, ensure_ascii=False),
                                                                      encoding="utf-8"))
    except OSError as error:
        raise NarratorError(msg("cannot remember the players' names in {file} ({reason})", file=path,
                                 reason=os_reason(error))) from None


@contextmanager
def completion(options: list[str]):
    """Tab completes from ``options`` at the next prompt, where the terminal has readline."""
    try:
        import readline
    except ImportError:
        yield
        return
    previous = readline.get_completer()
    matches: list[str] = []

    def complete(text: str, state: int):
        if state == 0:
            matches[:] = [option for option in options if option.casefold().startswith(text.casefold())]
        return matches[state] if state < len(matches) else None

    readline.set_completer(complete)
    readline.set_completer_delims(",")
    readline.parse_and_bind("tab: complete")
    try:
        yield
    finally:
        readline.set_completer(previous)
