"""The vote result on the terminal: a table of votes, who is lynched, who wins and why."""

from collections.abc import Sequence

from narrator.core.game import Game
from narrator.core.i18n import ENGLISH, Catalog
from narrator.core.views import table
from narrator.core.vote import Ballot, VoteResult


def vote_text(game: Game, ballots: Sequence[Ballot], result: VoteResult, lang: str,
              catalog: Catalog = ENGLISH) -> str:
    language = game.languages[lang]
    moved = result.votes != result.votes_cast
    header = ([catalog.gettext("player"), catalog.gettext("card"), catalog.gettext("voted for"),
               catalog.gettext("votes")] + ([catalog.gettext("after passing")] if moved else []) + [""])
    rows = [header]
    for ballot in ballots:
        marks = []
        if ballot.name in result.lynched:
            marks.append(language.vote.get("lynched_mark") or catalog.gettext("lynched"))
        if ballot.name in result.winners:
            marks.append(catalog.gettext("wins"))
        row = [ballot.name, language.role_name(ballot.card), ballot.vote, str(result.votes_cast[ballot.name])]
        if moved:
            row.append(str(result.votes[ballot.name]))
        rows.append(row + [", ".join(marks)])

    sides = [language.sides[side] if side in language.sides else language.role_name(side)
             for side in result.winning_sides]  # a side, or a role that wins alone
    side = ", ".join(sides) or "-"
    nobody = catalog.gettext("nobody")
    return "\n".join([
        *table(rows),
        "",
        (language.vote.get("lynched_list") or catalog.gettext("Lynched: {names}")).format(
            names=", ".join(result.lynched) or nobody),
        catalog.ngettext("Winning side: {side}", "Winning sides: {side}", max(len(sides), 1)).format(side=side),
        catalog.gettext("Winners: {names}").format(names=", ".join(result.winners) or nobody),
        "",
        *result.explanation,
    ])
