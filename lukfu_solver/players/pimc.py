"""The PIMC player: perfect-information Monte Carlo over sampled deals, valued by the exact
solver within a node budget (a rule-player playout when a solve cannot finish)."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, NamedTuple

from ..cards import (
    ALL_CARDS,
    format_cards,
    iter_cards,
    old_cards,
)
from ..errors import NotationError
from ..hidden.quick import _as_position, _sampler
from ..plays import CLAIM, DISCARD, Play
from ..position import Position
from ..view import HAND_SIZE, SeatView
from .rule import _cost, ctx_from_view, keep_values, rule_move, rule_playout


def _solver_class() -> tuple[Callable[[], Any], bool]:
    """A maker of fresh exact solvers and whether it is the compiled one: ``fastsearch.FastSolver``
    (same API, about 50 times faster) when importable, else ``search.Solver``."""
    try:
        from ..search.fast import FastSolver
    except ImportError:
        from ..search.reference import Solver

        return (lambda: Solver(max_entries=200_000)), False
    return (lambda: FastSolver(max_entries=1 << 17)), True


# ================================================================ PIMC


class Level(NamedTuple):
    """A PIMC strength level: deals sampled per decision (``samples``; ``call_samples`` for the
    call), the hand size up to which the exact solver is tried (``exact_cards``), its node limit
    per evaluation and node budget per decision, and the most candidate moves. The solver
    figures are for the compiled solver; with the pure-Python one ``exact_cards`` is 2 lower
    and the node figures are scaled by ``PY_SOLVER_SHARE``."""

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
"""Levels 1–5: more samples, candidates and solver nodes. Measured worst decision on the 2-core
development machine (compiled solver, against rule players): level 3 (the default) 0.58 s
(median 0.01 s, 5,531 decisions, ``bench/strength.py``); with the first session's slower solver,
level 1 under 0.1 s once warm, level 4 about 5 s, level 5 about 15 s."""
DEFAULT_LEVEL = 3
PY_SOLVER_SHARE = 1 / 40
"""Node limits and budgets are scaled by this when only the pure-Python solver is available
(about 40 times slower), so a level keeps its time per move."""
CALL_CALIBRATION = 0.5
"""Points added to PIMC's value of calling before the call decision. PIMC solves each sampled
deal with the other two seeing every card, which real opponents do not, so it undervalues
calling. ``bench/strength.py`` (300 deals against two rule players, level 3) measures the points
the deals brought minus the prediction over the player's calls: +0.60 ± 0.22 (378 calls) for
the uncalibrated player, more than its error bars; with this correction the 54 extra calls
(predictions between −0.5 and 0) brought +1.44 a call, and the calibrated player scored
+0.966 a deal against +0.928 uncalibrated on the same deals (paired +0.04, 95% [−0.05, +0.13])."""
MIN_NODES = 500
"""The solver is not tried with fewer nodes than this per evaluation (the playout decides)."""


@dataclass
class MoveValue:
    """One candidate's evaluation over the samples: the mean ``value`` for the mover (its net
    points: the caller's value for the caller, minus half of it for a non-caller, M2), its
    standard error, the mean caller value, the samples and how many the solver settled exactly."""

    move: Play | str
    value: float
    stderr: float
    caller_value: float
    samples: int
    exact: int


@dataclass
class Analysis:
    """A PIMC decision: every candidate's :class:`MoveValue`, best first, and what it cost."""

    kind: str  # "call" or "play"
    moves: list[MoveValue]
    samples: int
    nodes: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def best(self) -> Play | str:
        """The chosen answer."""
        return self.moves[0].move


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of the mean."""
    n = len(xs)
    if not n:
        return 0.0, 0.0
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


class PimcPlayer:
    """Perfect-information Monte Carlo: sample the hidden cards (``sampling.Sampler``: uniform
    over the deals consistent with the view; :class:`QuickSampler` when there are many hidden
    discards), value each candidate move in each sample, play the best mean. Every candidate is valued on the same samples (a paired comparison).

    **A move's value in one sample** is the caller's net points after it under best play (M1),
    from the exact solver (``fastsearch.FastSolver`` when importable, else ``search.Solver``)
    limited to ``node_limit`` nodes (less when the decision's ``node_budget`` is short). When the
    solve does not finish — early in a deal, where full solves take up to tens of seconds — the
    value is a rule-policy playout of the sample (:func:`rule_playout`, every hand seen) clamped
    to the bounds the solver proved. The mover maximises its own result: the caller's value for
    the caller, minus half of it for a non-caller (M2: the two non-callers play as a team).

    **Candidates:** the rule player's choice first, the claim when allowed, then leads and
    beating plays by size and cheapness, cut at ``max_candidates``; for a discard, the cheapest
    few by the rule player's keep values. Ties go to the earlier candidate.

    **Calling:** ``call_samples`` random splits of the 24 unseen cards; PIMC's value of calling
    is the mean value (as above) of the deal's start with this seat as caller; the calibrated
    value adds ``calibration`` (default :data:`CALL_CALIBRATION`, measured by
    ``bench/strength.py``), and the seat calls when that is above ``call_margin`` (passing is
    taken as worth 0: a redeal, or another's call). Every call decision, with the uncalibrated
    prediction, is appended to ``call_log`` (the bench checks its calibration), the time of
    every decision to ``seconds``.

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
            raise NotationError("level", f"a pimc level is 1-5, got {level}")
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
        self.last: Analysis | None = None

    def __call__(self, view: SeatView) -> Play | str:
        a = self.analyse(view)
        self.last = a
        self.seconds.append(a.seconds)
        if a.kind == "call":
            play = next(m for m in a.moves if m.move == "play")
            self.call_log.append(
                {
                    "seat": view.seat,
                    "hand": format_cards(view.hand),
                    "calls_before": list(view.calls),
                    "predicted": play.caller_value,
                    "calibrated": play.value,
                    "stderr": play.stderr,
                    "call": a.best == "play",
                }
            )
        return a.best

    # ------------------------------------------------------------ analysis

    def analyse(self, view: SeatView) -> Analysis:
        """Evaluate the choices of the seat to move (it must be the view's seat): the call, or
        every candidate move. The same view and seed give the same analysis."""
        if view.to_move != view.seat:
            raise NotationError("view", f"seat {view.seat} is not to move")
        t0 = time.perf_counter()
        rng = random.Random(f"pimc|{self.seed}|{view}")
        a = self._analyse_call(view, rng) if view.caller is None else self._analyse_play(view, rng)
        a.seconds = time.perf_counter() - t0
        return a

    def _budget(self, evals: int, cards: int) -> tuple[Callable[[], Any], int]:
        """A solver maker and the node limit of one evaluation (0: playouts only), given how
        many evaluations there will be and the cards each seat holds."""
        make, fast = _solver_class()
        p = self.params
        if cards > p.exact_cards - (0 if fast else 2):
            return make, 0
        share = 1.0 if fast else PY_SOLVER_SHARE
        return make, int(min(p.node_limit, p.node_budget / max(1, evals)) * share)

    @staticmethod
    def _value(pos: Position, solver: Any, limit: int) -> tuple[float, bool, int]:
        """The caller's value of ``pos``: exact (solver, within ``limit`` nodes) or a clamped
        playout; returns (value, exact, nodes)."""
        if pos.outcome is not None:
            return pos.outcome.points[pos.caller], True, 0
        if limit < MIN_NODES:
            return rule_playout(pos), False, 0
        r = solver.solve(pos, max_nodes=limit)
        if r.complete and r.value is not None:
            return r.value, True, r.nodes
        return min(max(rule_playout(pos), r.lower), r.upper), False, r.nodes

    def _analyse_call(self, view: SeatView, rng: random.Random) -> Analysis:
        seat = view.seat
        rest = list(iter_cards(ALL_CARDS & ~view.hand))
        n = self.params.call_samples
        make, limit = self._budget(n, HAND_SIZE)
        solver = make() if limit else None
        values: list[float] = []
        exact = nodes = 0
        o1, o2 = (seat + 1) % 3, (seat + 2) % 3
        for _ in range(n):
            rng.shuffle(rest)
            hands = [0, 0, 0]
            hands[seat] = view.hand
            hands[o1] = sum(1 << c for c in rest[:HAND_SIZE])
            hands[o2] = sum(1 << c for c in rest[HAND_SIZE:])
            v, ex, k = self._value(Position.start(hands, seat), solver, limit)
            values.append(v)
            exact += ex
            nodes += k
        m, se = _mean_se(values)
        cal = m + self.calibration
        play = MoveValue("play", cal, se, m, n, exact)
        pas = MoveValue("pass", self.call_margin, 0.0, 0.0, 0, 0)
        moves = [play, pas] if cal > self.call_margin else [pas, play]
        note = (
            f"calling is valued as this seat's result as caller (PIMC {m:+.2f}, calibrated "
            f"{self.calibration:+g}); passing is taken as worth 0"
        )
        return Analysis("call", moves, n, nodes, notes=[note])

    def candidates(self, view: SeatView) -> list[Play]:
        """The moves PIMC evaluates, the rule player's choice first (see the class notes)."""
        legal = list(view.legal_moves())
        if len(legal) <= 1:
            return legal
        ctx = ctx_from_view(view)
        first = rule_move(ctx)
        limit = self.params.max_candidates
        old = old_cards(ctx.hand, ctx.seen_up)
        values = keep_values(ctx.hand, old, ctx.out[(ctx.seat + 1) % 3] | ctx.out[(ctx.seat + 2) % 3])
        if legal[-1].kind == DISCARD:
            size = legal[-1].size
            cheap = sorted(iter_cards(ctx.hand), key=lambda c: (values[c], c % 9, c))[: size + 2]
            combos = sorted(combinations(cheap, size), key=lambda cs: (sum(values[c] for c in cs), cs))
            moves = [Play(DISCARD, sum(1 << c for c in cs), size) for cs in combos]
            limit = max(2, limit // 2)
        else:
            moves = sorted(legal, key=lambda p: (p.kind != CLAIM, -p.size, _cost(p.cards, values), p.cards))
        chosen = [first] + [m for m in moves if m != first]
        return chosen[:limit]

    def _analyse_play(self, view: SeatView, rng: random.Random) -> Analysis:
        cands = self.candidates(view)
        if len(cands) == 1:
            only = MoveValue(cands[0], 0.0, 0.0, 0.0, 0, 0)
            return Analysis("play", [only], 0, notes=["the only legal move: not evaluated"])
        sampler = _sampler(view, rng.getrandbits(64))
        samples = [_as_position(s) for s in sampler.samples(self.params.samples)]
        make, limit = self._budget(len(samples) * len(cands), max(view.hand_sizes))
        solver = make() if limit else None
        vals: list[list[float]] = [[] for _ in cands]
        exact = [0] * len(cands)
        nodes = 0
        for pos in samples:
            for i, m in enumerate(cands):
                pos.push(m)
                v, ex, k = self._value(pos, solver, limit)
                pos.pop()
                vals[i].append(v)
                exact[i] += ex
                nodes += k
        sign = 1.0 if view.seat == view.caller else -0.5
        moves = []
        for i, m in enumerate(cands):
            cm, se = _mean_se(vals[i])
            moves.append(MoveValue(m, sign * cm, abs(sign) * se, cm, len(vals[i]), exact[i]))
        order = sorted(range(len(moves)), key=lambda i: (-moves[i].value, i))
        notes = [f"sampler: {sampler.method}"]
        return Analysis("play", [moves[i] for i in order], len(samples), nodes, notes=notes)


