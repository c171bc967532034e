"""The PIMC player: candidate choice and budgets over the one PIMC core.

Sampling, per-sample evaluation (the exact solver within a node budget, a rule-player playout
clamped to the proven bounds when a solve cannot finish), paired estimates and the call
valuation are :mod:`lukfu_solver.hidden.pimc`'s, shared with ``analyse`` and ``advise``
(``docs/pimc.md``); this module chooses the candidates and the budgets.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, NamedTuple

from .. import i18n
from ..cards import format_cards
from ..errors import NotationError
from ..hidden.calls import call_values
from ..hidden.inference import Weights
from ..hidden.pimc import ChoiceEstimate, Evaluator, SolveLimits, evaluate
from ..hidden.quick import make_sampler
from ..i18n import _
from ..plays import CLAIM, DISCARD, Play
from ..policy.calling import policy_calls
from ..policy.facts import SeatFacts, facts_from_view
from ..policy.rule import discard_order, keep_cost, rule_move, rule_playout, seat_keep_values
from ..view import HAND_SIZE, SeatView

# ================================================================ PIMC


class Level(NamedTuple):
    """A PIMC strength level: deals sampled per decision (``samples``; ``call_samples`` for the
    call), the hand size up to which the exact solver is tried (``exact_cards``), its node limit
    per evaluation and node budget per decision, and the most candidate moves (the compiled
    solver's figures; times per level in ``docs/pimc.md``)."""

    samples: int
    call_samples: int
    exact_cards: int
    node_limit: int
    node_budget: int
    max_candidates: int


LEVELS: dict[int, Level] = {
    1: Level(6, 8, 6, 20_000, 200_000, 6),
    2: Level(12, 16, 7, 50_000, 600_000, 8),
    3: Level(24, 32, 9, 100_000, 2_000_000, 12),
    4: Level(48, 64, 10, 300_000, 10_000_000, 16),
    5: Level(96, 128, 10, 600_000, 30_000_000, 24),
}
"""Levels 1–5: more samples, candidates and solver nodes (measured times: ``docs/pimc.md``)."""
DEFAULT_LEVEL = 3
CALL_CALIBRATION = 0.5
"""Points added to PIMC's value of calling before the call decision. PIMC solves each sampled
deal with the other two seeing every card, which real opponents do not, so it undervalues
calling; ``bench/strength.py`` measures the points the calls brought minus the prediction
(figures in ``docs/pimc.md``)."""
MIN_NODES = 500
"""The solver is not tried with fewer nodes than this per evaluation (the playout decides)."""
TABLE_ENTRIES = 1 << 17
"""The player's solver table size: one table serves a whole decision."""

MoveValue = ChoiceEstimate
"""One candidate's evaluation (the core's type): ``value`` is the mover's mean points (M1/M2),
``caller_value`` the mean caller value, ``samples`` and ``exact`` the samples and the exact ones."""


@dataclass
class PimcDecision:
    """A PIMC decision: every candidate's :class:`ChoiceEstimate`, best first, and what it cost."""

    kind: str  # "call" or "play"
    moves: list[ChoiceEstimate]
    samples: int
    nodes: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    left_out: list[tuple[Play, str]] = field(default_factory=list)
    """The legal moves not evaluated, each with the reason in words (empty at the call)."""
    weights: Weights | None = None
    """The samples' importance weights and effective sample size (``ipimc``; None: uniform)."""

    @property
    def best(self) -> Play | str:
        """The chosen answer."""
        return self.moves[0].move


def candidate_moves(facts: SeatFacts, limit: int, legal: Sequence[Play] = (), discard: int = 0) -> list[Play]:
    """The candidates of a decision with facts ``facts`` (see :class:`PimcPlayer`): of the ``legal``
    leads or beating plays, or, when ``discard`` is a size, of the discards of that size; the
    rule player's choice first, at most ``limit`` (half of it, at least 2, for a discard). A
    function of the seat's own facts, so the opponent model (``players.ipimc``) can rebuild the
    candidates of another seat's decision."""
    values = seat_keep_values(facts)
    if discard:
        order = discard_order(facts.hand, values)
        # the rule player's discard (rule_move's when nothing beats: the same keep values and order)
        first = Play(DISCARD, sum(1 << c for c in order[:discard]), discard)
        cheap = order[: discard + 2]
        combos = sorted(combinations(cheap, discard), key=lambda cs: (sum(values[c] for c in cs), cs))
        moves = [Play(DISCARD, sum(1 << c for c in cs), discard) for cs in combos]
        limit = max(2, limit // 2)
    else:
        first = rule_move(facts)
        moves = sorted(legal, key=lambda p: (p.kind != CLAIM, -p.size, keep_cost(p.cards, values), p.cards))
    chosen = [first] + [m for m in moves if m != first]
    return chosen[:limit]


class PimcPlayer:
    """Perfect-information Monte Carlo: sample the hidden cards (``hidden.quick.make_sampler``:
    the exact uniform sampler, the quick one when many cards lie in hidden discards), value each
    candidate move in each sample with the PIMC core, play the best mean. Every candidate is
    valued on the same samples (a paired comparison).

    **A move's value in one sample** is the caller's net points after it under best play (M1),
    from the compiled exact solver limited to ``node_limit`` nodes (less when the decision's
    ``node_budget`` is short). When the solve does not finish — early in a deal, where full solves
    take up to tens of seconds — the value is a rule-policy playout of the sample
    (:func:`rule_playout`, every hand seen) clamped to the bounds the solver proved. The mover
    maximises its own result: the caller's value for the caller, minus half of it for a
    non-caller (M2: the two non-callers play as a team).

    **Candidates:** the rule player's choice first, the claim when allowed, then leads and
    beating plays by size and cheapness, cut at ``max_candidates``; for a discard, the cheapest
    few by the rule player's keep values. Ties go to the earlier candidate.

    **Calling:** the core's call valuation (:func:`~lukfu_solver.hidden.calls.call_values`, the
    one ``advise`` uses) on ``call_samples`` deals, within this player's budget: *play* is this
    seat's value as the caller, *pass* the later seats' calling policy (``policy.calling.policy_calls``),
    on the same deals. The seat calls when *play* plus ``calibration`` (default
    :data:`CALL_CALIBRATION`) is above *pass* plus ``call_margin``. Every call decision, with the
    uncalibrated prediction, is appended to ``call_log`` (the bench checks its calibration), the
    time of every decision to ``seconds``.

    Determinism: each decision's samples are drawn from ``seed`` and the view's text, and the
    solver is limited by nodes, never by time, so an answer depends on nothing else.
    """

    def __init__(
        self,
        level: int = DEFAULT_LEVEL,
        seed: int = 0,
        call_margin: float = 0.0,
        name: str | None = None,
        calibration: float = CALL_CALIBRATION,
        **overrides: int,
    ) -> None:
        if level not in LEVELS:
            raise NotationError("level", _("a pimc level is 1-5, got {level}").format(level=level))
        self.level = level
        self.params = LEVELS[level]._replace(**overrides)
        self.seed = seed
        self.call_margin = call_margin
        self.calibration = calibration
        if name is None:
            name = "pimc" if level == DEFAULT_LEVEL else f"pimc:{level}"
            if calibration != CALL_CALIBRATION:
                name = f"pimc:{level}:{calibration:g}"
        self.name = name
        self.call_log: list[dict[str, Any]] = []
        self.seconds: list[float] = []
        self.last: PimcDecision | None = None

    def __call__(self, view: SeatView) -> Play | str:
        a = self.analyse(view)
        self.last = a
        self.seconds.append(a.seconds)
        if a.kind == "call":
            play = next(m for m in a.moves if m.move == "play")
            pass_ = next(m for m in a.moves if m.move == "pass")
            self.call_log.append(
                {
                    "seat": view.seat,
                    "hand": format_cards(view.hand),
                    "calls_before": list(view.calls),
                    "predicted": play.caller_value,
                    "calibrated": play.value,
                    "pass": pass_.value,
                    "stderr": play.stderr,
                    "call": a.best == "play",
                }
            )
        return a.best

    # ------------------------------------------------------------ analysis

    def analyse(self, view: SeatView) -> PimcDecision:
        """Evaluate the choices of the seat to move (it must be the view's seat): the call, or
        every candidate move. The same view and seed give the same analysis."""
        if view.to_move != view.seat:
            raise NotationError("view", _("seat {seat} is not to move").format(seat=view.seat))
        t0 = time.perf_counter()
        rng = random.Random(f"pimc|{self.seed}|{view}")
        a = self._analyse_call(view, rng) if view.caller is None else self._analyse_play(view, rng)
        a.seconds = time.perf_counter() - t0
        return a

    def _evaluator(self, evals: int, cards: int) -> Evaluator:
        """The core's evaluator for a decision of ``evals`` evaluations with ``cards`` a seat: the
        node limit of one evaluation (0: playouts only) and the clamped playout fallback."""
        p = self.params
        limit = 0 if cards > p.exact_cards else int(min(p.node_limit, p.node_budget / max(1, evals)))
        return Evaluator(SolveLimits(limit), rule_playout, MIN_NODES, TABLE_ENTRIES)

    def _analyse_call(self, view: SeatView, rng: random.Random) -> PimcDecision:
        """Play vs pass by the core's call valuation (one play and at most one pass a sample)."""
        n = self.params.call_samples
        evaluator = self._evaluator(2 * n, HAND_SIZE)
        v = call_values(view.hand, view.seat, n, rng.getrandbits(64), evaluator, policy_calls)
        return self._call_choice(v.play, v.pass_, n, v.nodes)

    def _call_choice(self, play: ChoiceEstimate, pass_: ChoiceEstimate, n: int, nodes: int) -> PimcDecision:
        """The call decision from the valued *play* and *pass*: *play* when its value plus the
        calibration is above *pass* plus the margin."""
        calibrated = dataclasses.replace(play, mean=play.mean + self.calibration)
        moves = [calibrated, pass_] if calibrated.mean > pass_.mean + self.call_margin else [pass_, calibrated]
        note = (
            f"calling is valued as this seat's result as caller (PIMC {play.mean:+.2f}, calibrated "
            f"{self.calibration:+g}) against passing ({pass_.mean:+.2f}: the later seats' calling policy)"
        )
        return PimcDecision("call", moves, n, nodes, notes=[note])

    def candidates(self, view: SeatView) -> list[Play]:
        """The moves PIMC evaluates, the rule player's choice first (see the class notes)."""
        legal = list(view.legal_moves())
        if len(legal) <= 1:
            return legal
        if legal[-1].kind == DISCARD:
            return candidate_moves(facts_from_view(view), self.params.max_candidates, discard=legal[-1].size)
        return candidate_moves(facts_from_view(view), self.params.max_candidates, legal)

    def left_out(self, view: SeatView, cands: list[Play]) -> list[tuple[Play, str]]:
        """The legal moves that are not among ``cands``, each with why (canonical order)."""
        chosen = set(cands)
        rest = sorted((m for m in view.legal_moves() if m not in chosen), key=Play.sort_key)
        if not rest:
            return []
        if rest[0].kind == DISCARD:
            why = i18n._(
                "a dearer discard: level {level} values only the {n} cheapest by the rule player's keep values"
            ).format(level=self.level, n=len(cands))
        else:
            why = i18n._(
                "beyond level {level}'s {n} candidates (the rule player's choice, claims, then the largest and "
                "cheapest plays)"
            ).format(level=self.level, n=self.params.max_candidates)
        return [(m, why) for m in rest]

    def _analyse_play(self, view: SeatView, rng: random.Random) -> PimcDecision:
        cands = self.candidates(view)
        if len(cands) == 1:
            only = ChoiceEstimate(cands[0], 0.0, 0.0, ())
            return PimcDecision("play", [only], 0, notes=["the only legal move: not evaluated"], left_out=[])
        sampler = make_sampler(view, rng.getrandbits(64))
        deals, weights = self.draw(view, sampler, rng)
        samples = [d.position() for d in deals]
        assert view.caller is not None and all(p is not None for p in samples)
        evaluator = self._evaluator(len(samples) * len(cands), max(view.hand_sizes))
        w = None if weights is None or len(weights.weights) != len(samples) else weights.weights
        paired = evaluate(samples, cands, evaluator, view.seat, view.caller, w)  # type: ignore[arg-type]
        notes = [f"sampler: {sampler.method}"]
        left = self.left_out(view, cands)
        a = PimcDecision("play", paired.estimates(), len(samples), paired.nodes, notes=notes, left_out=left)
        a.weights = weights
        return a

    def draw(self, view: SeatView, sampler: Any, rng: random.Random) -> tuple[list[Any], Weights | None]:
        """The level's ``samples`` deals from ``sampler`` and their importance weights (None:
        uniform, as here; ``ipimc`` weighs them by its opponent model)."""
        return sampler.samples(self.params.samples), None
