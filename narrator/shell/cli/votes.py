"""``narrate votes``: settle the vote, from a file or asked player by player."""

import json
from functools import partial
from pathlib import Path

import click

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg, os_reason
from narrator.core.names import player_name, seating
from narrator.shell.cli.games import use_game
from narrator.shell.cli.interface import Command, confirm, echo_data
from narrator.shell.cli.options import language
from narrator.shell.files import write_atomically
from narrator.shell.platform.keyboard import completion
from narrator.shell.translation import _, active_catalog, active_language, say

NAMES_FILE = "players.json"


class VotesCommand(Command):
    """``narrate votes``, whose help ends with the fields of the chosen game's votes file."""

    def format_epilog(self, ctx, formatter):
        super().format_epilog(ctx, formatter)
        env = ctx.find_root().obj
        try:
            game = env.game
        except NarratorError:
            return  # a game that cannot be loaded says why when it is used, not in the help
        language = game.languages.get(active_language()) or game.languages[game.default_language]
        titles = {"file": _("A votes file of {game} (YAML) holds"), "player": _("Each of its players holds")}
        for level, fields in language.votes_file.items():
            with formatter.section(titles[level].format(game=game.title)):
                formatter.write_dl(list(fields.items()))


@click.command(cls=VotesCommand)
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
    from narrator.core.vote import ballots_from_data, is_day_vote, rules_of

    if file is not None:
        from narrator.games.yamlfile import read_yaml

        data = read_yaml(file, plain_text_scalars=True)
        file_game = data.get("game") if isinstance(data, dict) else None
        if file_game is not None and not env.game_given:
            use_game(env, str(file_game))  # the file says which game; --game, when given, must agree
        lang = language(env, lang)
        if is_day_vote(env.game):
            show_day(env, data, str(file), lang, as_json)
            return
        ballots, table = ballots_from_data(env.game, data, str(file))
    else:
        lang = language(env, lang)
        rules_of(env.game)  # a game without vote rules says so before asking anything
        ballots, table = ask_ballots(env, names, lang)
    show_result(env, ballots, table, lang, as_json)


def show_day(env, data, source: str, lang: str, as_json: bool) -> None:
    """A day's votes from a file, settled by the game's rules (``narrator.core.nights.ONE_DAY``)."""
    from narrator.core.vote import Sentences, day_file_rules

    rules = day_file_rules(env.game)
    vote = rules.read_day(env.game, data, source)
    outcome = rules.settle_votes(env.game, vote)
    explanation = rules.explain_votes(env.game, vote, outcome, Sentences(env.game.languages[lang]))
    if as_json:
        echo_data(json.dumps(rules.day_as_dict(outcome, explanation), ensure_ascii=False))
    else:
        click.echo("\n".join(explanation))


def show_result(env, ballots, table, lang: str, as_json: bool = False, deck=None) -> None:
    from narrator.core.vote import resolve_vote
    from narrator.core.votes_view import vote_text

    result = resolve_vote(env.game, ballots, table, lang, deck)
    if as_json:
        echo_data(json.dumps(result.as_dict(), ensure_ascii=False))
    else:
        click.echo(vote_text(env.game, ballots, result, lang, active_catalog()))


def ask_ballots(env, names_option: str | None, lang: str, deck=None, players: int | None = None):
    """Ask for the names (once), then each player's card and vote; every answer checked as typed.

    After a played night, ``deck`` and ``players`` are the ones played: the names must number
    ``players``, every card must be one of the deck's (no more copies than it has), and only a
    token of the deck's roles can have been turned.
    """
    from narrator.core.vote import Ballot, rules_of

    game = env.game
    names = seating_names(env, names_option, players)
    words = game.languages[lang]
    in_play = [role for role in game.roles if deck is None or role.id in deck.role_ids]
    role_choices = sorted({name for role in in_play for name in (role.id, words.role_name(role.id))})
    questions = rules_of(game).questions(game)
    nobody = _("none")
    if deck is None:  # what the deck held is unknown: ask once whether the roles a question needs were in it
        questions = tuple(question for question in questions if not question.per_player or not question.deck_has
                          or _was_in_the_deck(words, question))
    ballots: list[Ballot] = []
    for name in names:
        with completion(role_choices):
            card = click.prompt(_("{name}'s card now").format(name=name),
                                value_proc=lambda text, name=name: _as_parameter(_card, game, words, name, text,  # type: ignore[misc]  # (a lambda's default, which mypy cannot infer)
                                                                                 deck, ballots))
        answers: dict[str, str] = {}
        for question in questions:
            if question.asked_of(card, deck, answers):
                answer = _ask(game, question, words, deck, nobody, name=name, card=words.role_name(card))
                if answer is not None:
                    answers[question.key] = answer
        others = [other for other in names if other != name]
        with completion(others):
            target = click.prompt(_("{name} voted for").format(name=name), value_proc=partial(_player, others=others))
        ballots.append(Ballot(name, card, target, answers))
    table = {}
    for question in questions:
        if not question.per_player and question.deck_has and (
                deck is None or question.deck_has & deck.role_ids):
            answer = _ask(game, question, words, deck, nobody)
            if answer is not None:
                table[question.key] = answer
    return ballots, table


def _was_in_the_deck(words, question) -> bool:
    roles = _(" or ").join(words.role_name(role) for role in sorted(question.deck_has))
    return confirm(_("Was the {role} in the deck?").format(role=roles), default=False)


def _ask(game, question, words, deck, nobody: str, **values) -> str | None:
    """One of the game's questions, with "none" as the default and the answers it allows completed."""
    allowed = [answer for answer in question.allowed
               if question.answers != "roles" or not question.of_the_deck or deck is None
               or answer in deck.table_role_ids]
    named = [words.role_name(answer) if question.answers == "roles" else words.tokens.get(answer, answer)
             for answer in allowed]
    roles = _(" or ").join(words.role_name(role) for role in sorted(question.deck_has & (
        deck.role_ids if deck is not None else question.deck_has)))
    with completion([*allowed, *named, nobody]):
        return click.prompt(_(question.prompt).format(none=nobody, role=roles, **values), default=nobody,
                            value_proc=lambda text: _answer(game, question, text, allowed))


def _answer(game, question, text: str, allowed: list[str]) -> str | None:
    from narrator.core.vote import read_answer

    if text.strip().casefold() == _("none").casefold():
        return None
    answer = _as_parameter(read_answer, game, question, text)
    if answer is not None and answer not in allowed:
        raise click.BadParameter(_("'{answer}' cannot be: one of {allowed}, or {none}").format(
            answer=answer, allowed=", ".join(allowed), none=_("none")))
    return answer


def _card(game, words, name: str, text: str, deck, so_far: list) -> str:
    """A card named at the prompt (any unique start of a name of the deck played, or of the box
    when the deck is not known), checked with the cards already given (see ``check_cards``)."""
    from narrator.core.vote import Ballot, check_cards

    if deck is None:
        on_the_table = list(game.role_ids)
    else:
        on_the_table = list(dict.fromkeys(role for role, _copies in (*deck.counts, *deck.apart)))
    role_id = game.resolve_card(text, on_the_table, words)
    check_cards(game, [*so_far, Ballot(name, role_id, "")], deck)
    return role_id


def seating_names(env, option: str | None, players: int | None) -> list[str]:
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
