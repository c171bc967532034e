"""The words ``advise`` and ``analyse`` print, in the reader's language: the call/pass advice
with its reasons and charts, a view's move table and recommendation, the samples used and the
note on solves that stopped early. Everything here goes through :mod:`lukfu_solver.i18n`;
``--json`` (:mod:`.analyse_cmd`) stays language-neutral. The numbers are the library's; this
module only says them (in docs/glossary.md's words: no bounds, no nodes, no M1/M2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich import box
from rich.table import Table
from rich.text import Text

from lukfu_solver.cards import format_cards
from lukfu_solver.i18n import N_, _, counted, ngettext, number, percent, pgettext, seconds
from lukfu_solver.view import SeatView

from .render import Hanging, player_name, signed

if TYPE_CHECKING:
    from lukfu_solver.analysis.advice import Advice
    from lukfu_solver.analysis.moves import SolveLimits, ViewAnalysis
    from lukfu_solver.policy.calling import HandFacts


def short(x: float) -> str:
    """A setting as typed (``2``, ``0.5``: no trailing zeros) with the language's decimal mark."""
    text = f"{x:g}"
    return number(x, len(text.partition(".")[2]))


def limits_text(limits: SolveLimits) -> str:
    """The per-solve limits in words: how far each sampled deal's solve may search."""
    nodes, seconds = limits.max_nodes, limits.time_limit
    if nodes is not None and seconds is not None:
        return _("each solve stops after {nodes} positions or {seconds} s").format(nodes=number(nodes), seconds=short(seconds))
    if nodes is not None:
        return _("each solve stops after {nodes} positions").format(nodes=number(nodes))
    if seconds is not None:
        return _("each solve stops after {seconds} s").format(seconds=short(seconds))
    return _("every solve exact (no limit)")


def points_words(seat: int, caller: int) -> str:
    """Whose points the numbers are: the caller's net points, or a defender's share."""
    if seat == caller:
        return _("Points: seat {seat}'s expected net points as the caller.").format(seat=seat)
    return _(
        "Points: seat {seat}'s expected net points as a non-caller: a defender's share, minus half the caller's."
    ).format(seat=seat)


def facts_lines(facts: HandFacts) -> list[Text]:
    """Old cards, sets, runs and sure fu in words."""
    old = facts.old.bit_count()
    none = _("none")
    sets = ", ".join(format_cards(s) for s in facts.sets) or none
    runs = ", ".join(format_cards(r) for r in facts.runs) or none
    k = facts.sure_fu
    if k >= 6:
        sure = _("Sure fu: {k}, enough to claim as soon as it leads (six needed; its Old cards count)").format(k=k)
    else:
        sure = _("Sure fu: {k} of the six needed to claim (its Old cards); the rest must come from tricks won").format(
            k=k
        )
    return [
        Text(_("Old cards ({n}): {cards}").format(n=old, cards=format_cards(facts.old) if old else none)),
        Text(_("Sets: {sets}").format(sets=sets)),
        Text(_("Runs: {runs}").format(runs=runs)),
        Text(sure),
    ]


def incomplete_warning(
    incomplete: int, solves: int | None, limits: SolveLimits, played_out: bool = False
) -> Text | None:
    """The warning that some solves stopped at a limit (None when all finished): each counts
    halfway between its bounds (``advise``), or with ``played_out`` the rule player's play of
    its deal within them (a view's moves, ``moves.analyse``)."""
    if not incomplete:
        return None
    total = incomplete if solves is None else solves
    if played_out:
        words = ngettext(
            "Note: {k} of {n} solve stopped early ({limits}): it counts the rule player's play of that deal to "
            "the end, with every card in view, kept within what it was proven to be worth: an estimate.",
            "Note: {k} of {n} solves stopped early ({limits}): each counts the rule player's play of that deal "
            "to the end, with every card in view, kept within what it was proven to be worth: an estimate.",
            total,
        )
        return Text(words.format(k=number(incomplete), n=number(total), limits=limits_text(limits)), style="bold yellow")
    words = ngettext(
        "Note: {k} of {n} solve stopped early ({limits}): it counts halfway between the least and the most it "
        "was proven to be worth, an estimate.",
        "Note: {k} of {n} solves stopped early ({limits}): each counts halfway between the least and the most "
        "it was proven to be worth, an estimate.",
        total,
    )
    return Text(words.format(k=number(incomplete), n=number(total), limits=limits_text(limits)), style="bold yellow")


