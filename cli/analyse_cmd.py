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

from lukfu_solver.analysis.defaults import (
    ADVICE_MAX_NODES,
    ADVISE_TIME,
    DECIDE_Z,
    DEFAULT_MAX_NODES,
    HAND_ADVICE_TIME,
    LEAD_SAMPLES,
    LEAD_TIME,
    MASTER_TIME,
    VIEW_SAMPLES,
    VIEW_TIME,
    check_options,
    is_view_text,
    make_limits,
    parse_hand,
)
from lukfu_solver.cards import CardSet, format_cards
from lukfu_solver.i18n import _
from lukfu_solver.inputs import MAX_SAMPLES, check_int, check_seed
from lukfu_solver.view import SeatView

from .common import bad_usage, emit_json, stdout_console
from .options import DealOpt, JsonOpt
from .options import hand_text as given_or_dealt
from .progress import prepare_solver, progress_bar
from .render import legend, seat_label, signed, suit_cell, suit_header

if TYPE_CHECKING:
    from lukfu_solver.analysis.advice import Advice, Estimate, HandFacts
    from lukfu_solver.analysis.hand import HandAnalysis
    from lukfu_solver.analysis.moves import Analysis, SolveLimits

Progress = Callable[[int, int], None]

# ---------------------------------------------------------------- options

SamplesOpt = Annotated[
    int | None,
    typer.Option(
        "--samples",
        metavar="N",
        help=f"Fix the work: at most N sampled deals for a view (fewer if the best move is clear early), exactly "
        f"N for a hand's advice, no time budget unless --time is given: the same seed and N give the same "
        f"output on any machine and any --jobs. Default: anytime (see --time; a view takes at most {VIEW_SAMPLES}).",
        show_default=False,
    ),
]
AdviseSamplesOpt = Annotated[
    int | None,
    typer.Option(
        "--samples",
        metavar="N",
        help="Fix the work: exactly N sampled deals (each solved for play and, if needed, pass), no sequential "
        "stop and no time budget unless --time is given, so a seed gives byte-identical output on any --jobs. "
        "Default: anytime (see --time).",
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
        help=f"Stop each solve after N nodes (0: no limit, every solve exact); an unfinished solve counts the "
        f"midpoint of its proven bounds. Default: {ADVICE_MAX_NODES:,} for call/pass advice, {DEFAULT_MAX_NODES:,} "
        "for a view's moves and the first-lead table.",
        show_default=False,
    ),
]
TimeOpt = Annotated[
    float | None,
    typer.Option(
        "--time",
        metavar="SECONDS",
        help=f"The time budget of the answer: the best estimate found within SECONDS, with its standard errors "
        f"(a solve still running at the end is stopped: for the advice its sample is kept, counting the midpoint "
        f"of its bounds; for a view's moves and the first-lead table it is left out). Default without --samples: "
        f"{ADVISE_TIME:g} s for call/pass advice, {MASTER_TIME:g} s for the Master's (it also stops as soon as the "
        f"play-pass gap is {DECIDE_Z:g} standard errors from 0); for analyse HAND --seat 0 {HAND_ADVICE_TIME:g} s "
        f"for the advice and {LEAD_TIME:g} s for the first-lead table; {VIEW_TIME:g} s for a view. "
        "Results then depend on the machine's speed; --samples fixes the work instead.",
        show_default=False,
    ),
]
SolveTimeOpt = Annotated[
    float | None,
    typer.Option(
        "--solve-time",
        metavar="SECONDS",
        help="Also stop each single solve after SECONDS (its value is then the midpoint of its proven bounds, "
        "counted in the output; results depend on the machine's speed).",
        show_default=False,
    ),
]
SeatOpt = Annotated[
    int | None,
    typer.Option(
        "--seat", metavar="SEAT", help="The seat of a HAND: 0 Master (decides first), 1, 2.", show_default=False
    ),
]


def limits_data(limits: SolveLimits) -> dict[str, Any]:
    """``{"max_nodes", "solve_time"}``: the per-solve limits (null: no such limit)."""
    return {"max_nodes": limits.max_nodes, "solve_time": limits.time_limit}


def limits_text(limits: SolveLimits) -> str:
    """The per-solve limits in words."""
    parts = []
    if limits.max_nodes is not None:
        parts.append(f"{limits.max_nodes:,} nodes")
    if limits.time_limit is not None:
        parts.append(f"{limits.time_limit:g} s a solve")
    return "per-solve limit " + " or ".join(parts) if parts else "exact solves (no limit)"


