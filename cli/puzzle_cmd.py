"""``puzzle``: generate, solve, check, show and play Luk Fu puzzles (``lukfu_solver.puzzles``).

Each command parses its options, calls one library function and renders the result; the
library (and through it the search) is imported inside the commands, so ``lukfu --help`` stays
instant. Every definition (goals, uniqueness, rating, themes, file format) is in
``docs/puzzles.md``.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import N_, _, ngettext, number, pgettext, seconds
from lukfu_solver.inputs import MAX_JOBS, MAX_PUZZLE_DEALS, MAX_PUZZLES, check_int, check_seed
from lukfu_solver.position import Position
from lukfu_solver.safe_write import check_target, write_atomic

from .options import JsonOpt, SchedulerOpt
from .output import (
    HelpGroup,
    LukfuCommand,
    bad_usage,
    emit_json,
    fresh_name,
    note,
    one_line,
    stdout_console,
    tolerant_stdin,
)
from .progress import progress_bar
from .puzzle_play import puzzle_head
from .render import Hanging, move_words, narrate_pv, position_renderable, signed
from .scheduling import check_scheduler, on_cluster

if TYPE_CHECKING:
    from lukfu_solver.puzzles import Puzzle, SolveReport

app = typer.Typer(
    cls=HelpGroup,
    no_args_is_help=True,
    add_completion=False,
    help="Puzzles: perfect-information positions with a question and exactly one right answer "
    "(docs/puzzles.md): generate, solve, check, show and play them.",
)

IdOpt = Annotated[str | None, typer.Option("--id", metavar="ID", help="Only the puzzle with this id.")]
SolverOpt = Annotated[
    str,
    typer.Option(
        "--solver",
        metavar="KIND",
        help="Exact solver: compiled (the default) or reference (the pure-Python search: the same values "
        "and node counts, slower).",
    ),
]
FILE_HELP = N_("A puzzle file (JSON: a collection, a list of puzzles or one puzzle) or a directory of them.")
SOURCE_HELP = N_(
    "A puzzle file (JSON: a collection, a list of puzzles or one puzzle) or a directory of them. "
    "Or a position line, quoted."
)
POSITION_ARGS = {"ignore_unknown_options": True}


# ---------------------------------------------------------------- shared


def solver_kind(name: str) -> str:
    """``name`` if the puzzle commands offer that solver, else bad input naming ``--solver``."""
    from lukfu_solver.puzzles import SOLVER_CHOICES

    if name not in SOLVER_CHOICES:
        raise bad_usage(
            "solver", _("expected {choices}, got {name!r}").format(choices=" or ".join(SOLVER_CHOICES), name=name)
        )
    if name == "compiled":
        from .progress import prepare_solver

        prepare_solver()  # the one-time compilation announced, never inside a puzzle's time
    return name


def load_selected(path: str, pid: str | None) -> list[Puzzle]:
    """The puzzles of a FILE argument (a file or a directory), or the one with ``--id``."""
    from lukfu_solver import puzzles as P

    return P.select(P.load_source(path), pid)


def generate_summary(found: int, count: int, max_deals: int, tiers: dict[str, int], tried: int, secs: float) -> str:
    """The note after ``puzzle generate``: how many puzzles of each tier, the deals tried, the time."""
    from lukfu_solver.puzzles.words import tier_text

    head = ngettext("generated {n} puzzle", "generated {n} puzzles", found).format(n=found)
    if found < count:
        head += _(" (only {n} of {count}: --max-deals {max_deals} reached)").format(
            n=found, count=count, max_deals=max_deals
        )
    parts = ", ".join(_("{n} {tier}").format(n=n, tier=tier_text(t)) for t, n in tiers.items())
    tail = ngettext("{n} deal in {secs}", "{n} deals in {secs}", tried).format(n=number(tried), secs=seconds(secs))
    return _("{head}: {tiers}; {tried}").format(head=head, tiers=parts, tried=tail)


def check_summary(total: int, failed: int) -> str:
    """The last line of ``puzzle check``: how many puzzles passed and failed."""
    head = ngettext("{n} puzzle", "{n} puzzles", total).format(n=total)
    return _("{puzzles}: {passed} passed, {failed} failed").format(puzzles=head, passed=total - failed, failed=failed)


def rating_text(rating: dict[str, int], tier: str) -> str:
    """The rating with its parts (the tier in the reader's language)."""
    from lukfu_solver.puzzles.words import tier_text

    return _(
        "{tier} (score {score}: {decisions} decisions, {tempting} tempting, {misled} misled, {branching} branching)"
    ).format(
        tier=tier_text(tier),
        score=rating.get("score"),
        decisions=rating.get("decisions"),
        tempting=rating.get("tempting"),
        misled=rating.get("misled"),
        branching=rating.get("branching"),
    )


# ---------------------------------------------------------------- generate


def _progress_bar(count: int) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """The puzzles-found bar with the deals tried (the one progress bar, :mod:`.progress`):
    (update(found, tried), stop()); both do nothing when stderr is not a terminal."""
    bar = progress_bar(_("{task.fields[tried]} deals"))
    if bar is None:
        return (lambda found, tried: None), (lambda: None)
    task = bar.add_task(_("puzzles"), total=count, tried=0)
    bar.start()
    return (lambda found, tried: bar.update(task, completed=found, tried=tried)), bar.stop


@app.command("generate", cls=LukfuCommand)
def generate(
    count: Annotated[int, typer.Option("--count", metavar="N", help="Puzzles to generate.")] = 10,
    min_cards: Annotated[int, typer.Option("--min-cards", metavar="N", help="Fewest cards a hand (3-7).")] = 3,
    max_cards: Annotated[int, typer.Option("--max-cards", metavar="N", help="Most cards a hand (3-7).")] = 6,
    difficulty: Annotated[
        str | None, typer.Option("--difficulty", metavar="TIER", help="Only easy, medium or hard puzzles.")
    ] = None,
    theme: Annotated[
        str | None,
        typer.Option(
            "--theme",
            metavar="THEME",
            help="Only puzzles with this theme: 'squeeze of Old cards', 'run versus set', 'discard choice', "
            "'claim timing', 'playing on for more points'.",
        ),
    ] = None,
    goal: Annotated[str | None, typer.Option("--goal", metavar="GOAL", help="Only win, stop or most puzzles.")] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the search; omitted, one is chosen at random and shown.")
    ] = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            metavar="FILE",
            help="Write the collection to FILE (default: standard output, or puzzles-SEED.json on a terminal).",
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --out file.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", metavar="N", help="Search on N processes (same output).")] = 1,
    max_deals: Annotated[
        int, typer.Option("--max-deals", metavar="N", help="Give up after N deals (a note says how many were found).")
    ] = 100_000,
    solver: SolverOpt = "compiled",
    scheduler: SchedulerOpt = None,
) -> None:
    """Generate verified puzzles from seeded deals and write a collection (JSON, docs/puzzles.md).

    Each deal is played at random down to a size drawn from [A, B], then by sensible play (best
    exact value, random ties); every position on the way with A-B cards a hand is tried as a puzzle,
    and the first that passes the uniqueness checks and the filters is kept (one a deal). The output
    depends only on the options and --seed (never on --jobs, --scheduler or --solver); --scheduler
    searches on a Dask cluster (tcp://HOST:PORT or local:N, docs/cluster.md). Without --out the
    collection goes to stdout, or on a terminal to a new file puzzles-SEED.json (never
    overwriting one); a progress bar, a summary and how to play the puzzles go to stderr.
    """
    import random as _random

    from lukfu_solver import puzzles as P

    if count < 1:
        raise bad_usage("count", _("must be at least 1, got {value}").format(value=count))
    if jobs < 1:
        raise bad_usage("jobs", _("must be at least 1, got {value}").format(value=jobs))
    check_scheduler(scheduler, jobs)
    if max_deals < 1:
        raise bad_usage("max-deals", _("must be at least 1, got {value}").format(value=max_deals))
    opts = P.GenOptions(min_cards, max_cards, difficulty, theme, goal)
    opts.validate()
    kind = solver_kind(solver)
    if out is not None and os.path.exists(out) and not force:
        raise bad_usage("out", _("{path} exists: use --force to overwrite it").format(path=out))
    if out is not None:  # now, not after the search: a link, a device or an unwritable directory fails at once
        check_target(out, overwrite=True, field="out")
    check_int(count, "count", 1, MAX_PUZZLES)
    check_int(jobs, "jobs", 1, MAX_JOBS)
    check_int(max_deals, "max-deals", 1, MAX_PUZZLE_DEALS)
    if seed is not None:
        check_seed(seed)
    if seed is None:
        seed = _random.SystemRandom().randrange(2**32)
        note(_("seed {seed}").format(seed=seed))
    if out is None and sys.stdout.isatty():  # JSON is for programs: a person gets a file to play
        out = str(fresh_name(f"puzzles-{seed}"))
        check_target(out, field="out")
    update, stop = _progress_bar(count)
    tried = 0

    def progress(found: int, deals: int) -> None:
        """Keep the count of deals tried for the summary and move the bar."""
        nonlocal tried
        tried = deals
        update(found, deals)

    t0 = time.perf_counter()
    try:
        with on_cluster(scheduler, "puzzles", warm=kind != "reference", bar=False):  # the puzzles' bar
            found = P.generate(count, opts, seed, kind, progress=progress, max_attempts=max_deals, jobs=jobs)
    finally:
        stop()
    secs = time.perf_counter() - t0
    meta = {
        "seed": seed,
        "count": count,
        "min_cards": min_cards,
        "max_cards": max_cards,
        "difficulty": difficulty,
        "theme": theme,
        "goal": goal,
        "deals_tried": tried,
    }
    text = P.dumps(found, meta)
    if out is not None:
        try:  # a unique temporary name beside it, checked again at the end (safe_write)
            write_atomic(out, text, overwrite=force, field="out", hint=_("use --force to overwrite it"))
        except NotationError as err:  # the work is not lost: the collection goes to stdout instead
            sys.stdout.write(text)
            sys.stdout.flush()
            raise NotationError(
                "out", _("{fault}; the collection is written on standard output instead").format(fault=err.message)
            ) from None
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    note(generate_summary(len(found), count, max_deals, P.summary_counts(found)["difficulty"], tried, secs))
    if not found:
        return
    if out is not None:
        note(_("saved to {path}; play them: lukfu puzzle play {path}").format(path=out))
    else:
        note(_("to play them, save them to a file (--out FILE) and run: lukfu puzzle play FILE"))


