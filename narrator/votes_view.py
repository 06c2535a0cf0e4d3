"""The vote result on the terminal: a table of votes, who is lynched, who wins and why."""

from collections.abc import Sequence

from narrator.game import Game
from narrator.vote import Ballot, VoteResult


def vote_text(game: Game, ballots: Sequence[Ballot], result: VoteResult, lang: str) -> str:
    language = game.languages[lang]
    moved = result.votes != result.votes_cast
    header = ["player", "card", "voted for", "votes"] + (["after passing"] if moved else []) + [""]
    rows = [header]
    for ballot in ballots:
        marks = []
        if ballot.name in result.lynched:
            marks.append("lynched")
        if ballot.name in result.winners:
            marks.append("wins")
        row = [ballot.name, language.role_name(ballot.card), ballot.vote, str(result.votes_cast[ballot.name])]
        if moved:
            row.append(str(result.votes[ballot.name]))
        rows.append(row + [", ".join(marks)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    table = ["  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
             for row in rows]
    if result.winning_side in language.sides:
        side = language.sides[result.winning_side]
    elif result.winning_side is not None:
        side = language.role_name(result.winning_side)
    else:
        side = "-"
    return "\n".join([
        *table,
        "",
        f"Lynched: {', '.join(result.lynched) if result.lynched else 'nobody'}",
        f"Winning side: {side}",
        f"Winners: {', '.join(result.winners) if result.winners else 'nobody'}",
        "",
        *result.explanation,
    ])