def moves_table(a: ViewAnalysis) -> Table:
    """Every move, best first, with expected points and standard error (and, when some solves
    stopped at a limit, how many of each move's samples are estimated)."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(pgettext("column", "move"))
    table.add_column(pgettext("column", "expected"), justify="right")
    table.add_column("±", justify="right")
    show_estimated = any(e.incomplete for e in a.moves)
    if show_estimated:
        table.add_column(pgettext("column", "estimated"), justify="right")
    table.add_column("")
    for i, e in enumerate(a.moves):
        style = "bold" if i == 0 else ""
        mark = Text(_("◀ best"), style="bold green") if i == 0 else Text("")
        cells = [Text(str(e.move), style=style), Text(signed(e.mean, 2), style=style), number(e.stderr, 2)]
        if show_estimated:
            cells.append(f"{e.incomplete}/{e.n}")
        table.add_row(*cells, mark)
    return table


def recommendation_text(a: ViewAnalysis) -> Text:
    """The best move with its expected points and the chance it beats the second best."""
    best = a.best
    assert best is not None
    line = _("Recommendation: {move} (expected {mean} ± {se})").format(
        move=best.move, mean=signed(best.mean, 2), se=number(best.stderr, 2)
    )
    if a.p_best is None:
        line += _("; the only legal move")
    elif a.moves[0].values == a.moves[1].values:
        line += _("; as good as {move} on every sampled deal").format(move=a.moves[1].move)
    else:
        line += _("; better than the second best, {move}, with probability {p}").format(
            move=a.moves[1].move, p=percent(a.p_best)
        )
    return Text(line, style="bold")


def samples_text(a: ViewAnalysis, requested: int, limits: SolveLimits) -> Text:
    """How many sampled deals, whether it stopped early, how they were drawn and the time."""
    line = counted(a.samples, "sampled deal")
    if a.stopped_early:
        line += _(" of {n} (stopped early: the best move was clear)").format(n=requested)
    elif a.timed_out:
        line += _(" of {n} (stopped by the time budget)").format(n=requested)
    if a.cut:
        line += " · " + ngettext(
            "{n} unfinished at the time budget, left out", "{n} unfinished at the time budget, left out", a.cut
        ).format(n=a.cut)
    count = a.sampler.get("count")
    if count:
        line += " · " + _("drawn from {count} deals consistent with the view").format(count=number(count))
    line += " · " + _("seed {seed}").format(seed=a.seed) + f" · {limits_text(limits)} · {seconds(a.seconds)}"
    return Text(line, style="dim")


STOPPED_WORDS = {
    "samples": N_("all the sampled deals asked for"),
    "decided": N_("stopped once the difference between play and pass was clear"),
    "time": N_("stopped by the time budget"),
}


def basis_text(adv: Advice) -> Text:
    """What the numbers rest on, in one plain sentence: the sampled deals played out (how many
    were estimated), those played out quickly, and the learned model's first answer when the
    numbers start from it (``--verbose`` adds :func:`basis_details`)."""
    if adv.basis == "model":
        return Text(
            _("Basis: the learned model alone: no sampled deal finished in the time; more --time lets it check."),
            style="bold yellow",
        )
    deals = counted(adv.samples, "sampled deal")
    if adv.incomplete:
        estimated = ngettext(
            "{n} of {solves} solve estimated", "{n} of {solves} solves estimated", adv.solves
        ).format(n=adv.incomplete, solves=adv.solves)
        line = _("Basis: {deals} played out with every card in view ({estimated})").format(
            deals=deals, estimated=estimated
        )
    else:
        line = _("Basis: {deals} played out with every card in view").format(deals=deals)
    if adv.two_phase is not None and adv.cheap_deals:
        line += ngettext(", {n} more played out quickly", ", {n} more played out quickly", adv.cheap_deals).format(
            n=adv.cheap_deals
        )
    if adv.basis.startswith("model"):
        line += _(", starting from the learned model's first answer")
    return Text(line + ".", style="dim")


def against_text(adv: Advice) -> Text | None:
    """What the numbers are against: the opponents' strength they are calibrated for, and PIMC's
    own values before (None: not calibrated)."""
    if adv.against is None or adv.uncalibrated is None:
        return None
    words = player_name(adv.against)
    line = _(
        "Against {against} opponents: what such deals bring against them (the deals played out with every "
        "card in view gave play {play}, pass {pass_}: perfect opponents)"
    ).format(against=words, play=signed(adv.uncalibrated[0], 2), pass_=signed(adv.uncalibrated[1], 2))
    return Text(line, style="dim")


def chart_note(adv: Advice) -> Text | None:
    """Why the chart's average is not the headline number, in plain words (None when they agree):
    the chart shows the deals played out in full; the estimate also counts the quick ones and the
    learned model's first answer."""
    total = sum(adv.outcomes.values())
    if not total:
        return None
    average = sum(k * v for k, v in adv.outcomes.items()) / total
    quick = adv.two_phase is not None and adv.cheap_deals > 0
    model = adv.basis.startswith("model")
    estimate = adv.play.mean if adv.uncalibrated is None else adv.uncalibrated[0]  # before the correction
    if round(average, 2) == round(estimate, 2) or not (quick or model):
        return None
    if quick and model:
        words = _("These deals average {average}; calling's estimate, {estimate}, also counts the deals played out quickly and the learned model's first answer.")
    elif quick:
        words = _("These deals average {average}; calling's estimate, {estimate}, also counts the deals played out quickly.")
    else:
        words = _("These deals average {average}; calling's estimate, {estimate}, also counts the learned model's first answer.")
    return Text(words.format(average=signed(average, 2), estimate=signed(estimate, 2)), style="dim")