# ---------------------------------------------------------------- progress


# ---------------------------------------------------------------- words and data


def points_words(seat: int, caller: int) -> str:
    """Whose points the numbers are (RULES.md M1/M2)."""
    if seat == caller:
        return f"Points: seat {seat}'s expected net points as the caller (M1)."
    return (
        f"Points: seat {seat}'s expected net points as a non-caller: minus half the caller's, the mean "
        "of the two non-callers' results (M2)."
    )


def hand_table(hand: CardSet, old: CardSet, label: str) -> Table:
    """One hand by suit, Old cards marked."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("hand")
    for s in range(4):
        table.add_column(suit_header(s))
    table.add_row(label, *(suit_cell(hand, old, s) for s in range(4)))
    return table


def estimate_data(e: Estimate | None) -> dict[str, Any] | None:
    """``{"mean", "stderr", "n"}`` of an estimate."""
    return None if e is None else {"mean": e.mean, "stderr": e.stderr, "n": e.n}


def facts_data(facts: HandFacts) -> dict[str, Any]:
    """A dealt hand's facts as JSON data."""
    return {
        "old": format_cards(facts.old),
        "sets": [format_cards(s) for s in facts.sets],
        "runs": [format_cards(r) for r in facts.runs],
        "sure_fu": facts.sure_fu,
        "call_score": facts.call_score,
    }


def facts_lines(facts: HandFacts) -> list[Text]:
    """Old cards, sets, runs and sure fu in words."""
    old = facts.old.bit_count()
    sets = ", ".join(format_cards(s) for s in facts.sets) or "none"
    runs = ", ".join(format_cards(r) for r in facts.runs) or "none"
    return [
        Text(f"Old cards ({old}): {format_cards(facts.old) if old else 'none'}"),
        Text(f"Sets: {sets}"),
        Text(f"Runs: {runs}"),
        Text(f"Sure fu: {facts.sure_fu} of the 6 needed (its Old cards, cashed as singles once it has the lead)"),
    ]


def incomplete_warning(incomplete: int, solves: int | None, limits: SolveLimits) -> Text | None:
    """The warning that some solves stopped at a limit (None when all finished)."""
    if not incomplete:
        return None
    of = f" of {solves:,}" if solves is not None else ""
    return Text(
        f"Warning: {incomplete:,}{of} solves stopped at the {limits_text(limits)}: their values are the "
        "midpoints of the bounds they proved, not exact values.",
        style="bold yellow",
    )


def analysis_data(a: Analysis, requested: int, limits: SolveLimits) -> dict[str, Any]:
    """An analysis as JSON data: every move best first with its mean, error and per-sample values."""
    best = a.best
    return {
        "moves": [
            {
                "move": str(e.move),
                "mean": e.mean,
                "stderr": e.stderr,
                "incomplete": e.incomplete,
                "values": list(e.values),
            }
            for e in a.moves
        ],
        "best": None if best is None else str(best.move),
        "p_best": a.p_best,
        "samples": a.samples,
        "requested_samples": requested,
        "stopped_early": a.stopped_early,
        "timed_out": a.timed_out,
        "cut": a.cut,
        "solves": a.samples * len(a.moves),
        "incomplete": a.incomplete,
        "seed": a.seed,
        "limits": limits_data(limits),
        "sampler": a.sampler,
        "seconds": round(a.seconds, 3),
    }