# ---------------------------------------------------------------- solve


def _position_or_file(
    source: str, pid: str | None, goal: str | None, kind: str
) -> list[tuple[Puzzle | None, Position, str]]:
    """``(stored puzzle or None, position, goal)`` for each puzzle to solve. A SOURCE with spaces
    that names no file is a position (its goal from --goal, else chosen: win/stop, then most); otherwise a file."""
    from lukfu_solver import puzzles as P
    from lukfu_solver.puzzles.format import check_puzzle_size

    if " " in source.strip() and not os.path.exists(source):
        if pid is not None:
            raise bad_usage("id", _("--id applies to a puzzle FILE, not a POSITION"))
        pos = Position.parse(source)
        check_puzzle_size(pos, "position")
        return [(None, pos, P.choose_goal(pos, goal, kind))]
    if goal is not None:
        raise bad_usage("goal", _("--goal applies to a POSITION; a puzzle FILE says its goal"))
    return [(p, p.pos(), p.goal) for p in load_selected(source, pid)]


def report_data(rep: SolveReport, puzzle: Puzzle | None) -> dict[str, Any]:
    """The solve report as the JSON object of ``puzzle solve --json`` (and the text report's
    input): the library's report with every move told in words and narrated trick by trick."""
    from lukfu_solver import puzzles as P

    an = rep.analysis
    pos = an.position
    data: dict[str, Any] = {
        "id": puzzle.id if puzzle is not None else None,
        "position": str(pos),
        "goal": an.goal,
        "side": an.side,
        "question": P.question(an.goal, pos),
        "ok": an.ok,
        "failure": an.failure,
        "value": an.value,
    }
    data["steps"] = [
        {"move": str(st.move), "seat": st.seat, "role": st.role, "words": move_words(p, st.move)}
        for p, st in P.line_positions(an)
    ]
    data["solution"] = [str(st.move) for st in an.steps]
    data["continuation"] = [str(m) for m in rep.continuation]
    data["narration"] = narrate_pv(pos, an.solution + rep.continuation) if an.steps else []
    data["alternatives"] = [
        {
            "move": str(alt.move),
            "value": alt.value,
            "keeps_goal": alt.keeps_goal,
            "why": alt.why,
            "refutation": [str(x) for x in alt.refutation],
            "narration": narrate_pv(pos, [alt.move, *alt.refutation]),
        }
        for alt in rep.alternatives
    ]
    data["rating"] = an.rating.to_dict() if an.rating else None
    data["difficulty"] = an.rating.tier if an.rating else None
    data["themes"] = an.themes
    data["nodes"] = an.nodes
    return data


