"""``puzzle``: generate, solve, check, show and play Luk Fu puzzles (``lukfu_solver.puzzles``).

The puzzle library (and through it the search) is imported inside the commands, so ``lukfu
--help`` stays instant. Every definition (goals, uniqueness, rating, themes, file format) is in
``puzzles/README.md``.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TextIO

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from lukfu_solver.cards import SUIT_NAMES, format_cards
from lukfu_solver.errors import NotationError
from lukfu_solver.plays import CLAIM, DISCARD, RUN, SET, SINGLE, Play
from lukfu_solver.position import Position

from .common import bad_usage, emit_json, note, one_line, stderr_console, stdout_console
from .options import JsonOpt
from .render import position_data, position_renderable, result_line, signed
from .solve_cmd import _play_words, narrate_pv

if TYPE_CHECKING:
    from lukfu_solver.puzzles import Analysis, Puzzle, SolverFactory

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    help="Puzzles: perfect-information positions with a question and exactly one right answer "
    "(puzzles/README.md): generate, solve, check, show and play them.",
)

IdOpt = Annotated[str | None, typer.Option("--id", metavar="ID", help="Only the puzzle with this id.")]
SolverOpt = Annotated[
    str,
    typer.Option("--solver", metavar="NAME", help="Exact solver: python (default), fast (compiled) or auto."),
]
FILE_HELP = "A puzzle file (JSON: a collection, a list of puzzles or one puzzle) or a directory of them."
POSITION_ARGS = {"ignore_unknown_options": True}


# ---------------------------------------------------------------- shared


def load_source(path: str) -> list[Puzzle]:
    """The puzzles of a file, or of every ``*.json`` file of a directory."""
    from lukfu_solver import puzzles as P

    p = Path(path)
    puzzles = P.load_dir(p) if p.is_dir() else P.load(p)
    if not puzzles:
        raise NotationError("file", f"{path}: no puzzles")
    return puzzles


def select(puzzles: list[Puzzle], pid: str | None) -> list[Puzzle]:
    """All the puzzles, or the one with id ``pid`` (NotationError when there is none)."""
    if pid is None:
        return puzzles
    chosen = [p for p in puzzles if p.id == pid]
    if not chosen:
        raise NotationError("id", f"no puzzle {pid!r} in the file ({len(puzzles)} puzzles)")
    return chosen


def words(pos: Position, move: Play) -> str:
    """What the seat to move does with ``move``, in the words of ``lukfu solve``'s narration."""
    if move.kind == CLAIM:
        s = pos.to_move
        return f"seat {s} claims (T = {pos.fu[s]} fu + {pos.old_cards(s).bit_count()} Old cards)"
    return _play_words(pos, move)


def move_kind(pos: Position, move: Play) -> str:
    """A hint's description of a move: its shape and suit, not its cards."""
    if move.kind == CLAIM:
        return "a claim"
    if move.kind == DISCARD:
        return f"a discard of {move.size} card{'s' if move.size > 1 else ''}"
    what = {SINGLE: "a single", SET: "a set", RUN: "a run"}[move.kind]
    if move.kind in (SINGLE, RUN):
        what += f" of {SUIT_NAMES[move.suit]}"
    return what + (" to beat" if pos.trick else " to lead")


def line_roles(an: Analysis) -> list[tuple[Position, Any]]:
    """Each step of the line with the position before it."""
    p = an.position.copy()
    out = []
    for st in an.steps:
        out.append((p.copy(), st))
        p.push(st.move)
    return out


def end_of_line(an: Analysis) -> Position:
    """The position after the last move of the line."""
    p = an.position.copy()
    for st in an.steps:
        p.push(st.move)
    return p


def refutation(solver: Any, pos: Position, move: Play) -> tuple[int, list[Play]]:
    """The value after ``move`` and the best play that follows it (the refutation line)."""
    child = pos.copy()
    child.push(move)
    if child.outcome is not None:
        return child.outcome.points[child.caller], []
    res = solver.solve(child)
    return res.value, list(res.pv)


def goal_failure(goal: str, value: int, target: int) -> str:
    """Why a value misses the goal, in words."""
    if goal == "win":
        return f"the caller gets {signed(value)}: no win"
    if goal == "stop":
        return f"the caller gets {signed(value)}: the caller wins"
    return f"{signed(value)} instead of {signed(target)}"