def moves_table(a: Analysis) -> Table:
    """Every move, best first, with expected points and standard error (and, when some solves
    stopped at a limit, how many of each move's samples are bounds midpoints)."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("move")
    table.add_column("expected", justify="right")
    table.add_column("± s.e.", justify="right")
    show_bounds = any(e.incomplete for e in a.moves)
    if show_bounds:
        table.add_column("from bounds", justify="right")
    table.add_column("")
    for i, e in enumerate(a.moves):
        style = "bold" if i == 0 else ""
        mark = Text("◀ best", style="bold green") if i == 0 else Text("")
        cells = [Text(str(e.move), style=style), Text(signed(e.mean, 2), style=style), f"{e.stderr:.2f}"]
        if show_bounds:
            cells.append(f"{e.incomplete}/{e.n}")
        table.add_row(*cells, mark)
    return table


def recommendation_text(a: Analysis) -> Text:
    """The best move with its expected points and p_best."""
    best = a.best
    assert best is not None
    line = f"Recommendation: {best.move} (expected {signed(best.mean, 2)} ± {best.stderr:.2f})"
    if a.p_best is None:
        line += "; the only legal move"
    elif a.moves[0].values == a.moves[1].values:
        line += f"; as good as {a.moves[1].move} on every sample"
    else:
        line += f"; it beats the second best, {a.moves[1].move}, with probability {a.p_best:.3f}"
    return Text(line, style="bold")


def samples_text(a: Analysis, requested: int, limits: SolveLimits) -> Text:
    """How many samples, whether it stopped early, the sampler and the time."""
    line = f"Samples: {a.samples}"
    if a.stopped_early:
        line += f" of {requested} (stopped early: the best move was clear)"
    elif a.timed_out:
        line += f" of {requested} (stopped by the time budget)"
    if a.cut:
        line += f" · {a.cut} sample cut by the budget left out"
    method = a.sampler.get("method")
    count = a.sampler.get("count")
    if method:
        line += f" · sampler {method}" + (f", {count:,} consistent deals" if count else "")
    line += f" · seed {a.seed} · {limits_text(limits)} · {a.seconds:.1f} s"
    return Text(line, style="dim")


def advice_data(adv: Advice, limits: SolveLimits, evidence: bool) -> dict[str, Any]:
    """Call/pass advice as JSON data (with the evidence estimates when asked for)."""
    data: dict[str, Any] = {
        "play": estimate_data(adv.play),
        "pass": estimate_data(adv.pass_),
        "p_play_better": adv.p_play_better,
        "recommendation": adv.recommendation,
        "reason": adv.reason,
        "reasons": adv.reasons,
        "basis": adv.basis,
        "gap_stderr": adv.gap_stderr,
        "p_caller_loses": adv.p_caller_loses,
        "outcomes": {str(k): v for k, v in adv.outcomes.items()},
        "model": model_data(adv),
        "samples": adv.samples,
        "requested_samples": adv.requested,
        "stopped": adv.stopped,
        "cut": adv.cut,
        "seed": adv.seed,
        "solves": adv.solves,
        "incomplete": adv.incomplete,
        "limits": limits_data(limits),
        "seconds": round(adv.seconds, 3),
    }
    if evidence:
        data["evidence"] = evidence_data(adv)
    return data


def model_data(adv: Advice) -> dict[str, Any] | None:
    """The learned first answer and its measured error (None without a model)."""
    m = adv.model
    if m is None:
        return None
    return {
        "play": round(m.play, 4),
        "pass": round(m.pass_, 4),
        "recommendation": m.recommendation,
        "error": {"play": m.play_error, "pass": m.pass_error, "gap": m.gap_error, "held_out_hands": m.hands},
    }


STOPPED_WORDS = {
    "samples": "all the samples asked for",
    "decided": "stopped once the gap was clear (sequential test)",
    "time": "stopped by the time budget",
}


def basis_text(adv: Advice) -> Text:
    """What the numbers rest on: exact or bounded PIMC, the model refined by it, or the model alone."""
    if adv.basis == "model":
        return Text(
            "Basis: the learned model only — no sampled deal was solved within the time budget; give more --time.",
            style="bold yellow",
        )
    why = STOPPED_WORDS.get(adv.stopped, adv.stopped)
    words = "every solve exact" if adv.incomplete == 0 else f"{adv.incomplete} solves bounded, not exact"
    if adv.budget_stopped:
        words += f", {adv.budget_stopped} by the time budget: the model's value within the bounds proved"
    cut = f"; {adv.cut} sample cut by the budget left out" if adv.cut else ""
    line = f"Basis: {adv.basis} over {adv.samples} samples ({words}; {why}{cut})"
    if adv.pimc is not None:
        play, pass_ = adv.pimc
        line += f"; PIMC alone: play {signed(play.mean, 2)} ± {play.stderr:.2f}, pass {signed(pass_.mean, 2)} ± {pass_.stderr:.2f}"
    return Text(line, style="dim")


def model_text(adv: Advice) -> Text | None:
    """The learned model's instant answer beside PIMC's, with its held-out error."""
    m = adv.model
    if m is None:
        return None
    return Text(
        f"Model (instant first answer): play {signed(m.play, 2)}, pass {signed(m.pass_, 2)} → {m.recommendation}; "
        f"its error on {m.hands} held-out hands against PIMC: ±{m.play_error:.2f} play, ±{m.gap_error:.2f} gap",
        style="dim",
    )


def evidence_data(adv: Advice) -> dict[str, Any]:
    """The estimates over the samples in which the earlier seats would have passed (policy)."""
    play, pass_ = adv.evidence.get("play"), adv.evidence.get("pass")
    rec = None if play is None or pass_ is None else ("play" if play.mean > pass_.mean else "pass")
    return {
        "kept": play.n if play is not None else 0,
        "play": estimate_data(play),
        "pass": estimate_data(pass_),
        "recommendation": rec,
    }


def advice_lines(adv: Advice, limits: SolveLimits, evidence: bool) -> list[Any]:
    """Play vs pass, the recommendation, the reasons in card-play terms, the spread of calling's
    results as a bar chart, the basis and the model's first answer."""
    from .analyse_charts import OutcomeChart

    seat = adv.seat
    pass_words = _("a redeal: nobody scores") if seat == 2 else _("as a non-caller (M2), or 0 on a redeal")
    lines = [
        Text(
            _("Play (call): {mean} ± {se:.2f} (expected net points as the caller, M1)").format(mean=signed(adv.play.mean, 2), se=adv.play.stderr)
        ),
        Text(_("Pass:        {mean} ± {se:.2f} ({why})").format(mean=signed(adv.pass_.mean, 2), se=adv.pass_.stderr, why=pass_words)),
        Text(
            _("Recommendation: {call} (probability that playing is better: {p:.3f})").format(
                call={"play": _("PLAY"), "pass": _("PASS")}.get(adv.recommendation, adv.recommendation.upper()), p=adv.p_play_better),
            style="bold",
        ),
        Text(_("Reason: {reason}").format(reason=adv.reason)),
    ]
    if adv.reasons:
        lines.append(Text(_("What decides the hand:"), style="bold"))
        lines.extend(Text(f"  • {r}") for r in adv.reasons)
    if adv.outcomes:
        lines.append(
            Text(
                _("Calling's result over the samples (caller's points; it loses in {p:.0f}%):").format(p=100 * adv.p_caller_loses),
                style="bold",
            )
        )
        lines.append(OutcomeChart(adv.outcomes))
    lines.append(basis_text(adv))
    model = model_text(adv)
    if model is not None:
        lines.append(model)
    if evidence:
        lines.extend(evidence_lines(adv))
    lines.append(
        Text(
            f"Samples: {adv.samples} · {adv.solves} solves · seed {adv.seed} · {limits_text(limits)} · "
            f"{adv.seconds:.1f} s",
            style="dim",
        )
    )
    warn = incomplete_warning(adv.incomplete - adv.budget_stopped, adv.solves, limits)  # the budget's: in Basis
    if warn is not None:
        lines.append(warn)
    return lines