def print_solve_report(data: dict[str, Any], puzzle: Puzzle | None) -> None:
    """The Rich report of ``puzzle solve``."""
    console = stdout_console()
    title = _("Puzzle {id}").format(id=data["id"]) if data["id"] else _("Position")
    if puzzle is not None and puzzle.title:
        title += f": {_title_text(puzzle.title)}"
    console.print(Hanging(Text(title, style="bold")))
    console.print(position_renderable(Position.parse(data["position"])))
    console.print(Hanging(Text(_("Question: {question}").format(question=data["question"]), style="bold")))
    if data["value"] is not None:
        value = _("Value: {value} (the caller's net points under best play)").format(value=signed(data["value"]))
        console.print(Hanging(Text(value)))
    if not data["ok"]:
        console.print(Hanging(Text(_("Not a valid puzzle: {why}").format(why=data["failure"]), style="bold red")))
    if data["steps"]:
        head = _("Solution (★ a decision: the only move that keeps the goal):")
        console.print(Hanging(Text(head, style="bold")))
        for i, st in enumerate(data["steps"], 1):
            mark = {"solve": "★", "forced": "·", "defend": " "}[st["role"]]
            note_ = {"solve": "", "forced": _("  (forced)"), "defend": _("  (best defence)")}[st["role"]]
            console.print(Hanging(f" {i:>2}. {mark} {st['words']}{note_}", hang=6))
        console.print(Hanging(Text(_("The line and best play after it, trick by trick:"), style="bold")))
        for line in data["narration"]:
            console.print(Hanging(line, indent=3, hang=2))
    if data["alternatives"]:
        console.print(Hanging(Text(_("Other first moves:"), style="bold")))
        for alt in data["alternatives"]:
            words = (
                _("{move}: value {value}, keeps the goal too ({why})")
                if alt["keeps_goal"]
                else _("{move}: value {value}, fails ({why})")
            )
            line = words.format(move=alt["move"], value=signed(alt["value"]), why=alt["why"])
            console.print(Hanging(line, indent=1, hang=2))
            for line in alt["narration"]:
                console.print(Hanging(line, indent=5, hang=2, style="dim"))
    if data["rating"]:
        console.print(Hanging(Text(_("Difficulty: ") + rating_text(data["rating"], data["difficulty"]))))
    console.print(Hanging(Text(_("Themes: ") + themes_text(data["themes"]))))
    console.print(Hanging(Text(_("Positions searched to verify: {n}").format(n=number(data["nodes"])), style="dim")))


