"""``solve``: the exact value of a position (M1), its best move, every move's value and the
principal variation told trick by trick; ``--batch`` solves one position a line, optionally over
several processes.

The search module is imported inside the command and the batch worker, so ``lukfu --help`` stays
instant. Every position gets a fresh solver from :func:`lukfu_solver.search.make_solver` (the
compiled one; the reference with ``--reference``), so a result never depends on the order of a
batch or on ``--jobs``. How the search works, with its measured figures: ``docs/search.md``.
"""

from __future__ import annotations

import functools
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _, number, pgettext, rate
from lukfu_solver.inputs import MAX_JOBS, MAX_NODES, check_int
from lukfu_solver.parallel import ordered_map
from lukfu_solver.plays import Play
from lukfu_solver.position import Position

from .batch import count_lines, error_object, read_lines
from .options import POSITION_HELP, BatchOpt, JsonOpt, SchedulerOpt, one_source
from .output import bad_usage, emit_json, stdout_console
from .progress import kernel_missing, prepare_solver, with_progress
from .render import narrate_pv, result_line, signed
from .scheduling import check_scheduler, on_cluster

if TYPE_CHECKING:
    from lukfu_solver.search import SolveResult

AllMovesOpt = Annotated[bool, typer.Option("--all-moves", help="Also find the exact value of every legal move.")]
MaxNodesOpt = Annotated[
    int | None,
    typer.Option(
        "--max-nodes",
        metavar="N",
        help="Stop each search after about N nodes and report the range of values proven so far.",
    ),
]
TimeOpt = Annotated[
    float | None,
    typer.Option(
        "--time", metavar="SECONDS", help="Stop each search after SECONDS and report the range of values proven so far."
    ),
]
JobsOpt = Annotated[
    int, typer.Option("--jobs", metavar="N", help="With --batch: solve on N processes (same results, in order).")
]
ThreadsOpt = Annotated[
    int,
    typer.Option(
        "--threads",
        metavar="N",
        help="Solve each position on N threads (1 or 2) sharing one table: the same values, faster on hard "
        "positions; node counts, and the best move where several keep the value, may vary from run to run "
        "(measurements: docs/search.md).",
    ),
]


# ---------------------------------------------------------------- solving

SMALL_ENDGAME = 4
"""At most this many cards in every hand, a position is answered by the reference search when
the compiled one is not compiled yet: instantly, with the same values and node counts."""


def choose_reference(pos: Position, reference: bool, threads: int) -> bool:
    """Whether to solve ``pos`` with the reference search: when asked, or when it is a small
    endgame and the compiled solver would first need compiling (no wait for a few cards);
    otherwise the compiled solver is made ready now, so its time is not in the reported one."""
    if reference:
        return True
    if threads == 1 and max(h.bit_count() for h in pos.hands) <= SMALL_ENDGAME and kernel_missing():
        return True
    prepare_solver()
    return False


def check_limits(max_nodes: int | None, time_limit: float | None) -> None:
    """Reject limits that make no sense (NotationError, so exit 2 with one line)."""
    if max_nodes is not None and max_nodes < 1:
        raise bad_usage("max-nodes", _("must be at least 1, got {value}").format(value=max_nodes))
    if max_nodes is not None:
        check_int(max_nodes, "max-nodes", 1, MAX_NODES)  # the kernel counts in a signed 64-bit int
    if time_limit is not None and not time_limit > 0:
        raise bad_usage("time", _("must be more than 0 seconds, got {value}").format(value=time_limit))


def run_solver(
    pos: Position,
    all_moves: bool,
    max_nodes: int | None,
    time_limit: float | None,
    reference: bool = False,
    threads: int = 1,
) -> SolveResult:
    """Solve ``pos`` with a fresh solver (the result depends on the position alone): the compiled
    one on ``threads`` threads, or the pure-Python reference (the same values and node counts)."""
    from lukfu_solver.search import make_solver

    solver = make_solver("reference" if reference else "compiled", threads=threads)
    return solver.solve(pos, all_moves=all_moves, max_nodes=max_nodes, time_limit=time_limit)


def moves_data(res: SolveResult) -> dict[str, int]:
    """The value of every root move, in canonical move order, keyed by the move's text."""
    return {str(m): res.moves[m] for m in sorted(res.moves, key=Play.sort_key)}


def solve_data(pos: Position, res: SolveResult, all_moves: bool) -> dict[str, Any]:
    """The ``--json`` object of a single solve."""
    data: dict[str, Any] = {
        "position": str(pos),
        "value": res.value,
        "lower": res.lower,
        "upper": res.upper,
        "complete": res.complete,
        "best": None if res.best is None else str(res.best),
        "pv": [str(m) for m in res.pv],
    }
    if all_moves:
        data["moves"] = moves_data(res)
    data.update(nodes=res.nodes, hit_rate=round(res.hit_rate, 4), ms=round(res.ms, 1))
    return data