def rating_text(rating: dict[str, int], tier: str) -> str:
    """The rating with its parts."""
    return (
        f"{tier} (score {rating.get('score')}: {rating.get('decisions')} decisions, "
        f"{rating.get('tempting')} tempting, {rating.get('misled')} misled, {rating.get('branching')} branching)"
    )


def make_factory(name: str) -> SolverFactory:
    from lukfu_solver import puzzles as P

    return P.solver_factory(name)


# ---------------------------------------------------------------- generate


def _progress_bar(count: int) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """A Rich progress bar on stderr (only when it is a terminal): (update(found, tried), stop())."""
    if not sys.stderr.isatty():
        return (lambda found, tried: None), (lambda: None)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("puzzles"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[tried]} deals"),
        TimeElapsedColumn(),
        console=stderr_console(),
        transient=True,
    )
    task = bar.add_task("puzzles", total=count, tried=0)
    bar.start()

    def update(found: int, tried: int) -> None:
        bar.update(task, completed=found, tried=tried)

    return update, bar.stop


def _ignore_sigint() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def iter_found(opts: Any, seed: int, factory: SolverFactory, jobs: int) -> Iterator[Puzzle | None]:
    """One result a deal of :func:`attempt_seeds` in order (a puzzle or None), on ``jobs``
    processes when more than one; the order, hence the output, does not depend on ``jobs``."""
    from lukfu_solver import puzzles as P

    seeds = P.attempt_seeds(seed)
    work = functools.partial(P.first_puzzle, opts=opts, factory=factory)
    if jobs == 1:
        for s in seeds:
            yield work(s)
        return
    import multiprocessing

    pool = multiprocessing.get_context("spawn").Pool(jobs, initializer=_ignore_sigint)
    try:
        while True:
            batch = [next(seeds) for _ in range(4 * jobs)]
            yield from pool.imap(work, batch)
    finally:
        pool.terminate()
        pool.join()


@app.command("generate")
def generate(
    count: Annotated[int, typer.Option("--count", metavar="N", help="Puzzles to generate.")] = 10,
    min_cards: Annotated[int, typer.Option("--min-cards", metavar="A", help="Fewest cards a hand (3-7).")] = 3,
    max_cards: Annotated[int, typer.Option("--max-cards", metavar="B", help="Most cards a hand (3-7).")] = 6,
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
    out: Annotated[str | None, typer.Option("--out", metavar="FILE", help="Write the collection to FILE.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --out file.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", metavar="N", help="Search on N processes (same output).")] = 1,
    max_deals: Annotated[
        int, typer.Option("--max-deals", metavar="N", help="Give up after N deals (a note says how many were found).")
    ] = 100_000,
    solver: SolverOpt = "python",
) -> None:
    """Generate verified puzzles from seeded deals and write a collection (JSON, puzzles/README.md).

    Each deal is played at random down to a size drawn from [A, B], then by sensible play (best
    exact value, random ties); every position on the way with A-B cards a hand is tried as a puzzle,
    and the first that passes the uniqueness checks and the filters is kept (one a deal). The output
    depends only on the options and --seed (never on --jobs or --solver). Without --out the
    collection goes to stdout; a progress bar and a summary go to stderr.
    """
    import random as _random

    from lukfu_solver import puzzles as P

    if count < 1:
        raise bad_usage("count", f"must be at least 1, got {count}")
    if jobs < 1:
        raise bad_usage("jobs", f"must be at least 1, got {jobs}")
    if max_deals < 1:
        raise bad_usage("max-deals", f"must be at least 1, got {max_deals}")
    opts = P.GenOptions(min_cards, max_cards, difficulty, theme, goal)
    opts.validate()
    factory = make_factory(solver)
    if out is not None and os.path.exists(out) and not force:
        raise bad_usage("out", f"{out} exists: use --force to overwrite it")
    if seed is None:
        seed = _random.SystemRandom().randrange(2**32)
        note(f"seed {seed}")
    update, stop = _progress_bar(count)
    found: list[Puzzle] = []
    tried = 0
    t0 = time.perf_counter()
    try:
        for result in iter_found(opts, seed, factory, jobs):
            tried += 1
            if result is not None:
                found.append(result)
            update(len(found), tried)
            if len(found) >= count or tried >= max_deals:
                break
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
        tmp = Path(out).with_name(Path(out).name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, out)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    tiers = P.summary_counts(found)["difficulty"]
    short = "" if len(found) >= count else f" (only {len(found)} of {count}: --max-deals {max_deals} reached)"
    note(
        f"generated {len(found)} puzzles{short}: "
        + ", ".join(f"{n} {t}" for t, n in tiers.items())
        + f"; {tried} deals in {secs:.1f} s"
    )