def _title_text(title: str) -> str:
    """A puzzle title in the language in use (the puzzles library is imported when needed)."""
    from lukfu_solver.puzzles.words import title_text

    return title_text(title)


def _theme_text(theme: str) -> str:
    """A theme in the language in use."""
    from lukfu_solver.puzzles.words import theme_text

    return theme_text(theme)


def themes_text(themes: list[str]) -> str:
    """The themes in the language in use, ``none`` for none."""
    return ", ".join(_theme_text(t) for t in themes) or _("none")


@app.command("solve", cls=LukfuCommand, context_settings=POSITION_ARGS)
def solve(
    source: Annotated[str, typer.Argument(metavar="FILE|POSITION", help=SOURCE_HELP)],
    pid: IdOpt = None,
    goal: Annotated[
        str | None, typer.Option("--goal", metavar="GOAL", help="For a POSITION: win, stop or most (else chosen).")
    ] = None,
    json_: JsonOpt = False,
    solver: SolverOpt = "compiled",
) -> None:
    """Solve puzzles: the solution line (decisions marked), best play after it, and every other
    first move with its value and why it fails (its refutation line).

    SOURCE is a puzzle file (every puzzle, or --id ID) or a position line (with --goal, or the
    goal chosen: win for the caller to move, stop for a non-caller, most when that side wins
    with several moves). --json: one object a puzzle, one a line: `{"id", "position", "goal",
    "side", "question", "ok", "failure", "value", "steps", "solution", "continuation",
    "narration", "alternatives", "rating", "difficulty", "themes", "nodes"}`.
    """
    from lukfu_solver import puzzles as P

    kind = solver_kind(solver)
    for puzzle, pos, g in _position_or_file(source, pid, goal, kind):
        data = report_data(P.solve_report(pos, g, puzzle, kind), puzzle)
        if json_:
            emit_json(data)
        else:
            print_solve_report(data, puzzle)