def evidence_lines(adv: Advice) -> list[Text]:
    """The estimates with the earlier seats' passes taken as evidence, in words."""
    if adv.seat == 0:
        return [Text("Evidence: the Master decides first, so no earlier pass to learn from.")]
    who = "seat 0 passed" if adv.seat == 1 else "seats 0 and 1 passed"
    ev = evidence_data(adv)
    if not ev["kept"]:
        return [Text(f"Evidence ({who}): no sample in which the policy would have passed for them.")]
    play, pass_ = adv.evidence["play"], adv.evidence["pass"]
    return [
        Text(
            f"Evidence ({who}; the {ev['kept']} of {adv.samples} samples in which the calling policy passes for "
            f"them): play {signed(play.mean, 2)} ± {play.stderr:.2f}, pass {signed(pass_.mean, 2)} ± {pass_.stderr:.2f} "
            f"→ {ev['recommendation']}"
        )
    ]


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
            help="HAND at seat 0: samples of the first-lead table (0 skips it; each sample solves every lead).",
        ),
    ] = LEAD_SAMPLES,
    deal: DealOpt = None,
) -> None:
    """Expected points of every move of a seat view, or of a dealt hand's choices.

    **VIEW** (the viewer to move): the viewer's Old cards, each legal move with its expected points ±
    standard error over sampled deals consistent with the view (each solved exactly up to the limits),
    the best move with the probability that it beats the second, the samples used (it stops early once
    the best move is clear) and how many solves stopped at a limit. Points are the viewer's: M1 as the
    caller, M2 as a non-caller. When it is not the viewer's turn it says whose it is (exit 0).
    A view in the calling phase (caller `-`) with the viewer to call is analysed as its HAND.

    **HAND --seat S** (before calling): Old cards, sets, runs, sure fu, the call/pass advice (as
    `advise`) and, at seat 0 (the Master leads first), the expected points of each first lead if it
    calls (--lead-samples samples).

    Defaults: anytime, within a time budget (--time: 1.8 s for a hand's advice, 5.5 s for the
    Master's, stopping sooner once the play-pass gap is 3 standard errors from 0; at seat 0 with the
    first-lead table 2.6 s for the advice and 2 s for the table; 5 s for a view); --samples N fixes the work instead (at most N for a view, exactly N for the advice, 8
    for the first-lead table by --lead-samples), for results that are the same to the byte on any
    machine and --jobs. Each solve of a view's moves and of the first-lead table stops after
    500,000 nodes, each solve of the advice after 16,000,000 (--max-nodes sets both; --solve-time
    also stops each solve after SECONDS); the output counts the solves that stopped. What that
    costs in time: docs/pimc.md. A progress bar with the time left is shown on stderr when it is a
    terminal. --json prints one object: `{"input": "view", "view", "seat", "caller", "to_move", "old",
    "points", "moves": [{"move", "mean", "stderr", "values"}], "best", "p_best", "samples",
    "requested_samples", "stopped_early", "solves", "incomplete", "seed", "limits", "sampler",
    "seconds"}` (with "message" instead of the analysis when it is not the viewer's turn), or
    `{"input": "hand", "hand", "seat", "old", "sets", "runs", "sure_fu", "call_score", "advice",
    "leads"}`.
    """
    check_options(samples, jobs, max_nodes, solve_time, budget)
    if lead_samples < 0:
        raise bad_usage("lead-samples", f"must be 0 or more, got {lead_samples}")
    check_int(lead_samples, "lead-samples", 0, MAX_SAMPLES)
    check_seed(seed)
    request = HandRequest(samples, lead_samples, seed, jobs, max_nodes, solve_time, budget)
    target = given_or_dealt(target, deal, seat, "VIEW|HAND")
    prepare_solver()  # the one-time compilation announced, never inside the time budget
    if not is_view_text(target):
        hand, s = parse_hand(target, seat)
        analyse_hand(hand, s, request, json_)
        return
    view = SeatView.parse(target)
    if seat is not None and seat != view.seat:
        raise bad_usage("seat", f"the view is seat {view.seat}'s, but --seat is {seat}")
    if view.caller is None and view.to_move == view.seat:
        analyse_hand(view.hand, view.seat, request, json_)
        return
    if view.to_move != view.seat:
        not_your_turn(view, json_)
        return
    n = VIEW_SAMPLES if samples is None else samples
    view_budget = budget if samples is not None else (VIEW_TIME if budget is None else budget)
    analyse_view(view, n, seed, jobs, make_limits(max_nodes, solve_time), json_, view_budget)


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


