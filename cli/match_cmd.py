"""``match``: engine players against each other over many deals, seats rotated, with intervals."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table

from lukfu_solver.i18n import _, ngettext, pgettext

from .options import JsonOpt, SchedulerOpt
from .output import emit_json, stdout_console
from .progress import progress_bar
from .render import signed
from .scheduling import check_scheduler, on_cluster


def match_table(result: Any) -> Table:
    """One row a player (a place at the table): points per deal with the 95% interval, calls."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(pgettext("column", "player"))
    table.add_column(pgettext("column", "points a deal"), justify="right")
    table.add_column(pgettext("column", "95% interval"), justify="right")
    table.add_column(pgettext("column", "calls"), justify="right")
    table.add_column(pgettext("column", "points when calling"), justify="right")
    for s in result.summaries()[:3]:
        cp = "-" if s.call_points is None else signed(s.call_points, 2)
        interval = f"[{signed(s.low, 3)}, {signed(s.high, 3)}]"
        table.add_row(s.label, signed(s.mean, 3), interval, f"{s.calls}/{s.games}", cp)
    return table


def pooled_lines(result: Any) -> list[str]:
    """For a player given at two or three places, its places taken together, one line each."""
    lines = []
    for s in result.summaries()[3:]:
        lines.append(
            _("{player} at all its places together: {mean} a deal, 95% interval [{low}, {high}]").format(
                player=s.label, mean=signed(s.mean, 3), low=signed(s.low, 3), high=signed(s.high, 3)
            )
        )
    return lines


def score_text(result: Any) -> str:
    """The running score: each player's net points over the games played so far."""
    return "  ".join(f"{label} {signed(points)}" for label, points in result.running_score())


def match(
    players: Annotated[
        str,
        typer.Option(
            "--players",
            metavar="A,B,C",
            help="Three players, each random, rule[:T] (T: the hand score it calls from), pimc[:L[:C]] (L: level 1-5, "
            "C: call calibration) or ipimc[:L[:P[c]]]: pimc that weighs the deals by what the others called and "
            "played, by default drawing 4 times the deals it solves and keeping them from one decision to the next "
            "(measured ahead of pimc); ipimc:L:Pc the same with P times, ipimc:L:P P times drawn afresh and "
            "weighed by the calls only (ipimc:L:1 measured slightly behind pimc). E.g. pimc,rule,rule.",
        ),
    ],
    deals: Annotated[
        int, typer.Option("--deals", metavar="N", help="Number of deals (each played in every seating).")
    ] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the match (the deals and the players' seeds).")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", metavar="N", help="Games played in parallel processes.")] = 1,
    json_: JsonOpt = False,
    records: Annotated[
        str | None, typer.Option("--records", metavar="DIR", help="Save every game's record in DIR.")
    ] = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """Play a match between engine players and print each one's points per deal.

    Every deal is played in every seating of the three players: all 6 permutations when they
    differ, the 3 rotations when two are the same, so every player holds every hand in every
    seat and the card luck cancels. Points per deal: a player's net points averaged over a deal's seatings, then the
    mean over deals with a 95% interval (t-based). A spec given twice is reported per place
    (rule#1, rule#2) and pooled (rule). The same seed gives the same results for any --jobs, or
    on a Dask cluster with --scheduler tcp://HOST:PORT or local:N (docs/cluster.md).
    --json prints `{"players", "specs", "seed", "deals", "seatings", "games", "results",
    "per_deal"}`. --records DIR saves each game as deal0007-s2.json (deal 7, seating 2),
    never overwriting a file.
    """
    from lukfu_solver.match import parse_specs, run_match, seatings

    check_scheduler(scheduler, jobs)
    specs = parse_specs(players)
    solves = any(spec.startswith("pimc") for spec in specs)
    if solves and scheduler is None:
        from .progress import prepare_solver

        prepare_solver()  # the one-time compilation announced before the first game, not inside it
    total = deals * len(seatings(specs))
    with on_cluster(scheduler, "playing", total, warm=solves, bar=False):  # the games' bar shows the score
        bar = None if json_ else progress_bar("score {task.fields[score]}")
        if bar is None:
            result = run_match(specs, deals, seed=seed, jobs=jobs, records=records, keep_games=False)
        else:
            with bar:
                task = bar.add_task("playing", total=total, score="-")

                def show(so_far: Any) -> None:
                    bar.update(task, completed=so_far.game_count, score=score_text(so_far))

                result = run_match(specs, deals, seed=seed, jobs=jobs, records=records, on_game=show, keep_games=False)
    if json_:
        emit_json(result.to_json())
        return
    console = stdout_console()
    n = len(result.seatings)
    console.print(
        ngettext("{n} deal", "{n} deals", deals).format(n=deals)
        + " × "
        + ngettext("{n} seating", "{n} seatings", n).format(n=n)
        + _(" = {games} games, seed {seed}: {players}").format(
            games=result.game_count, seed=seed, players=", ".join(specs)
        ),
        highlight=False,
    )
    console.print(match_table(result))
    for line in pooled_lines(result):
        console.print(line, highlight=False)
    console.print(_("Score over all games: {score}").format(score=score_text(result)), highlight=False)
    if records is not None:
        console.print(_("Records saved in {path}/").format(path=records), highlight=False)