# ---------------------------------------------------------------- check


@app.command("check", cls=LukfuCommand)
def check(
    file: Annotated[str, typer.Argument(metavar="FILE", help=FILE_HELP)],
    pid: IdOpt = None,
    json_: JsonOpt = False,
    solver: SolverOpt = "compiled",
) -> None:
    """Re-verify every puzzle of FILE: each step of the line (exactly one move keeps the goal at
    every decision; defence moves are best replies), at least two decisions, no claim at the
    start, the value, every first move's value, the rating and tier, and the themes.

    Prints one line a puzzle (`ok` or `FAIL` with the reasons) and a summary; exit 1 when any
    puzzle fails, 0 when all pass, 2 for bad input. --json: `{"file", "count", "passed",
    "failed", "results": [{"id", "ok", "failures", "nodes", "ms"}]}`.
    """
    from lukfu_solver import puzzles as P

    from .progress import with_progress

    kind = solver_kind(solver)
    puzzles = load_selected(file, pid)
    results = []
    for puzzle in with_progress(puzzles, len(puzzles), _("checking")):
        t0 = time.perf_counter()
        res = P.check(puzzle, kind)
        ms = (time.perf_counter() - t0) * 1000
        results.append(
            {"id": puzzle.id, "ok": res.ok, "failures": res.failures, "nodes": res.analysis.nodes, "ms": round(ms, 1)}
        )
    failed = [r for r in results if not r["ok"]]
    if json_:
        emit_json(
            {
                "file": file,
                "count": len(results),
                "passed": len(results) - len(failed),
                "failed": len(failed),
                "results": results,
            }
        )
    else:
        for r in results:
            if r["ok"]:
                line = _("ok    {id}  ({nodes} positions, {ms} ms)").format(
                    id=r["id"], nodes=number(r["nodes"]), ms=number(r["ms"])
                )
            else:
                line = _("FAIL  {id}: {failures}").format(id=r["id"], failures=one_line("; ".join(r["failures"])))
            sys.stdout.write(line + "\n")
        sys.stdout.write(check_summary(len(results), len(failed)) + "\n")
        sys.stdout.flush()
    if failed:
        raise typer.Exit(1)