@contextlib.contextmanager
def timed_progress(budget: float | None) -> Iterator[Callable[[str], Progress | None]]:
    """The one progress bar (``progress.progress_bar``) with the time left: the budget's rest when
    there is a budget (the answer ends by then at the latest), else the rate so far times the
    samples to go. The factory returns None when stderr is not a terminal."""
    bar = progress_bar("{task.fields[left]}")
    if bar is None:
        yield lambda description: None
        return

    def factory(description: str) -> Progress:
        task = bar.add_task(description, total=None, left="")
        start = time.monotonic()

        def update(done: int, total: int) -> None:
            spent = time.monotonic() - start
            left = spent / done * (total - done) if done else float("inf")
            if budget is not None:
                left = min(left, max(0.0, budget - spent))
            words = f"≤ {left:.1f} s left" if left != float("inf") else ""
            bar.update(task, completed=done, total=total, left=words)

        return update

    with bar:
        yield factory


def turn_message(view: SeatView) -> str:
    """Whose turn it is when it is not the viewer's."""
    if view.to_move is None:
        return "The hands have run out: the deal is over, no moves to analyse."
    action = "call" if view.caller is None else ("follow" if view.trick else "lead")
    who = "Seat 0 (the Master)" if view.to_move == 0 else f"Seat {view.to_move}"
    return f"{who} is to {action}, not seat {view.seat}: no moves to analyse."


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
    view: SeatView, samples: int, seed: int, jobs: int, limits: SolveLimits, json_: bool, budget: float | None = None
) -> None:
    """``analyse VIEW`` with the viewer to move, within ``budget`` seconds (None: no budget)."""
    from lukfu_solver.analysis.moves import analyse as run_analysis

    assert view.caller is not None
    with timed_progress(budget) as bar:
        a = run_analysis(view, samples, seed, jobs, limits, progress=bar("sampling and solving"), budget=budget)
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
        data.update(analysis_data(a, samples, limits))
        emit_json(data)
        return
    console = stdout_console()
    action = "follow" if view.trick else "lead"
    head = f"Seat {view.seat}'s view ({'caller' if view.seat == view.caller else 'non-caller'}), to {action}"
    if view.trick:
        head += f"; best so far {view.best} by seat {view.best_seat}"
    console.print(Text(head, style="bold"))
    console.print(hand_table(view.hand, old, f"seat {view.seat}"))
    console.print(legend())
    console.print(Text(f"Old cards: {format_cards(old) if old else 'none'}"))
    console.print(Text(points_words(view.seat, view.caller)))
    print_analysis(console, a, samples, limits)