def batch_data(pos: Position, res: SolveResult, all_moves: bool) -> dict[str, Any]:
    """One line of ``--batch`` output. A search stopped at a limit also has ``complete``
    (false), ``lower`` and ``upper``, since its value is then null."""
    data: dict[str, Any] = {
        "position": str(pos),
        "value": res.value,
        "best": None if res.best is None else str(res.best),
        "pv": [str(m) for m in res.pv],
    }
    if all_moves:
        data["moves"] = moves_data(res)
    data.update(nodes=res.nodes, ms=round(res.ms, 1))
    if not res.complete:
        data.update(complete=False, lower=res.lower, upper=res.upper)
    return data


def solve_line(
    item: tuple[int, str],
    all_moves: bool,
    max_nodes: int | None,
    time_limit: float | None,
    reference: bool = False,
    threads: int = 1,
) -> dict[str, Any]:
    """Answer one batch line ``(number, text)``: its result object, or its error object."""
    n, text = item
    try:
        pos = Position.parse(text)
    except NotationError as err:
        return error_object(n, err)
    return batch_data(pos, run_solver(pos, all_moves, max_nodes, time_limit, reference, threads), all_moves)


def line_cost(item: tuple[int, str]) -> float:
    """The guessed cost of a batch line, so that a cluster starts the hardest first: the search
    grows about threefold a card a hand (a bad line costs nothing)."""
    try:
        return 3.0 ** Position.parse(item[1]).cards_per_hand()
    except NotationError:
        return 0.0


def run_solve_batch(
    path: str,
    all_moves: bool,
    max_nodes: int | None,
    time_limit: float | None,
    jobs: int,
    reference: bool = False,
    threads: int = 1,
    scheduler: str | None = None,
) -> int:
    """Solve every line of ``path`` and print one JSON object a line, in input order: here, on
    ``jobs`` processes, or on the Dask cluster ``scheduler`` names (the same lines)."""
    lines = read_lines(path)
    work = functools.partial(
        solve_line,
        all_moves=all_moves,
        max_nodes=max_nodes,
        time_limit=time_limit,
        reference=reference,
        threads=threads,
    )
    if scheduler is not None:
        total = count_lines(path)
        with on_cluster(scheduler, "solving", total, warm=not reference) as cluster:
            done = 0
            for obj in ordered_map(work, lines, scheduler=cluster, cost=line_cost, total=total):
                emit_json(obj)
                done += 1
        return done
    total = count_lines(path) if sys.stderr.isatty() else None
    done = 0
    for obj in with_progress(ordered_map(work, lines, jobs), total, _("solving")):
        emit_json(obj)
        done += 1
    return done


def moves_table(pos: Position, res: SolveResult) -> Table:
    """Every root move with its value, best first for the side to move, the best marked."""
    maximizing = pos.to_move == pos.caller
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(pgettext("column", "move"))
    table.add_column(pgettext("column", "value"), justify="right")
    table.add_column("")
    order = sorted(res.moves, key=lambda m: ((-1 if maximizing else 1) * res.moves[m], m.sort_key()))
    for m in order:
        v = res.moves[m]
        if m == res.best:
            mark = Text(_("◀ best"), style="bold green")
        elif res.value is not None and v == res.value:
            mark = Text(_("also best"), style="green")
        else:
            mark = Text("")
        style = "bold" if m == res.best else ""
        table.add_row(Text(str(m), style=style), Text(signed(v), style=style), mark)
    return table


def stats_line(res: SolveResult) -> str:
    """The work done, in the glossary's words and the language's numbers: the positions searched
    (``nodes`` in --json), the share the table of positions already knew, the time."""
    return _("positions searched: {nodes} · table hit rate: {rate} · time: {ms} ms").format(
        nodes=number(res.nodes), rate=rate(res.hit_rate), ms=number(res.ms)
    )


