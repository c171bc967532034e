"""``analyse`` and ``advise``: expected points under hidden cards (PIMC, ``docs/pimc.md``).

``analyse VIEW`` values every legal move of the viewer over sampled deals consistent with the
view (:func:`lukfu_solver.analysis.moves.analyse`); ``analyse HAND --seat S`` looks at a freshly
dealt hand before calling (:func:`lukfu_solver.analysis.hand.analyse_hand`: its Old cards, sets,
runs and sure fu, the call/pass advice and, for the Master, the expected points of each first
lead if it calls). ``advise HAND --seat S`` is the call/pass advice alone
(:func:`lukfu_solver.analysis.advice.advise`; the command and its ``--batch`` mode are in
:mod:`.advise_cmd`, which renders with this module's helpers). The defaults and the checks of a
request are the library's (:mod:`lukfu_solver.analysis.defaults`); this module parses, calls and
renders.

Heavy modules (the sampler, the solvers, numba) are imported inside the commands, so ``lukfu
--help`` stays instant.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from lukfu_solver.analysis.calibration import check_against
from lukfu_solver.analysis.defaults import (
    ADVISE_TIME,
    HAND_TIME,
    LEAD_SAMPLES,
    MASTER_TIME,
    VIEW_SAMPLES,
    VIEW_TIME,
    check_options,
    is_view_text,
    make_limits,
    parse_hand,
)
from lukfu_solver.cards import CardSet, format_cards
from lukfu_solver.i18n import _, number, pgettext, seconds
from lukfu_solver.inputs import MAX_SAMPLES, check_int, check_seed
from lukfu_solver.view import SeatView

from .analyse_words import advice_lines, facts_lines, points_words, print_analysis, turn_message
from .options import AgainstOpt, DealOpt, JsonOpt
from .options import hand_text as given_or_dealt
from .output import bad_usage, emit_json, stdout_console
from .progress import prepare_solver, progress_bar
from .render import legend, suit_cell, suit_header

if TYPE_CHECKING:
    from lukfu_solver.analysis.hand import HandAnalysis
    from lukfu_solver.analysis.moves import SolveLimits, ViewAnalysis

Progress = Callable[[int, int], None]

# ---------------------------------------------------------------- options

SamplesOpt = Annotated[
    int | None,
    typer.Option(
        "--samples",
        metavar="N",
        help="Fix the work: at most N sampled deals for a view (fewer once the best move is clear), exactly N "
        "for a hand's advice, and no time limit unless --time is given: the same seed and N give the same "
        "output on any machine and any --jobs. Default: think for a set time (see --time; a view takes at most 48).",
        show_default=False,
    ),
]
AdviseSamplesOpt = Annotated[
    int | None,
    typer.Option(
        "--samples",
        metavar="N",
        help="Fix the work: exactly N sampled deals (each played out for play and, if needed, for pass), "
        "no early stop and no time limit unless --time is given, so a seed gives the same output on any --jobs. "
        "Default: think for a set time (see --time).",
        show_default=False,
    ),
]
SeedOpt = Annotated[
    int, typer.Option("--seed", metavar="SEED", help="Seed of the sampling: the same seed, the same answer.")
]
JobsOpt = Annotated[
    int, typer.Option("--jobs", metavar="N", help="Solve on N processes (the same results as one, except timings).")
]
MaxNodesOpt = Annotated[
    int | None,
    typer.Option(
        "--max-nodes",
        metavar="N",
        help="Stop each solve after N nodes, the positions it looks at (0: no limit, every solve exact); a solve "
        "stopped early counts an estimate, the middle of what it had proven. Default: 16,000,000 for call/pass "
        "advice, 500,000 for a view's moves and the first-lead table.",
        show_default=False,
    ),
]
TimeOpt = Annotated[
    float | None,
    typer.Option(
        "--time",
        metavar="SECONDS",
        help="How long to think: the best estimate found within SECONDS, with its standard errors (a solve "
        "still running at the end is stopped: for the advice its sample is kept, with an estimate within what "
        "it proved; for a view's moves and the first-lead table it is left out). Default without --samples: 0.8 s for "
        "call/pass advice, 3 s for the Master's (it stops sooner once playing or passing is clearly better, "
        "the gap 3 standard errors from 0); for analyse HAND --seat 0 4.6 s for the whole answer, the "
        "first-lead table first (2 s of it) and the advice the rest; 5 s for a view. The answer then depends on the machine's speed; --samples fixes "
        "the work instead.",
        show_default=False,
    ),
]
SolveTimeOpt = Annotated[
    float | None,
    typer.Option(
        "--solve-time",
        metavar="SECONDS",
        help="Also stop each single solve after SECONDS (it then counts an estimate, the middle of what it "
        "had proven, and the output counts such solves; the answer depends on the machine's speed).",
        show_default=False,
    ),
]
VerboseOpt = Annotated[
    bool,
    typer.Option(
        "--verbose",
        help="Also say in full what the call/pass numbers rest on (solves estimated or stopped by the time, "
        "deals played out quickly) and the learned model's own answer; --json has the same.",
    ),
]
SeatOpt = Annotated[
    int | None,
    typer.Option(
        "--seat", metavar="SEAT", help="The seat of a HAND: 0 the Master (decides first), 1 or 2.", show_default=False
    ),
]


# ---------------------------------------------------------------- words


def hand_table(hand: CardSet, old: CardSet, label: str) -> Table:
    """One hand by suit, Old cards marked."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(pgettext("column", "hand"))
    for s in range(4):
        table.add_column(suit_header(s))
    table.add_row(label, *(suit_cell(hand, old, s) for s in range(4)))
    return table