def print_analysis(console: Any, a: Analysis, samples: int, limits: SolveLimits) -> None:
    """The move table of an analysis, its recommendation, the samples used and, when solves
    stopped at a limit, the warning."""
    from .analyse_charts import MovesChart

    console.print(moves_table(a))
    console.print(Text("Expected points (├┤: ± one standard error):", style="bold"))
    console.print(MovesChart([(str(e.move), e.mean, e.stderr) for e in a.moves]))
    console.print(recommendation_text(a))
    console.print(samples_text(a, samples, limits))
    warn = incomplete_warning(a.incomplete, a.samples * len(a.moves), limits)
    if warn is not None:
        console.print(warn)


def analyse_hand(hand: CardSet, seat: int, r: HandRequest, json_: bool) -> None:
    """``analyse HAND --seat S``: facts, call/pass advice and (seat 0) the first leads if it calls."""
    from lukfu_solver.analysis.hand import analyse_hand as run_hand

    shown = (
        r.budget
        if r.budget is not None or r.samples is not None
        else (HAND_ADVICE_TIME + LEAD_TIME if seat == 0 else ADVISE_TIME)
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
        )
    render_hand(h, r.lead_samples, json_)


def render_hand(h: HandAnalysis, lead_samples: int, json_: bool) -> None:
    """Print a hand's analysis (facts, advice, first leads) in words or as JSON."""
    hand, seat, facts, adv, leads = h.hand, h.seat, h.facts, h.advice, h.leads
    advice_limits, lead_limits = h.advice_limits, h.lead_limits
    if json_:
        data: dict[str, Any] = {"input": "hand", "hand": format_cards(hand), "seat": seat}
        data.update(facts_data(facts))
        data["advice"] = advice_data(adv, advice_limits, evidence=False)
        data["leads"] = None if leads is None else analysis_data(leads, lead_samples, lead_limits)
        emit_json(data)
        return
    console = stdout_console()
    console.print(Text(f"Dealt hand of {seat_label(seat)}, before calling", style="bold"))
    console.print(hand_table(hand, facts.old, f"seat {seat}"))
    console.print(legend())
    for line in facts_lines(facts):
        console.print(line)
    console.print(Text("Call or pass:", style="bold"))
    for line in advice_lines(adv, advice_limits, evidence=False):
        console.print(line)
    if seat != 0:
        console.print(Text("The Master (seat 0) leads first, so there is no first lead to choose."))
        return
    if leads is None:
        console.print(Text("First leads: skipped (--lead-samples 0)."))
        return
    console.print(Text("If it calls, the first lead (the Master leads first, R4):", style="bold"))
    console.print(Text(points_words(0, 0)))
    print_analysis(console, leads, lead_samples, lead_limits)


# ---------------------------------------------------------------- advise