def print_solve(
    pos: Position, res: SolveResult, all_moves: bool, max_nodes: int | None, time_limit: float | None
) -> None:
    """The Rich report of a single solve on stdout."""
    console = stdout_console()
    caller = pos.caller
    mover = _("seat {seat} to follow") if pos.trick else _("seat {seat} to lead")
    head = _("Caller: seat {seat}").format(seat=caller) + ("" if pos.is_over else "; " + mover.format(seat=pos.to_move))
    console.print(Text(head))
    if pos.outcome is not None:
        console.print(Text(_("The deal has ended: nothing to search.")))
        console.print(Text(result_line(pos.outcome)))
        console.print(Text(stats_line(res), style="dim"))
        return
    if not res.complete:
        limits = []
        if max_nodes is not None:
            limits.append(f"--max-nodes {max_nodes}")
        if time_limit is not None:
            limits.append(f"--time {time_limit:g}")
        why = _(" or ").join(limits) or _("a limit")
        console.print(
            Text(_("Search stopped at a limit ({why}) before it finished.").format(why=why), style="bold yellow")
        )
        bounds = _("Bounds: [{lower}, {upper}] (the caller's net points)")
        console.print(Text(bounds.format(lower=signed(res.lower), upper=signed(res.upper))))
    if res.value is not None:
        console.print(
            Text(
                _("Value: {value} (the caller's net points if everyone plays perfectly)").format(
                    value=signed(res.value)
                ),
                style="bold",
            )
        )
    if res.best is not None:
        console.print(Text(_("Best move: {move}").format(move=res.best)))
    if all_moves and res.moves:
        console.print(Text(_("Move values (the caller's net points), best first for the side to move:")))
        console.print(moves_table(pos, res))
        n_legal = sum(1 for _ in pos.legal_moves())
        if len(res.moves) < n_legal:
            only = _("(only {n} of {legal} moves valued before the limit)").format(n=len(res.moves), legal=n_legal)
            console.print(Text(only, style="dim"))
    if res.pv:
        console.print(Text(_("Best line (tricks numbered from this position):"), style="bold"))
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column()
        for line in narrate_pv(pos, res.pv):
            label, sep, rest = line.partition(": ")
            grid.add_row(" " + label + sep.rstrip(), rest)
        console.print(grid)
    console.print(Text(stats_line(res), style="dim"))


# ---------------------------------------------------------------- the command


def solve(
    position: Annotated[str | None, typer.Argument(metavar="POSITION", help=POSITION_HELP, show_default=False)] = None,
    batch: BatchOpt = None,
    all_moves: AllMovesOpt = False,
    json_: JsonOpt = False,
    jobs: JobsOpt = 1,
    scheduler: SchedulerOpt = None,
    max_nodes: MaxNodesOpt = None,
    time_limit: TimeOpt = None,
    reference: Annotated[
        bool,
        typer.Option("--reference", help="Use the pure-Python reference search instead of the compiled kernel."),
    ] = False,
    threads: ThreadsOpt = 1,
) -> None:
    """Solve a position exactly: its value (the caller's net points when both sides play their
    best), the best move and the best line told trick by trick, with the work done (nodes: the
    positions looked at; how often the table of positions already knew one) and the time.

    --all-moves adds a table of every legal move's value. --max-nodes / --time stop the search
    early: the range the value is proven to lie in is shown (exit 0). --json: `{"position", "value", "lower",
    "upper", "complete", "best", "pv", "moves" (with --all-moves), "nodes", "hit_rate", "ms"}`.
    With --batch FILE ('-' is standard input): one position a line in, one JSON object a line out
    in the same order (`{"position", "value", "best", "pv", "moves", "nodes", "ms"}`, or
    `{"line", "error"}` for a bad line; a search stopped at a limit adds `"complete": false`,
    `"lower"` and `"upper"`); --jobs N spreads the batch over N processes, --scheduler over a
    Dask cluster (tcp://HOST:PORT or local:N; docs/cluster.md). The compiled kernel is used (its first run compiles it, then it is cached); --reference uses the pure-Python
    search, which gives the same values and node counts, much more slowly. --threads 2 solves
    each position with two threads sharing the table (faster on hard positions; for many
    positions --jobs is the better use of the cores). How the search works and what it costs,
    measured: docs/search.md.
    """
    one_source(position, batch, "POSITION")
    check_limits(max_nodes, time_limit)
    if jobs < 1:
        raise bad_usage("jobs", _("must be at least 1, got {value}").format(value=jobs))
    check_int(jobs, "jobs", 1, MAX_JOBS)
    if threads not in (1, 2):
        raise bad_usage("threads", _("must be 1 or 2, got {value}").format(value=threads))
    if threads != 1 and reference:
        raise bad_usage("threads", _("the --reference search runs on one thread"))
    check_scheduler(scheduler, jobs)
    if batch is not None:
        if not reference and scheduler is None:  # on a cluster, the workers warm up instead
            prepare_solver()
        run_solve_batch(batch, all_moves, max_nodes, time_limit, jobs, reference, threads, scheduler)
        return
    if scheduler is not None:
        raise bad_usage("scheduler", _("--scheduler applies to --batch only"))
    if jobs != 1:
        raise bad_usage("jobs", _("--jobs applies to --batch only"))
    assert position is not None
    pos = Position.parse(position)
    reference = choose_reference(pos, reference, threads)
    res = run_solver(pos, all_moves, max_nodes, time_limit, reference, threads)
    if json_:
        emit_json(solve_data(pos, res, all_moves))
    else:
        print_solve(pos, res, all_moves, max_nodes, time_limit)