# ---------------------------------------------------------------- solve


def _position_or_file(
    source: str, pid: str | None, goal: str | None, factory: SolverFactory
) -> list[tuple[Puzzle | None, Position, str]]:
    """``(stored puzzle or None, position, goal)`` for each puzzle to solve. A SOURCE with spaces
    that names no file is a position (its goal from --goal, else chosen: win/stop, then most); otherwise a file."""
    from lukfu_solver import puzzles as P

    if " " in source.strip() and not os.path.exists(source):
        if pid is not None:
            raise bad_usage("id", "--id applies to a puzzle FILE, not a POSITION")
        pos = Position.parse(source)
        if goal is None:
            goal = pick_goal(pos, factory)
        elif goal not in P.GOALS:
            raise NotationError("goal", f"expected one of {', '.join(P.GOALS)}, got {goal!r}")
        return [(None, pos, goal)]
    if goal is not None:
        raise bad_usage("goal", "--goal applies to a POSITION; a puzzle FILE says its goal")
    return [(p, p.pos(), p.goal) for p in select(load_source(source), pid)]


def pick_goal(pos: Position, factory: SolverFactory) -> str:
    """The goal to ask of a bare position: win (caller to move) or stop (a non-caller), unless
    the solving side wins anyway and only the most points can be unique."""
    if pos.is_over:
        raise NotationError("position", "the deal has ended: no puzzle")
    res = factory().solve(pos, all_moves=True)
    vals = list(res.moves.values())
    if pos.to_move == pos.caller:
        return "most" if res.value is not None and res.value > 0 and sum(v > 0 for v in vals) > 1 else "win"
    return "most" if res.value is not None and res.value < 0 and sum(v <= 0 for v in vals) > 1 else "stop"


def solve_report(puzzle: Puzzle | None, pos: Position, goal: str, factory: SolverFactory) -> dict[str, Any]:
    """The analysis of one puzzle as data: the line with roles, the continuation, every other
    first move with its value and refutation, the rating and themes."""
    from lukfu_solver import puzzles as P

    solver = factory()
    ctx = P.SolveContext(factory, solver=solver)
    line = puzzle.line() if puzzle is not None else None
    an = P.analyse(pos, goal, line=line, context=ctx)
    data: dict[str, Any] = {
        "id": puzzle.id if puzzle is not None else None,
        "position": str(pos),
        "goal": goal,
        "side": an.side,
        "question": P.question(goal, pos),
        "ok": an.ok,
        "failure": an.failure,
        "value": an.value,
    }
    data["steps"] = [
        {"move": str(st.move), "seat": st.seat, "role": st.role, "words": words(p, st.move)} for p, st in line_roles(an)
    ]
    data["solution"] = [str(st.move) for st in an.steps]
    cont: list[Play] = []
    end = end_of_line(an)
    if an.steps and not end.is_over:
        cont = list(solver.solve(end).pv)
    data["continuation"] = [str(m) for m in cont]
    data["narration"] = narrate_pv(pos, an.solution + cont) if an.steps else []
    right = an.steps[0].move if an.steps and an.ok else None
    alts = []
    for m in sorted(an.first_moves, key=Play.sort_key):
        if m == right:
            continue
        v, pv = refutation(solver, pos, m)
        keeps = an.value is not None and P.keeps_goal(goal, v, an.value)
        alts.append(
            {
                "move": str(m),
                "value": v,
                "keeps_goal": keeps,
                "why": "also keeps the goal" if keeps else goal_failure(goal, v, an.value or 0),
                "refutation": [str(x) for x in pv],
                "narration": narrate_pv(pos, [m, *pv]),
            }
        )
    data["alternatives"] = alts
    data["rating"] = an.rating.to_dict() if an.rating else None
    data["difficulty"] = an.rating.tier if an.rating else None
    data["themes"] = an.themes
    data["nodes"] = an.nodes
    return data