# ---------------------------------------------------------------- analyse


def analyse(
    target: Annotated[
        str | None,
        typer.Argument(
            metavar="VIEW|HAND",
            help="A seat view, quoted: `'<seat> <hand> <caller> <history>'`; or a dealt hand of 12 cards "
            "(with --seat; or --deal SEED).",
            show_default=False,
        ),
    ] = None,
    seat: SeatOpt = None,
    samples: SamplesOpt = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 1,
    json_: JsonOpt = False,
    max_nodes: MaxNodesOpt = None,
    budget: TimeOpt = None,
    solve_time: SolveTimeOpt = None,
    lead_samples: Annotated[
        int,
        typer.Option(
            "--lead-samples",
            metavar="N",
            help="HAND at seat 0: sampled deals for the table of first leads (0 skips it; each sample tries every "
            "lead).",
        ),
    ] = LEAD_SAMPLES,
    deal: DealOpt = None,
    against: AgainstOpt = "strong",
    infer: Annotated[
        bool,
        typer.Option(
            "--infer",
            help="VIEW: draw 4 times the sampled deals, weigh each by how likely the other seats' calls and plays "
            "are in it (an opponent model; docs/inference.md), and solve the samples picked from them by weight; "
            "the pool's effective sample size is shown.",
        ),
    ] = False,
    verbose: VerboseOpt = False,
) -> None:
    """Expected points of every move of a seat view, or of a dealt hand's choices.

    **VIEW** (your turn): your Old cards, each legal move with the points you can expect ± standard
    error over sampled deals that fit the view (each played out perfectly, up to the limits), the best
    move with the chance that it beats the second, the samples used (it stops early once the best move
    is clear) and how many solves were stopped early. Points are your net points, as the caller or as
    a non-caller. When it is not your turn it says whose it is (exit 0). A view in the calling phase
    (caller `-`) with you to call is analysed as your HAND.

    **HAND --seat S** (before calling): Old cards, sets, runs, sure fu, the call/pass advice (as
    `advise`) and, at seat 0 (the Master leads first), the points to expect from each first lead if
    you call (--lead-samples samples).

    By default it thinks for a set time (--time: 0.8 s for a hand's advice, 3 s for the Master's,
    sooner once playing or passing is clearly better; at seat 0 with the first-lead table 4.6 s in
    all, the table first with 2 s and the advice the rest; 5 s for a view). --samples N fixes the
    work instead (at most N for a view, exactly N for the advice, 8 for the first-lead table by
    --lead-samples), for the same
    output on any machine and any --jobs. Each solve of a view's moves and of the first-lead table
    stops after 500,000 nodes, each solve of the advice after 16,000,000 (--max-nodes sets both;
    --solve-time also stops each solve after SECONDS); a solve stopped early counts an estimate and
    the output says how many were. Measured times: docs/pimc.md. A progress bar with the time left
    is shown on stderr on a terminal. --json prints one object: `{"input": "view", "view", "seat",
    "caller", "to_move", "old", "points", "moves": [{"move", "mean", "stderr", "values"}], "left_out", "best",
    "p_best", "samples", "requested_samples", "stopped_early", "solves", "incomplete", "seed",
    "limits", "sampler", "seconds"}` (with "message" instead when it is not your turn), or
    `{"input": "hand", "hand", "seat", "old", "sets", "runs", "sure_fu", "call_score", "advice",
    "leads"}`.
    """
    check_options(samples, jobs, max_nodes, solve_time, budget)
    if lead_samples < 0:
        raise bad_usage("lead-samples", _("must be 0 or more, got {value}").format(value=lead_samples))
    check_int(lead_samples, "lead-samples", 0, MAX_SAMPLES)
    check_seed(seed)
    request = HandRequest(
        samples, lead_samples, seed, jobs, max_nodes, solve_time, budget, verbose, check_against(against)
    )
    target = given_or_dealt(target, deal, seat, "VIEW|HAND")
    prepare_solver()  # the one-time compilation announced, never inside the time budget
    if infer and not is_view_text(target):
        raise bad_usage("infer", _("--infer weighs the samples of a seat view in the play phase, not a dealt hand"))
    if not is_view_text(target):
        hand, s = parse_hand(target, seat)
        analyse_hand(hand, s, request, json_)
        return
    view = SeatView.parse(target)
    if seat is not None and seat != view.seat:
        raise bad_usage("seat", _("the view is seat {view}'s, but --seat is {seat}").format(view=view.seat, seat=seat))
    if view.caller is None and view.to_move == view.seat:
        if infer:
            raise bad_usage("infer", _("--infer weighs the samples of a seat view in the play phase, not a dealt hand"))
        analyse_hand(view.hand, view.seat, request, json_)
        return
    if view.to_move != view.seat:
        not_your_turn(view, json_)
        return
    n = VIEW_SAMPLES if samples is None else samples
    view_budget = budget if samples is not None else (VIEW_TIME if budget is None else budget)
    analyse_view(view, n, seed, jobs, make_limits(max_nodes, solve_time), json_, view_budget, infer)