def basis_details(adv: Advice) -> Text:
    """What the numbers rest on in full (``--verbose``): solves estimated or stopped by the time
    budget, why sampling stopped, two-phase sampling, the sampled deals' own estimates."""
    if adv.basis == "model":
        return Text(
            _("In detail: the learned model only — no sampled deal was solved within the time budget; give more --time."),
            style="dim",
        )
    why = _(STOPPED_WORDS[adv.stopped]) if adv.stopped in STOPPED_WORDS else adv.stopped
    if adv.incomplete == 0:
        words = _("every solve exact")
    else:
        words = ngettext("{n} solve estimated", "{n} solves estimated", adv.incomplete).format(n=adv.incomplete)
    if adv.budget_stopped:
        words += _(
            ", {n} stopped by the time budget: the rule player's playout of the deal within what they proved"
        ).format(n=adv.budget_stopped)
    cut = (
        "; "
        + ngettext(
            "{n} unfinished at the time budget, left out", "{n} unfinished at the time budget, left out", adv.cut
        ).format(n=adv.cut)
        if adv.cut
        else ""
    )
    deals = counted(adv.samples, "sampled deal")
    if adv.basis.startswith("model"):
        line = _("In detail: the learned model's first answer, refined by {deals} ({words}; {why}{cut})")
    else:
        line = _("In detail: {deals}, each solved with every card in view ({words}; {why}{cut})")
    line = line.format(deals=deals, words=words, why=why, cut=cut)
    if adv.two_phase is not None and adv.samples:
        line += "; " + ngettext(
            "two-phase sampling: {n} more sampled deal valued by solves stopped after {nodes} positions, "
            "corrected by the deals solved exactly (exact PIMC on average)",
            "two-phase sampling: {n} more sampled deals valued by solves stopped after {nodes} positions, "
            "corrected by the deals solved exactly (exact PIMC on average)",
            adv.cheap_deals,
        ).format(n=adv.cheap_deals, nodes=number(adv.two_phase.cheap_nodes))
    if adv.pimc is not None:
        play, pass_ = adv.pimc
        line += _("; the sampled deals alone: play {play} ± {play_se}, pass {pass_} ± {pass_se}").format(
            play=signed(play.mean, 2),
            play_se=number(play.stderr, 2),
            pass_=signed(pass_.mean, 2),
            pass_se=number(pass_.stderr, 2),
        )
    return Text(line, style="dim")


