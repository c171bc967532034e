"""``sample``: deals drawn uniformly among those consistent with a seat view.

The sampler (the exact one: ``hidden.make_sampler(view, seed, exact=True)``, ``docs/sampling.md``)
is imported inside the command, so ``lukfu --help``
stays instant; ortools is imported only when a view needs CP-SAT (an infeasible view's
explanation, or the sampler's fallback).
"""

from __future__ import annotations

import random
from typing import Annotated, Any

import typer

from lukfu_solver.i18n import N_, _, ngettext, number, rate

from .output import bad_usage, emit_json, emit_line, note
from .progress import with_progress

VIEW_HELP = N_("A seat view (NOTATION.md), quoted: `'<seat> <hand> <caller> <history>'`.")
PROGRESS_FROM = 1000
"""Counts from which a progress bar is shown (on stderr, only when it is a terminal)."""


def sample_note(count: int, stats: dict[str, Any], per_second: float | None) -> str:
    """The note after the deals: how many, the sampling method, the consistent deals and the speed."""
    method = {"exact": _("exact"), "rejection": _("rejection"), "enumeration": _("enumeration"), "quick": _("quick")}
    known = (
        ngettext("{n} consistent deal", "{n} consistent deals", stats["count"]).format(n=number(stats["count"]))
        if stats["count"] is not None
        else _("count unknown")
    )
    if stats["acceptance"] is not None:
        known += _(", acceptance {rate}").format(rate=rate(stats["acceptance"]))
    text = ngettext(
        "{n} deal drawn by {method} sampling ({known})", "{n} deals drawn by {method} sampling ({known})", count
    ).format(n=count, method=method.get(stats["method"], stats["method"]), known=known)
    return text + (_(", {speed} deals/s").format(speed=number(per_second)) if per_second else "")


def sample(
    view: Annotated[str, typer.Argument(metavar="VIEW", help=VIEW_HELP, show_default=False)],
    count: Annotated[int, typer.Option("--count", "-n", metavar="N", help="How many deals to draw.")] = 10,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed of the draws (same seed, same deals); omitted, one is chosen and shown."),
    ] = None,
    json_: Annotated[
        bool, typer.Option("--json", help='One JSON object a line: {"deal", "history", "position"}.')
    ] = False,
) -> None:
    """Draw deals uniformly at random among those consistent with a seat view.

    Every deal that the view allows is equally likely: the other seats' hands and every hidden
    discard are filled in so that each play of the history was legal (R5-R9). For each deal:
    the hands as dealt (`H0/H1/H2`), the history with every face-down discard's cards written out
    (`xC2`) and the current position (null in the calling phase), so anyone can replay the deal
    and check it. --json prints one object a line, `{"deal", "history", "position"}`. A view
    that no deal fits exits with code 2 and one line naming the trick and play at fault. Without
    --seed the seed chosen is printed on stderr.
    """
    from lukfu_solver.hidden import make_sampler
    from lukfu_solver.inputs import MAX_DRAWS, check_int, check_seed
    from lukfu_solver.view import SeatView

    if count < 1:
        raise bad_usage("count", _("must be at least 1, got {value}").format(value=count))
    check_int(count, "count", 1, MAX_DRAWS)
    if seed is not None:
        check_seed(seed)
    parsed = SeatView.parse(view)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
        note(_("seed {seed}").format(seed=seed))
    sampler = make_sampler(parsed, seed, exact=True)  # sample promises exactly uniform deals
    draws = (sampler.sample() for _ in range(count))
    shown = with_progress(draws, count, _("sampling")) if count >= PROGRESS_FROM else draws
    for n, deal in enumerate(shown, 1):
        data = deal.to_json()
        if json_:
            emit_json(data)
            continue
        emit_line(f"deal {n}: {data['deal']}")
        emit_line(f"  history   {data['history']}")
        emit_line(f"  position  {data['position'] if data['position'] is not None else '- (calling phase)'}")
    if not json_:
        stats = sampler.stats()
        note(sample_note(count, stats, sampler.samples_per_s))