def print_solve_report(data: dict[str, Any], puzzle: Puzzle | None) -> None:
    """The Rich report of ``puzzle solve``."""
    console = stdout_console()
    title = f"Puzzle {data['id']}" if data["id"] else "Position"
    if puzzle is not None and puzzle.title:
        title += f": {puzzle.title}"
    console.print(Text(title, style="bold"), soft_wrap=True)
    console.print(position_renderable(Position.parse(data["position"])))
    console.print(Text(f"Question: {data['question']}", style="bold"), soft_wrap=True)
    if data["value"] is not None:
        console.print(
            Text(f"Value: {signed(data['value'])} (the caller's net points under best play, M1)"), soft_wrap=True
        )
    if not data["ok"]:
        console.print(Text(f"Not a valid puzzle: {data['failure']}", style="bold red"), soft_wrap=True)
    if data["steps"]:
        console.print(Text("Solution (★ a decision: the only move that keeps the goal):", style="bold"), soft_wrap=True)
        for i, st in enumerate(data["steps"], 1):
            mark = {"solve": "★", "forced": "·", "defend": " "}[st["role"]]
            note_ = {"solve": "", "forced": "  (forced)", "defend": "  (best defence)"}[st["role"]]
            console.print(Text(f" {i:>2}. {mark} {st['words']}{note_}"), soft_wrap=True)
        console.print(Text("The line and best play after it, trick by trick:", style="bold"), soft_wrap=True)
        for line in data["narration"]:
            console.print(Text("   " + line), soft_wrap=True)
    if data["alternatives"]:
        console.print(Text("Other first moves:", style="bold"), soft_wrap=True)
        for alt in data["alternatives"]:
            tag = "keeps the goal too" if alt["keeps_goal"] else "fails"
            console.print(Text(f" {alt['move']}: value {signed(alt['value'])}, {tag} ({alt['why']})"), soft_wrap=True)
            for line in alt["narration"]:
                console.print(Text("     " + line, style="dim"), soft_wrap=True)
    if data["rating"]:
        console.print(Text("Difficulty: " + rating_text(data["rating"], data["difficulty"])), soft_wrap=True)
    console.print(Text("Themes: " + (", ".join(data["themes"]) or "none")), soft_wrap=True)
    console.print(Text(f"Verification nodes: {data['nodes']:,}", style="dim"), soft_wrap=True)


@app.command("solve", context_settings=POSITION_ARGS)
def solve(
    source: Annotated[str, typer.Argument(metavar="FILE|POSITION", help=FILE_HELP + " Or a position line, quoted.")],
    pid: IdOpt = None,
    goal: Annotated[
        str | None, typer.Option("--goal", metavar="GOAL", help="For a POSITION: win, stop or most (else chosen).")
    ] = None,
    json_: JsonOpt = False,
    solver: SolverOpt = "python",
) -> None:
    """Solve puzzles: the solution line (decisions marked), best play after it, and every other
    first move with its value and why it fails (its refutation line).

    SOURCE is a puzzle file (every puzzle, or --id ID) or a position line (with --goal, or the
    goal chosen: win for the caller to move, stop for a non-caller, most when that side wins
    with several moves). --json: one object a puzzle, one a line: `{"id", "position", "goal",
    "side", "question", "ok", "failure", "value", "steps", "solution", "continuation",
    "narration", "alternatives", "rating", "difficulty", "themes", "nodes"}`.
    """
    factory = make_factory(solver)
    for puzzle, pos, g in _position_or_file(source, pid, goal, factory):
        data = solve_report(puzzle, pos, g, factory)
        if json_:
            emit_json(data)
        else:
            print_solve_report(data, puzzle)


# ---------------------------------------------------------------- check


@app.command("check")
def check(
    file: Annotated[str, typer.Argument(metavar="FILE", help=FILE_HELP)],
    pid: IdOpt = None,
    json_: JsonOpt = False,
    solver: SolverOpt = "python",
) -> None:
    """Re-verify every puzzle of FILE: each step of the line (exactly one move keeps the goal at
    every decision; defence moves are best replies), at least two decisions, no claim at the
    start, the value, every first move's value, the rating and tier, and the themes.

    Prints one line a puzzle (`ok` or `FAIL` with the reasons) and a summary; exit 1 when any
    puzzle fails, 0 when all pass, 2 for bad input. --json: `{"file", "count", "passed",
    "failed", "results": [{"id", "ok", "failures", "nodes", "ms"}]}`.
    """
    from lukfu_solver import puzzles as P

    from .batch import with_progress

    factory = make_factory(solver)
    puzzles = select(load_source(file), pid)
    results = []
    for puzzle in with_progress(puzzles, len(puzzles), "checking"):
        t0 = time.perf_counter()
        res = P.check(puzzle, factory)
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
                sys.stdout.write(f"ok    {r['id']}  ({r['nodes']:,} nodes, {r['ms']:.0f} ms)\n")
            else:
                sys.stdout.write(f"FAIL  {r['id']}: {one_line('; '.join(r['failures']))}\n")
        sys.stdout.write(f"{len(results)} puzzles: {len(results) - len(failed)} passed, {len(failed)} failed\n")
        sys.stdout.flush()
    if failed:
        raise typer.Exit(1)


