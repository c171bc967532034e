"""The opponent model fitted by maximum likelihood on game records (``hidden.inference``'s model).

Each parameter is fitted on its own rows: the call curve (a logistic curve of the hand strength,
by Newton's method) on every seat's call, one ``eps`` of the candidate (or rule) mixture a play
kind, the discard softmax's ``lam``, and with ``ranks`` the rank model's place weights
(minorise-maximise steps). The trainer ``python -m train.inference_model`` and the benchmark
``python -m bench.inference`` fit with these; the library only reads the fitted parameters
(``players.ipimc``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from lukfu_solver.cards import CardSet
from lukfu_solver.hidden.inference import (
    KINDS,
    OFF_CANDIDATES,
    Candidates,
    Decision,
    OpponentModel,
    candidate_p,
    decisions,
    log_discard,
)
from lukfu_solver.plays import Play
from lukfu_solver.policy.calling import sigmoid
from lukfu_solver.policy.facts import SeatFacts


def _golden(f: Callable[[float], float], lo: float, hi: float, steps: int = 60) -> float:
    """The maximiser of a unimodal ``f`` on [lo, hi] (golden-section search)."""
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(steps):
        if fc >= fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    return (a + b) / 2


def fit_eps(rows: Sequence[Decision], off: float = OFF_CANDIDATES) -> float:
    """The maximum-likelihood ``eps`` of the mixture ``(1 - eps) [matched] + eps / legal`` (of the
    candidate mixture, :func:`candidate_p`, for decisions with candidates)."""
    if not rows:
        return 0.5
    if rows[0].cands:
        return _golden(lambda e: sum(math.log(candidate_p(r, e, off)) for r in rows), 1e-4, 1 - off - 1e-4)

    def ll(e: float) -> float:
        return sum(math.log((1 - e) * r.matched + e / r.legal) for r in rows)

    return _golden(ll, 1e-4, 1 - 1e-4)


def fit_call(rows: Sequence[tuple[float, bool]]) -> tuple[float, float]:
    """The maximum-likelihood logistic curve ``P(play) = sigmoid(a + b x)`` of (strength, called)
    rows (Newton's method, a tiny ridge so separable data stays finite), as (slope b, threshold
    -a / b)."""
    a = b = 0.0
    for _ in range(50):
        g0 = g1 = h00 = h01 = h11 = 0.0
        for x, y in rows:
            p = sigmoid(a + b * x)
            r = float(y) - p
            g0, g1 = g0 + r, g1 + r * x
            v = p * (1 - p)
            h00, h01, h11 = h00 + v, h01 + v * x, h11 + v * x * x
        g0, g1 = g0 - 1e-3 * a, g1 - 1e-3 * b
        h00, h11 = h00 + 1e-3, h11 + 1e-3
        det = h00 * h11 - h01 * h01
        if det <= 0:
            break
        da, db = (h11 * g0 - h01 * g1) / det, (h00 * g1 - h01 * g0) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-10:
            break
    return (b, -a / b) if b else (0.0, 0.0)


def fit_ranks(rows: Sequence[Decision], places: int) -> tuple[float, ...]:
    """The maximum-likelihood place weights of the rank model (see :class:`OpponentModel`) for
    decisions among at most ``places`` candidates, each choosing one of its first ``cands``:
    the truncated categorical's minorise-maximise steps (``q[r]`` = the choices of place ``r`` over
    the sum of ``1 / Q`` of the decisions that offered it), moves off the candidates left out,
    half a choice added to every place so an unseen one keeps a little weight."""
    rows = [r for r in rows if 0 <= r.rank < places]
    counts = [0.5 + sum(1 for r in rows if r.rank == j) for j in range(places)]
    q = [1.0] * places
    for _ in range(200):
        z = [0.0] * places
        for r in rows:
            n = min(r.cands, places)
            inv = 1 / sum(q[:n])
            for j in range(n):
                z[j] += inv
        q = [c / max(x, 1e-12) for c, x in zip(counts, z, strict=True)]
        top = q[0]
        q = [x / top for x in q]
    return tuple(q)


def fit_lam(rows: Sequence[Decision]) -> float:
    """The maximum-likelihood ``lam`` of the discard softmax (0-8)."""
    if not rows:
        return 0.0
    return _golden(lambda lam: sum(log_discard(r.places, r.hand, lam) for r in rows), 0.0, 8.0)


def record_rows(
    records: Iterable[Any],
    policy: Callable[[SeatFacts], Play],
    strength: Callable[[CardSet], float],
    order: Callable[[SeatFacts], Sequence[int]] | None = None,
    candidates: Candidates | None = None,
) -> tuple[list[tuple[float, bool]], list[Decision]]:
    """The call rows (strength, said play) and the play decisions of every seat in game records
    (``record.GameRecord``: the passed-out deals' calls too)."""
    calls: list[tuple[float, bool]] = []
    plays: list[Decision] = []
    for rec in records:
        for hands in rec.passed_out:
            calls += [(strength(h), False) for h in hands]
        calls += [(strength(rec.hands[s]), c == "play") for s, c in enumerate(rec.calls)]
        if rec.caller is not None:
            plays += decisions(policy, rec.hands, rec.caller, rec.plays, None, order, candidates)
    return calls, plays


def fit(
    records: Iterable[Any],
    policy: Callable[[SeatFacts], Play],
    strength: Callable[[CardSet], float],
    order: Callable[[SeatFacts], Sequence[int]] | None = None,
    candidates: Candidates | None = None,
    off: float = OFF_CANDIDATES,
    ranks: bool = False,
) -> tuple[OpponentModel, dict[str, Any]]:
    """The opponent model fitted by maximum likelihood on game records, and what it rests on
    (decisions by kind, the share matching the policy, the mean number of legal choices, with
    candidates the share among them and their mean number); with ``ranks`` (and candidates)
    the rank model's place weights too (:func:`fit_ranks`)."""
    calls, plays = record_rows(records, policy, strength, order, candidates)
    slope, threshold = fit_call(calls)
    eps = tuple(fit_eps([d for d in plays if d.kind == k], off) for k in KINDS)
    lam = fit_lam([d for d in plays if d.places])
    q = None
    if ranks and candidates is not None:
        by = [[d for d in plays if d.kind == k] for k in KINDS]
        q = tuple(fit_ranks(rows, max((d.cands for d in rows), default=1)) for rows in by)
    model = OpponentModel(policy, strength, slope, threshold, eps, order, lam, candidates, off, q)  # type: ignore[arg-type]
    info: dict[str, Any] = {"calls": len(calls), "called": sum(y for _, y in calls)}
    for k in KINDS:
        rows = [d for d in plays if d.kind == k]
        info[k] = {
            "decisions": len(rows),
            "matched": round(sum(d.matched for d in rows) / len(rows), 4) if rows else None,
            "mean_legal": round(sum(d.legal for d in rows) / len(rows), 2) if rows else None,
        }
        if candidates is not None and rows:
            info[k]["in_candidates"] = round(sum(d.in_cands for d in rows) / len(rows), 4)
            info[k]["mean_candidates"] = round(sum(d.cands for d in rows) / len(rows), 2)
    return model, info