def model_text(adv: Advice) -> Text | None:
    """The learned model's instant answer, with how far off it was on hands it had not seen."""
    m = adv.model
    if m is None:
        return None
    rec = {"play": _("PLAY"), "pass": _("PASS")}.get(m.recommendation, m.recommendation)
    return Text(
        _(
            "Instant estimate (learned model): play {play}, pass {pass_} → {rec}; on {hands} hands it had not "
            "seen it was off by ±{play_error} for play, ±{gap_error} for the difference"
        ).format(
            play=signed(m.play, 2),
            pass_=signed(m.pass_, 2),
            rec=rec,
            hands=m.hands,
            play_error=number(m.play_error, 2),
            gap_error=number(m.gap_error, 2),
        ),
        style="dim",
    )


CLOSE_Z = 2.0
"""A recommendation is called close when play - pass is less than this many of its standard
errors from 0 (the bench's "clear" is the same 2: ``bench/advise.py``)."""


def close_call_text(adv: Advice) -> Text | None:
    """Say so when the recommendation is not clear within the work done: the gap is less than
    :data:`CLOSE_Z` standard errors from 0, so the other choice may be as good (None when clear)."""
    gap = adv.play.mean - adv.pass_.mean
    se = adv.gap_stderr
    if (adv.samples == 0 and adv.model is None) or (abs(gap) >= CLOSE_Z * se if se > 0 else gap != 0):
        return None
    more = "--time" if adv.basis.startswith("model") else "--samples"
    return Text(
        _(
            "A close call: the difference is less than {z} standard errors from 0, so the other choice may "
            "be as good; more {option} sharpens it."
        ).format(z=short(CLOSE_Z), option=more),
        style="yellow",
    )


def advice_lines(adv: Advice, limits: SolveLimits, evidence: bool, verbose: bool = False) -> list[Any]:
    """Play vs pass, the recommendation, the reasons in card-play terms, the spread of calling's
    results as a bar chart (and why its average is not the estimate, when it is not), the basis
    in a sentence; with ``verbose`` the basis in full and the learned model's own answer."""
    from lukfu_solver.analysis.reasons import said

    from .analyse_charts import OutcomeChart

    seat = adv.seat
    if seat == 2:
        pass_words = _("a redeal: nobody scores")
    else:
        pass_words = _("a defender's share when a later seat calls, 0 on a redeal")
    call = {"play": _("PLAY"), "pass": _("PASS")}.get(adv.recommendation, adv.recommendation.upper())
    lines = [
        Text(
            _("Play (call): {mean} ± {se} (expected net points as the caller)").format(
                mean=signed(adv.play.mean, 2), se=number(adv.play.stderr, 2)
            )
        ),
        Text(
            _("Pass:        {mean} ± {se} ({why})").format(
                mean=signed(adv.pass_.mean, 2), se=number(adv.pass_.stderr, 2), why=pass_words
            )
        ),
        Text(
            _("Recommendation: {call} (playing is better with probability {p})").format(
                call=call, p=percent(adv.p_play_better)
            ),
            style="bold",
        ),
        Text(_("Reason: {reason}").format(reason=said(adv.reason))),
    ]
    close = close_call_text(adv)
    if close is not None:
        lines.insert(3, close)
    against = against_text(adv)
    if against is not None:
        lines.insert(2, against)
    if adv.reasons:
        lines.append(Text(_("What decides the hand:"), style="bold"))
        lines.extend(Hanging(f"• {said(r)}", indent=2, hang=2) for r in adv.reasons)
    if adv.outcomes:
        title = _("How calling ends over the sampled deals (the caller's points; it loses in {p}):")
        lines.append(Text(title.format(p=percent(adv.p_caller_loses)), style="bold"))
        lines.append(OutcomeChart(adv.outcomes))
        note = chart_note(adv)
        if note is not None:
            lines.append(note)
    lines.append(basis_text(adv))
    if verbose:
        lines.append(basis_details(adv))
        model = model_text(adv)
        if model is not None:
            lines.append(model)
    if evidence:
        lines.extend(evidence_lines(adv))
    facts = [
        counted(adv.samples, "sampled deal"),
        ngettext("{n} solve", "{n} solves", adv.solves).format(n=adv.solves),
        _("seed {seed}").format(seed=adv.seed),
        limits_text(limits),
        seconds(adv.seconds),
    ]
    lines.append(Text(" · ".join(facts), style="dim"))
    warn = incomplete_warning(adv.incomplete - adv.budget_stopped, adv.solves, limits)  # the budget's: in Basis
    if warn is not None:
        lines.append(warn)
    return lines