# ---------------------------------------------------------------- show


def puzzle_list_table(puzzles: list[Puzzle]) -> Table:
    """One row a puzzle: id, difficulty, goal, cards a hand, themes, title."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for col in ("id", "difficulty", "goal", "cards", "themes", "title"):
        table.add_column(col)
    for p in puzzles:
        table.add_row(
            p.id, p.difficulty, p.goal, str(p.pos().cards_per_hand()), ", ".join(p.themes) or "-", p.title or ""
        )
    return table


@app.command("show")
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
    puzzles = select(load_source(file), pid)
    if pid is None:
        if json_:
            emit_json({"count": len(puzzles), "puzzles": [p.to_dict() for p in puzzles]})
        else:
            stdout_console().print(puzzle_list_table(puzzles))
            sys.stdout.write(f"{len(puzzles)} puzzles\n")
        return
    (puzzle,) = puzzles
    pos = puzzle.pos()
    if json_:
        emit_json({"puzzle": puzzle.to_dict(), "position": position_data(pos)})
        return
    console = stdout_console()
    console.print(
        Text(f"Puzzle {puzzle.id}" + (f": {puzzle.title}" if puzzle.title else ""), style="bold"), soft_wrap=True
    )
    console.print(position_renderable(pos))
    console.print(Text(f"Question: {puzzle.question}", style="bold"), soft_wrap=True)
    console.print(Text("Difficulty: " + rating_text(puzzle.rating, puzzle.difficulty)), soft_wrap=True)
    console.print(Text("Themes: " + (", ".join(puzzle.themes) or "none")), soft_wrap=True)


# ---------------------------------------------------------------- play


PLAY_HELP = (
    "Enter a move as written in NOTATION.md (S7, C5S5M5, xC2M4, claim) or its number in the menu; "
    "'hint' for a hint (twice: the move), 'show' for the table, 'skip' for the next puzzle, 'quit' to stop."
)


class PlaySession:
    """The interactive loop of ``puzzle play``: reads commands from ``stream`` (a terminal or a
    pipe), writes plain lines to ``out``; the engine plays the defence's best replies."""

    def __init__(self, stream: TextIO, out: TextIO, factory: SolverFactory) -> None:
        self.stream = stream
        self.out = out
        self.factory = factory
        self.eof = False

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self) -> str | None:
        """The next command, or None at the end of input."""
        self.out.write("> ")
        self.out.flush()
        line = self.stream.readline()
        if not line:
            self.out.write("\n")
            self.eof = True
            return None
        return line.strip()

    def board(self, pos: Position) -> None:
        stdout_console().print(position_renderable(pos))

    def state(self, pos: Position) -> str:
        """One line: hands, fu and the trick so far."""
        hands = " · ".join(f"seat {s} {format_cards(pos.hands[s])}" for s in range(3))
        fu = ",".join(str(f) for f in pos.fu)
        trick = ", ".join(f"seat {(pos.leader + i) % 3} {p}" for i, p in enumerate(pos.trick)) or "none"
        return f"{hands} · fu {fu} · trick: {trick}"

    def play(self, puzzle: Puzzle) -> str:
        """Play one puzzle; returns ``solved``, ``skipped``, ``quit``, ``eof`` or ``invalid``."""
        from lukfu_solver import puzzles as P

        pos = puzzle.pos()
        solver = self.factory()
        ctx = P.SolveContext(self.factory, solver=solver)
        an = P.analyse(pos, puzzle.goal, line=puzzle.line(), context=ctx)
        self.say(f"Puzzle {puzzle.id}" + (f": {puzzle.title}" if puzzle.title else "") + f" ({puzzle.difficulty})")
        if not an.ok:
            self.say(f"This puzzle does not verify ({an.failure}); skipped.")
            return "invalid"
        self.board(pos)
        self.say(f"Question: {puzzle.question}")
        self.say(PLAY_HELP)
        p = pos.copy()
        mistakes = 0
        for st in an.steps:
            if st.role != P.SOLVE:
                tag = " (forced)" if st.role == P.FORCED else ""
                self.say(f"  {words(p, st.move)}{tag}")
                self._push(p, st.move)
                continue
            menu = sorted(p.legal_moves(), key=Play.sort_key)
            self.say(f"Your move, seat {p.to_move}. {self.state(p)}")
            self.say("  " + "  ".join(f"{i}) {m}" for i, m in enumerate(menu, 1)))
            hints = 0
            while True:
                cmd = self.ask()
                if cmd is None:
                    return "eof"
                low = cmd.lower()
                if not cmd:
                    continue
                if low in ("quit", "q", "exit"):
                    return "quit"
                if low == "skip":
                    self.say(f"Skipped. The solution: {' '.join(puzzle.solution)}")
                    return "skipped"
                if low in ("help", "?"):
                    self.say(PLAY_HELP)
                    continue
                if low in ("show", "board"):
                    self.board(p)
                    self.say("  " + "  ".join(f"{i}) {m}" for i, m in enumerate(menu, 1)))
                    continue
                if low == "hint":
                    hints += 1
                    if hints == 1:
                        self.say(f"Hint: the move is {move_kind(p, st.move)}.")
                    else:
                        self.say(f"Hint: play {st.move}.")
                    continue
                move = self._parse(cmd, menu, p)
                if move is None:
                    continue
                if move == st.move:
                    self.say(f"Correct: {words(p, move)}.")
                    break
                mistakes += 1
                self._explain(solver, p, move, puzzle.goal, an.value or 0, st.values.get(move))
            self._push(p, st.move)
        self.say(f"Solved{' with ' + str(mistakes) + ' wrong tries' if mistakes else ''}!")
        if not p.is_over:
            cont = list(solver.solve(p).pv)
            if cont:
                self.say("Best play from here:")
                for line in narrate_pv(p, cont):
                    self.say("  " + line)
        elif p.outcome is not None:
            self.say(result_line(p.outcome))
        return "solved"

    def _parse(self, cmd: str, menu: list[Play], pos: Position) -> Play | None:
        """The move a command names (a number or NOTATION), or None after saying what is wrong."""
        if cmd.isascii() and cmd.isdigit():
            n = int(cmd)
            if 1 <= n <= len(menu):
                return menu[n - 1]
            self.say(f"No move {n}: the menu has 1-{len(menu)}.")
            return None
        try:
            move = Play.parse(cmd)
        except NotationError as err:
            self.say(f"Not a move: {err}. Type 'help' for help.")
            return None
        if not pos.is_legal(move):
            self.say(f"{move} is not legal here: {pos.why_illegal(move)}.")
            return None
        return move

    def _explain(self, solver: Any, pos: Position, move: Play, goal: str, target: int, value: int | None) -> None:
        """Why a wrong move fails: its value and the refutation line."""
        v, pv = refutation(solver, pos, move)
        if value is not None:
            v = value
        self.say(f"{move} fails: {goal_failure(goal, v, target)}. The refutation:")
        for line in narrate_pv(pos, [move, *pv]):
            self.say("  " + line)
        self.say("Try again.")

    def _push(self, pos: Position, move: Play) -> None:
        before = pos.fu[:]
        in_trick = bool(pos.trick)
        pos.push(move)
        if move.kind == CLAIM and pos.outcome is not None:
            self.say("  " + result_line(pos.outcome))
        elif in_trick and not pos.trick:
            w = pos.to_move
            self.say(f"  seat {w} wins the trick: {pos.fu[w] - before[w]} fu (fu {','.join(map(str, pos.fu))})")
            if pos.outcome is not None:
                self.say("  " + result_line(pos.outcome))


@app.command("play")
def play(
    file: Annotated[str, typer.Argument(metavar="FILE", help=FILE_HELP)],
    pid: IdOpt = None,
    solver: SolverOpt = "python",
) -> None:
    """Play puzzles: enter the solving side's moves (NOTATION form or a number from the menu);
    the engine answers with the defence's best replies, explains a wrong move with its
    refutation, and gives a hint on request ('hint'). Without --id every puzzle of FILE in turn.

    Reads commands from standard input, a terminal or a pipe; the end of input stops cleanly.
    """
    puzzles = select(load_source(file), pid)
    session = PlaySession(sys.stdin, sys.stdout, make_factory(solver))
    solved = 0
    for i, puzzle in enumerate(puzzles):
        if i:
            session.say()
        outcome = session.play(puzzle)
        solved += outcome == "solved"
        if outcome in ("quit", "eof"):
            break
    session.say(f"Solved {solved} of {len(puzzles)} puzzle{'s' if len(puzzles) != 1 else ''}.")
