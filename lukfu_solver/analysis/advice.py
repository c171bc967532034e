"""Call or pass (R3): expected points of *play* and of *pass* for a freshly dealt hand.

*Play*: the other two hands are sampled uniformly from the 24 unseen cards (12 each), and each
full deal is solved exactly with this seat as the caller (M1: the value is this seat's points).
*Pass*: when seat 2 passes, all three have passed and the cards are dealt again: 0. Otherwise
the later seats decide, on each sample, by a cheaper documented policy
(``policy.calling.policy_calls``: call when Old cards plus sets and runs held reach
``CALL_SCORE``); the deal is solved with
whoever calls, and this seat, a non-caller, scores minus half the caller's value (M2); nobody
calling means a redeal: 0. The same samples serve both choices (a paired comparison).

As evidence (an option), earlier seats' passes can weight the samples: for seat 1 the Master
passed, for seat 2 both earlier seats passed; samples in which the policy would have called for
them get weight 0, so the estimate is taken over the deals consistent with those passes.

>>> from lukfu_solver.cards import parse_cards
>>> a = advise(parse_cards("C19S79M2345M9T159"), 0, samples=4, seed=1, limits=SolveLimits(2_000))
>>> a.samples, a.recommendation in ("play", "pass"), a.facts.sure_fu
(4, True, 6)
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..cards import CardSet, format_cards
from ..errors import NotationError
from ..hidden.calls import Budget, TwoPhase, call_values, two_phase_estimate
from ..hidden.pimc import ChoiceEstimate, Evaluator, SolveLimits, combine, estimate, p_positive, refine
from ..i18n import _
from ..policy.calling import HandFacts, hand_facts, policy_calls
from ..policy.rule import rule_playout
from ..position import Position
from .calibration import DEFAULT_AGAINST, calibrated, check_against
from .defaults import DESCEND_NODES, RESTARTS, advice_two_phase
from .model import ModelAnswer, predict
from .reasons import _reason, card_reasons, said

Estimate = ChoiceEstimate
"""Expected points with their standard error over ``n`` samples (the core's type)."""


@dataclass
class Advice:
    """Play or pass for ``hand`` at ``seat``, with the reasons.

    ``basis`` says what the numbers rest on: ``"exact PIMC"`` (every solve settled),
    ``"bounded PIMC"`` (``incomplete`` solves stopped at a limit and count the midpoint of their
    proven bounds), ``"model + exact PIMC"``/``"model + bounded PIMC"`` (anytime: the learned
    model's answer refined by the samples, a normal posterior; PIMC's own estimates in
    ``pimc``) or ``"model"`` (no sample finished within the time budget: the model's answer,
    with its measured error). ``stopped`` is why sampling ended (``"samples"``,
    ``"decided"`` by the sequential test, ``"time"``), ``cut`` the samples the budget stopped
    and left out (none now: such a sample is kept, ``budget_stopped``), ``model`` the learned
    first answer (None without a model file)."""

    hand: CardSet
    seat: int
    play: Estimate
    pass_: Estimate
    p_play_better: float
    recommendation: str
    reason: str
    facts: HandFacts
    samples: int
    seed: int
    incomplete: int
    seconds: float
    evidence: dict[str, Estimate] = field(default_factory=dict)
    solves: int = 0
    """Full deals solved: one a sample for *play*, one more when a later seat calls after a pass;
    ``incomplete`` of them stopped at the limits."""
    basis: str = "exact PIMC"
    pimc: tuple[Estimate, Estimate] | None = None
    """PIMC's own play and pass estimates when ``basis`` starts with "model" (the model's answer
    refined by the samples, ``hidden.pimc.refine``): the samples alone."""
    stopped: str = "samples"
    requested: int = 0
    cut: int = 0
    model: ModelAnswer | None = None
    reasons: list[str] = field(default_factory=list)
    """The reason in card-play terms, one point a line (:func:`card_reasons`)."""
    outcomes: dict[int, int] = field(default_factory=dict)
    """How often calling came to each result over the samples: caller points -> samples."""
    p_caller_loses: float = 0.0
    """The share of samples in which calling loses points."""
    gap_stderr: float = 0.0
    """The standard error of the paired play - pass difference."""
    two_phase: TwoPhase | None = None
    """Two-phase sampling (``hidden.calls.TwoPhase``): ``samples`` counts the deals solved exactly,
    :attr:`cheap_deals` those valued by the cheap solves alone; the estimates are exact PIMC in
    expectation (``hidden.pimc.double_sample``). None: every sampled deal solved."""
    cheap_deals: int = 0
    """Deals valued by their cheap, node-limited solves alone (two-phase sampling)."""
    budget_stopped: int = 0
    """Solves the time budget's end stopped, their samples kept (each counts the rule playout of
    its deal, every hand seen, clamped to the bounds it proved: on the bench's stopped reference
    solves nearer the exact value than the model's value of the hand or the bounds' midpoint,
    ``docs/pimc.md``; counted in ``incomplete`` too; ``hidden.calls.Budget``)."""
    against: str | None = None
    """The opponent strength the values are calibrated against (``analysis.calibration``: what
    the deals bring against ``easy``, ``medium`` or ``strong`` opponents); None: PIMC's values,
    uncorrected (perfect defenders)."""
    uncalibrated: tuple[float, float] | None = None
    """Play and pass before the calibration (None: not calibrated)."""

    def to_json(self, limits: SolveLimits | None = None, evidence: bool = False) -> dict[str, Any]:
        """The advice as JSON data, the one schema of ``advise --json``, ``analyse HAND --json``
        (its ``advice``), the browser table's hint at the call and the benchmarks: ``limits`` are
        the per-solve limits it ran with; ``evidence`` adds the estimates over the samples in
        which the earlier seats would have passed; ``against`` the opponents' strength play and pass
        are calibrated against, ``uncalibrated`` PIMC's own play and pass before it (null: not
        calibrated). The reasons are in English (:meth:`said`)."""
        two = self.two_phase
        data: dict[str, Any] = {
            "play": self.play.to_json(),
            "pass": self.pass_.to_json(),
            "p_play_better": self.p_play_better,
            "recommendation": self.recommendation,
            "reason": self.reason,
            "reasons": self.reasons,
            "basis": self.basis,
            "gap_stderr": self.gap_stderr,
            "p_caller_loses": self.p_caller_loses,
            "outcomes": {str(k): v for k, v in self.outcomes.items()},
            "model": None if self.model is None else self.model.to_json(),
            "samples": self.samples,
            "requested_samples": self.requested,
            "stopped": self.stopped,
            "cut": self.cut,
            "seed": self.seed,
            "solves": self.solves,
            "incomplete": self.incomplete,
            "limits": None if limits is None else limits.to_json(),
            "seconds": round(self.seconds, 3),
            "against": self.against,
            "uncalibrated": None
            if self.uncalibrated is None
            else {"play": self.uncalibrated[0], "pass": self.uncalibrated[1]},
            "two_phase": None
            if two is None
            else {"cheap_deals": self.cheap_deals, "cheap_nodes": two.cheap_nodes, "every": two.every},
        }
        if evidence:
            play, pass_ = self.evidence.get("play"), self.evidence.get("pass")
            data["evidence"] = {
                "kept": play.n if play is not None else 0,
                "play": None if play is None else play.to_json(),
                "pass": None if pass_ is None else pass_.to_json(),
                "recommendation": None if play is None or pass_ is None else ("play" if play.mean > pass_.mean else "pass"),
            }
        return data

    def answer_json(self, limits: SolveLimits | None = None, evidence: bool = False) -> dict[str, Any]:
        """What ``lukfu advise --json`` prints: the ``hand``, its ``seat``, its facts
        (:meth:`~lukfu_solver.policy.calling.HandFacts.to_json`), then :meth:`to_json`."""
        return {"hand": format_cards(self.hand), "seat": self.seat, **self.facts.to_json(), **self.to_json(limits, evidence)}

    def said(self) -> dict[str, Any]:
        """``{"reason", "reasons"}`` in the reader's language (:meth:`to_json` keeps them in English)."""
        return {"reason": said(self.reason), "reasons": [said(r) for r in self.reasons]}


def advise(
    hand: CardSet,
    seat: int,
    samples: int = 48,
    seed: int = 0,
    jobs: int = 1,
    limits: SolveLimits | None = None,
    progress: Callable[[int, int], None] | None = None,
    solver: str = "compiled",
    *,
    budget: Budget | None = None,
    guess: bool = False,
    two_phase: TwoPhase | bool = True,
    against: str | None = DEFAULT_AGAINST,
) -> Advice:
    """Expected points of play and of pass for a 12-card ``hand`` at ``seat`` (0 = the Master
    decides first; 1 = the Master passed; 2 = both passed), and a recommendation; ``solver`` is
    the solver kind (``search.make_solver``; the benchmark compares the reference).

    ``budget`` (``hidden.calls.Budget``) stops sampling before ``samples`` when the sequential
    test decides (with the model, on the refined gap the answer reports) or the seconds run out
    (None: exactly ``samples``, reproducible to the byte);
    ``guess`` warm-starts every solve at the learned model's value of the caller's hand;
    ``two_phase`` samples in two phases (a ``hidden.calls.TwoPhase``; True: the default,
    ``defaults.advice_two_phase``, the anytime answer only; False: never). The solves descend
    from the deal's upper bound, in restarts (``defaults.RESTARTS``), when ``limits`` allow them
    ``defaults.DESCEND_NODES`` or more. ``against`` calibrates play and pass to what the deals
    bring against opponents of that strength (``analysis.calibration``; None: PIMC's own values,
    as if the opponents saw every card)."""
    if hand.bit_count() != 12:
        raise NotationError("hand", _("a dealt hand has {size} cards, got {n}").format(size=12, n=hand.bit_count()))
    if seat not in (0, 1, 2):
        raise NotationError("seat", _("a seat is 0, 1 or 2, got {seat}").format(seat=seat))
    if against is not None:
        against = check_against(against)
    t0 = time.perf_counter()
    two_phase = advice_two_phase(budget, seat) if two_phase is True else (two_phase or None)
    model = predict(hand_facts(hand), seat)
    limits = limits or SolveLimits()
    descend = limits.max_nodes is None or limits.max_nodes >= DESCEND_NODES
    evaluator = Evaluator(limits, kind=solver, descend=descend, restarts=RESTARTS if descend else None)
    warm = model_guess if guess and model is not None else None
    if model is not None and budget is not None and budget.z is not None:  # the test on the answer's own gap
        budget = dataclasses.replace(
            budget, prior=(model.play - model.pass_, model.gap_error), typical_var=model.gap_var
        )
    prior = stopped_value if budget is not None else None
    valuation = call_values(
        hand, seat, samples, seed, evaluator, policy_calls, jobs, progress, budget, warm, prior, two_phase
    )
    results = [r for r in valuation.samples if r.solved]
    facts = hand_facts(hand)
    play_e, pass_e, p_play = valuation.play, valuation.pass_, valuation.p_play_better
    gap_m, gap_se = valuation.gap
    basis = "exact PIMC" if valuation.exact else "bounded PIMC"
    if model is not None and budget is not None and valuation.two_phase is not None and results:  # two phases
        share, every = valuation.two_phase.diff_share, valuation.samples

        def joined(prior: float, error: float, of: Callable[[float, float], float], var: float) -> tuple[float, float]:
            return combine(prior, error, *two_phase_estimate(every, of, var, share))

        pm, pse = joined(model.play, model.play_error, lambda p, q: p, model.play_var)
        play_e = dataclasses.replace(play_e, mean=pm, stderr=pse)
        if seat != 2:
            qm, qse = joined(model.pass_, model.pass_error, lambda p, q: q, model.pass_var)
            pass_e = dataclasses.replace(pass_e, mean=qm, stderr=qse)
        gap_se = joined(model.play - model.pass_, model.gap_error, lambda p, q: p - q, model.gap_var)[1]
        gap_m = play_e.mean - pass_e.mean
        p_play = p_positive(gap_m, gap_se)
        basis = f"model + {basis}"
    elif model is not None and budget is not None:  # anytime: the model's answer, refined by the samples
        plays, passes = [r.play for r in results], [r.pass_ for r in results]
        pm, pse = refine(model.play, model.play_error, plays, typical=model.play_var)
        play_e = dataclasses.replace(play_e, mean=pm, stderr=pse)
        if seat != 2:  # pass's own typical variance: a few samples of it are worth what they are
            qm, qse = refine(model.pass_, model.pass_error, passes, typical=model.pass_var)
            pass_e = dataclasses.replace(pass_e, mean=qm, stderr=qse)
        # the gap is the shown estimates' difference (so the recommendation never contradicts them; the
        # pass prior is the model's sharpest part), its error the paired gap's, refined by its own prior
        _gap, gap_se = refine(
            model.play - model.pass_,
            model.gap_error,
            [p - q for p, q in zip(plays, passes, strict=True)],
            typical=model.gap_var,
        )
        gap_m = play_e.mean - pass_e.mean
        p_play = p_positive(gap_m, gap_se)
        basis = f"model + {basis}" if results else "model"
    uncalibrated = None
    if against is not None:
        uncalibrated = (play_e.mean, pass_e.mean)
        play_e, pass_e, gap_se = calibrated(play_e, pass_e, gap_se, seat, against)
        p_play = p_positive(play_e.mean - pass_e.mean, gap_se)
    rec = "play" if play_e.mean > pass_e.mean else "pass"
    pm, qm = play_e.mean, pass_e.mean
    evidence: dict[str, Estimate] = {}
    if seat > 0:
        kept = [r for r in results if r.earlier_pass]
        if kept:
            plays, passes = [r.play for r in kept], [r.pass_ for r in kept]
            evidence = {"play": estimate("play", plays, plays, 0), "pass": estimate("pass", passes, passes, 0)}
    outcomes: dict[int, int] = {}
    for r in results:
        outcomes[round(r.play)] = outcomes.get(round(r.play), 0) + 1
    return Advice(
        hand,
        seat,
        play_e,
        pass_e,
        p_play,
        rec,
        _reason(facts, seat, rec, pm, qm, play_e.stderr),
        facts,
        len(results),
        seed,
        valuation.incomplete,
        time.perf_counter() - t0,
        evidence,
        valuation.solves,
        basis=basis,
        pimc=(valuation.play, valuation.pass_) if basis.startswith("model") else None,
        stopped=valuation.stopped,
        requested=samples,
        cut=valuation.cut,
        budget_stopped=valuation.budget_stopped,
        two_phase=two_phase,
        cheap_deals=valuation.cheap_only,
        model=model,
        reasons=card_reasons(facts, seat, rec, dataclasses.replace(valuation, samples=results)),
        outcomes=dict(sorted(outcomes.items())),
        p_caller_loses=valuation.p_caller_loses,
        gap_stderr=gap_se,
        against=against,
        uncalibrated=uncalibrated,
    )


def stopped_value(pos: Position) -> float:
    """What a solve the time budget stops counts, clamped to the bounds it proved: the rule-policy
    playout of its deal with every hand seen (``policy.rule.rule_playout``), a value of that very
    deal. On the solves of the exact reference's deals stopped after 300,000 nodes
    (``bench/advise.py``'s ``stopped`` part) it is nearer the exact value than the model's value
    of the hand, the same for every deal, or the bounds' midpoint (``docs/pimc.md``)."""
    return float(rule_playout(pos))


def model_guess(hand: CardSet, seat: int) -> int | None:
    """The warm start of a solve: the model's play value of the caller's hand, on the even grid."""
    m = predict(hand_facts(hand), seat)
    return None if m is None else 2 * round(m.play / 2)