@dataclass(frozen=True)
class HandRequest:
    """What ``analyse HAND`` was asked for: samples (None: anytime), first-lead samples, seed,
    jobs, the per-solve limits and the time budget (None: the default, or none with samples)."""

    samples: int | None
    lead_samples: int
    seed: int
    jobs: int
    max_nodes: int | None
    solve_time: float | None
    budget: float | None
    verbose: bool = False
    against: str = "strong"


@contextlib.contextmanager
def timed_progress(budget: float | None) -> Iterator[Callable[[str], Progress | None]]:
    """The one progress bar (``progress.progress_bar``) with the time left: the budget's rest when
    there is a budget (the answer ends by then at the latest), else the rate so far times the
    samples to go. The factory returns None when stderr is not a terminal."""
    bar = progress_bar("{task.fields[left]}")
    if bar is None:
        yield lambda description: None
        return
    begun = time.monotonic()  # the budget is the whole answer's, whichever of its steps runs

    def factory(description: str) -> Progress:
        task = bar.add_task(description, total=None, left="")
        start = time.monotonic()

        def update(done: int, total: int) -> None:
            spent = time.monotonic() - start
            left = spent / done * (total - done) if done else float("inf")
            if budget is not None:
                left = min(left, max(0.0, budget - (time.monotonic() - begun)))
            words = _("≤ {seconds} left").format(seconds=seconds(left)) if left != float("inf") else ""
            bar.update(task, completed=done, total=total, left=words)

        return update

    with bar:
        yield factory


def not_your_turn(view: SeatView, json_: bool) -> None:
    """Say whose turn it is (exit 0)."""
    message = turn_message(view)
    if json_:
        emit_json(
            {
                "input": "view",
                "view": str(view),
                "seat": view.seat,
                "caller": view.caller,
                "to_move": view.to_move,
                "old": format_cards(view.old_cards()),
                "moves": [],
                "best": None,
                "message": message,
            }
        )
        return
    stdout_console().print(Text(message))