def evidence_lines(adv: Advice) -> list[Text]:
    """The estimates with the earlier seats' passes taken into account, in words."""
    if adv.seat == 0:
        return [Text(_("Earlier passes: none, the Master decides first."))]
    who = _("seat 0 passed") if adv.seat == 1 else _("seats 0 and 1 passed")
    play, pass_ = adv.evidence.get("play"), adv.evidence.get("pass")
    if play is None or pass_ is None or not play.n:
        return [
            Text(
                _("Earlier passes ({who}): in no sampled deal would they have passed by the calling rule.").format(
                    who=who
                )
            )
        ]
    rec = _("PLAY") if play.mean > pass_.mean else _("PASS")
    return [
        Text(
            _(
                "Earlier passes ({who}): over the {k} of {n} sampled deals in which they would have passed by the "
                "calling rule (Old cards + sets + runs below 5): play {play} ± {play_se}, pass {pass_} ± "
                "{pass_se} → {rec}"
            ).format(
                who=who,
                k=play.n,
                n=adv.samples,
                play=signed(play.mean, 2),
                play_se=number(play.stderr, 2),
                pass_=signed(pass_.mean, 2),
                pass_se=number(pass_.stderr, 2),
                rec=rec,
            )
        )
    ]


def turn_message(view: SeatView) -> str:
    """Whose turn it is when it is not the viewer's."""
    if view.to_move is None:
        return _("The hands have run out: the deal is over, no moves to analyse.")
    who = _("Seat 0 (the Master)") if view.to_move == 0 else _("Seat {seat}").format(seat=view.to_move)
    if view.caller is None:
        words = _("{who} is to call, not seat {seat}: no moves to analyse.")
    elif view.trick:
        words = _("{who} is to follow, not seat {seat}: no moves to analyse.")
    else:
        words = _("{who} is to lead, not seat {seat}: no moves to analyse.")
    return words.format(who=who, seat=view.seat)


def print_analysis(console: Any, a: ViewAnalysis, samples: int, limits: SolveLimits) -> None:
    """The move table of an analysis, its recommendation, the samples used and, when solves
    stopped at a limit, the note."""
    from lukfu_solver.analysis.moves import left_out

    from .analyse_charts import MovesChart

    console.print(moves_table(a))
    rest = left_out(a.view, [e.move for e in a.moves])  # type: ignore[misc]
    if rest:
        told = ngettext("{m} not weighed: {why}", "{m} not weighed: {why}", len(rest)).format(m=len(rest), why=rest[0][1])
        console.print(Text(_("Not shown: {parts}.").format(parts=told), style="dim"))
    example = next((e for e in a.moves if e.incomplete), None)
    if example is not None:  # the column explained on a row of its own
        words = ngettext(
            "estimated {k}/{n}: in {k} of the {n} sampled deal of {move} the solve stopped early, so it counts an "
            "estimate (the rule player's play of that deal to the end, within what it was proven to be worth).",
            "estimated {k}/{n}: in {k} of the {n} sampled deals of {move} the solve stopped early, so it counts an "
            "estimate (the rule player's play of that deal to the end, within what it was proven to be worth).",
            example.n,
        )
        console.print(Text(words.format(k=example.incomplete, n=example.n, move=example.move), style="dim"))
    console.print(Text(_("Expected points (├┤: ± one standard error):"), style="bold"))
    console.print(MovesChart([(str(e.move), e.mean, e.stderr) for e in a.moves]))
    console.print(recommendation_text(a))
    console.print(samples_text(a, samples, limits))
    warn = incomplete_warning(a.incomplete, a.samples * len(a.moves), limits, played_out=True)
    if warn is not None:
        console.print(warn)