# ---------------------------------------------------------------- show


def puzzle_list_table(puzzles: list[Puzzle]) -> Table:
    """One row a puzzle: id, difficulty, goal, cards a hand, themes, title."""
    from lukfu_solver.puzzles.words import goal_word, is_generated_title, tier_text

    titled = any(p.title and not is_generated_title(p.title) for p in puzzles)  # else the title repeats theme and goal
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(pgettext("column", "id"), no_wrap=True)  # an id is typed back: never cut, never split
    table.add_column(pgettext("column", "difficulty"), no_wrap=True)
    table.add_column(pgettext("column", "goal"), ratio=1)
    table.add_column(pgettext("column", "cards"), justify="right")
    table.add_column(pgettext("column", "themes"), ratio=1)
    if titled:
        table.add_column(pgettext("column", "title"), ratio=1)
    for p in puzzles:
        themes = ", ".join(_theme_text(t) for t in p.themes) or "-"
        row = [p.id, tier_text(p.difficulty), goal_word(p.goal), str(p.pos().cards_per_hand()), themes]
        table.add_row(*row, *([_title_text(p.title or "")] if titled else []))
    return table


@app.command("show", cls=LukfuCommand)
def show(
    file: Annotated[str, typer.Argument(metavar="FILE", help=FILE_HELP)],
    pid: IdOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Show puzzles without their solutions: with --id the puzzle (position, question, themes,
    difficulty), else a table of every puzzle of FILE.

    --json: with --id `{"puzzle", "position"}` (the stored puzzle, solution included, and the
    position's facts as in `lukfu show --json`); without, `{"count", "puzzles"}`.
    """
    puzzles = load_selected(file, pid)
    if pid is None:
        if json_:
            emit_json({"count": len(puzzles), "puzzles": [p.to_dict() for p in puzzles]})
        else:
            stdout_console().print(puzzle_list_table(puzzles))
            sys.stdout.write(_("{n} puzzles").format(n=len(puzzles)) + "\n")
        return
    (puzzle,) = puzzles
    pos = puzzle.pos()
    if json_:
        emit_json({"puzzle": puzzle.to_dict(), "position": pos.to_json()})
        return
    console = stdout_console()
    console.print(Hanging(Text(puzzle_head(puzzle), style="bold")))
    console.print(position_renderable(pos))
    console.print(Hanging(Text(_("Question: {question}").format(question=puzzle.question), style="bold")))
    console.print(Hanging(Text(_("Difficulty: ") + rating_text(puzzle.rating, puzzle.difficulty))))
    console.print(Hanging(Text(_("Themes: ") + themes_text(puzzle.themes))))




# ---------------------------------------------------------------- play

@app.command("play", cls=LukfuCommand)
def play(
    file: Annotated[str, typer.Argument(metavar="FILE", help=FILE_HELP)],
    pid: IdOpt = None,
    solver: SolverOpt = "compiled",
) -> None:
    """Play puzzles: enter the solving side's moves (NOTATION form or a number from the menu);
    the engine answers with the defence's best replies, explains a wrong move with its
    refutation, and gives a hint on request ('hint'). Without --id every puzzle of FILE in turn.

    Reads commands from standard input, a terminal or a pipe; the end of input stops cleanly.
    """
    from .puzzle_play import PlaySession

    kind = solver_kind(solver)
    puzzles = load_selected(file, pid)
    session = PlaySession(tolerant_stdin(), sys.stdout, kind)
    solved = 0
    for i, puzzle in enumerate(puzzles):
        if i:
            session.say()
        outcome = session.play(puzzle)
        solved += outcome == "solved"
        if outcome in ("quit", "eof"):
            break
    n = len(puzzles)
    session.say(
        ngettext("Solved {solved} of {n} puzzle.", "Solved {solved} of {n} puzzles.", n).format(solved=solved, n=n)
    )