def analyse_view(
    view: SeatView,
    samples: int,
    seed: int,
    jobs: int,
    limits: SolveLimits,
    json_: bool,
    budget: float | None = None,
    infer: bool = False,
) -> None:
    """``analyse VIEW`` with the viewer to move, within ``budget`` seconds (None: no budget);
    ``infer``: the samples weighted by the opponent model."""
    from lukfu_solver.analysis.moves import analyse as run_analysis

    assert view.caller is not None
    with timed_progress(budget) as bar:
        a = run_analysis(
            view, samples, seed, jobs, limits, progress=bar(_("sampling and solving")), budget=budget, infer=infer
        )
    old = view.old_cards()
    if json_:
        data = {
            "input": "view",
            "view": str(view),
            "seat": view.seat,
            "caller": view.caller,
            "to_move": view.to_move,
            "old": format_cards(old),
            "points": "M1" if view.seat == view.caller else "M2",
        }
        data.update(a.to_json(samples, limits))
        if infer:
            data["inference"] = None if a.weights is None else a.weights.to_json()
        emit_json(data)
        return
    console = stdout_console()
    if view.seat == view.caller:
        head = (
            _("Seat {seat}'s view (the caller), to follow")
            if view.trick
            else _("Seat {seat}'s view (the caller), to lead")
        )
    elif view.trick:
        head = _("Seat {seat}'s view (a non-caller), to follow")
    else:
        head = _("Seat {seat}'s view (a non-caller), to lead")
    head = head.format(seat=view.seat)
    if view.trick:
        head += _("; best so far {play} by seat {seat}").format(play=view.best, seat=view.best_seat)
    console.print(Text(head, style="bold"))
    console.print(hand_table(view.hand, old, _("seat {seat}").format(seat=view.seat)))
    console.print(legend())
    console.print(Text(_("Old cards: {cards}").format(cards=format_cards(old) if old else _("none"))))
    console.print(Text(points_words(view.seat, view.caller)))
    print_analysis(console, a, samples, limits)
    if infer:
        console.print(inference_text(a))


def inference_text(a: ViewAnalysis) -> Text:
    """The inference line of ``analyse VIEW --infer``: the pool the samples were picked from, its
    effective sample size, and whether the weights were tempered to keep it at the floor."""
    w = a.weights
    if w is None:
        return Text(_("Inference: no sample to weigh."), style="dim")
    line = _(
        "Inference: samples picked by weight from {n} deals weighted by the other seats' calls and plays "
        "(opponent model); effective sample size {ess} of {n}"
    ).format(ess=number(w.ess, 1), n=len(w.weights))
    if w.tempered:
        line += _(" (tempered to the floor {floor}: the likelihoods alone gave {raw})").format(
            floor=number(w.floor, 1), raw=number(w.raw_ess, 1)
        )
    return Text(line, style="dim")


def analyse_hand(hand: CardSet, seat: int, r: HandRequest, json_: bool) -> None:
    """``analyse HAND --seat S``: facts, call/pass advice and (seat 0) the first leads if it calls."""
    from lukfu_solver.analysis.hand import analyse_hand as run_hand

    shown = (
        r.budget
        if r.budget is not None or r.samples is not None
        else (HAND_TIME if seat == 0 and r.lead_samples > 0 else MASTER_TIME if seat == 0 else ADVISE_TIME)
    )
    with timed_progress(shown) as bar:
        h = run_hand(
            hand,
            seat,
            r.samples,
            r.lead_samples,
            r.seed,
            r.jobs,
            r.max_nodes,
            r.solve_time,
            progress=bar,
            budget=r.budget,
            against=r.against,
        )
    render_hand(h, r.lead_samples, json_, r.verbose)


def render_hand(h: HandAnalysis, lead_samples: int, json_: bool, verbose: bool = False) -> None:
    """Print a hand's analysis (facts, advice, first leads) in words or as JSON."""
    hand, seat, facts, adv, leads = h.hand, h.seat, h.facts, h.advice, h.leads
    advice_limits, lead_limits = h.advice_limits, h.lead_limits
    if json_:
        data: dict[str, Any] = {"input": "hand", "hand": format_cards(hand), "seat": seat}
        data.update(facts.to_json())
        data["advice"] = adv.to_json(advice_limits)
        data["leads"] = None if leads is None else leads.to_json(lead_samples, lead_limits)
        emit_json(data)
        return
    console = stdout_console()
    title = (
        _("Dealt hand of seat 0 (the Master), before calling")
        if seat == 0
        else _("Dealt hand of seat {seat}, before calling")
    )
    console.print(Text(title.format(seat=seat), style="bold"))
    console.print(hand_table(hand, facts.old, _("seat {seat}").format(seat=seat)))
    console.print(legend())
    for line in facts_lines(facts):
        console.print(line)
    console.print(Text(_("Call or pass:"), style="bold"))
    for line in advice_lines(adv, advice_limits, evidence=False, verbose=verbose):
        console.print(line)
    if seat != 0:
        console.print(Text(_("The Master (seat 0) leads the first trick, so there is no first lead to choose.")))
        return
    if leads is None:
        console.print(Text(_("First leads: skipped (--lead-samples 0).")))
        return
    console.print(Text(_("If it calls, its first lead (the Master leads the first trick):"), style="bold"))
    console.print(Text(points_words(0, 0)))
    print_analysis(console, leads, lead_samples, lead_limits)


# ---------------------------------------------------------------- advise
