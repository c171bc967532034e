"""Inference from what the other seats did: an opponent model and importance-weighted deals.

The samplers (``hidden.sampling``, ``hidden.quick``) draw the deals *consistent* with a view
(``hidden.constraints``, the hard facts: R7 leads, R9 discards). A seat's calls and plays say
more than the rules force: a seat that passed rarely held a strong hand, a seat that discarded
against a single held low cards there. This module weighs each sampled deal by how likely the
other seats' observed actions are in it, under a documented opponent model (``docs/inference.md``):

- **calls** (R3): a seat says *play* with probability ``sigmoid(slope * (strength - threshold))``,
  ``strength`` the rule player's hand strength of the dealt hand (the call curve,
  ``policy.calling.CallCurve``);
- **plays, the candidate model** (shipped, ``OpponentModel.candidates``): the modelled player's
  own candidate moves at the decision (for the ``pimc`` player, the moves it values: the only
  ones it plays), the first its policy's choice; a move has probability
  ``(1 - eps - off) [first] + eps [candidate] / candidates + off / legal``, one ``eps`` a play
  kind (lead, follow, discard), ``off`` a small fixed share for moves off the candidates; or,
  the rank model (``OpponentModel.ranks``), a weight for each place among the candidates;
- **plays, the rule model** (the earlier one, kept for comparison): leads and beating plays the
  mixture ``(1 - eps) [a = rule] + eps / legal``; discards (R9) a softmax over the rule player's
  own order of the cards least worth keeping: the cards at places ``j1 … jk`` of that order have
  probability ``exp(-lam (j1 + … + jk)) / Z``, ``Z`` summing over every ``k``-card discard (an
  elementary symmetric polynomial, by a small dynamic program).

Only decisions with two or more legal choices count. The replay of a deal (:func:`decisions`)
moves the deal on as ``Position.push``, the one move engine, does (its own lean copy of the
state, without the hash key and undo stack: tested to be the position's after every play), and
keeps what makes each seat's own facts: its own discards and what the others' discards against
singles proved (R9). The policy, the
candidates and the hand strength are given to the model by its builder: :func:`rule_model`
here (the rule policy, ``policy.rule``), ``players.ipimc.opponent_model`` for the ``pimc``
player's candidates (this layer does not know the players); the parameters are
fitted by maximum likelihood on self-play records of the players modelled (``train/opponent_fit.py``,
run by ``python -m train.inference_model`` and ``python -m bench.inference``). The viewer's own actions are the same in every sample and are left
out. The weights are the likelihoods to the model's ``temperature`` (calibrated by accuracy on
held-out records), tempered further (``w = L ** beta``, the largest ``beta`` up to it that keeps
the effective sample size at a floor) so a few deals never carry the answer; the
estimates over weighted samples are the PIMC core's (``hidden.pimc``).

>>> from lukfu_solver.cards import parse_cards
>>> round(rule_model().p_call(parse_cards("C19S79M2345M9T159")), 3)  # hand strength 7
0.804
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..cards import ALL_CARDS, CardSet, iter_cards
from ..plays import CLAIM, CLAIM_PLAY, DISCARD, Play
from ..policy.calling import DEFAULT_CALL_CURVE, RULE_MODEL_CALL_CURVE, CallCurve, hand_strength_fast
from ..policy.facts import SeatFacts
from ..policy.rule import rule_move
from ..policy.rule_fast import keep_order_fast, rule_move_fast
from ..rules import beating_plays, can_claim, discard_proves_none_higher, lead_plays
from ..view import SeatView
from .pimc import effective_samples

ESS_SHARE = 1 / 3
"""The floor on the effective sample size, as a share of the samples: below it the weights are
tempered (``L ** beta``) until the effective sample size is back at the floor."""
LEAD, FOLLOW, DISCARD_KIND = "lead", "follow", "discard"
KINDS = (LEAD, FOLLOW, DISCARD_KIND)


class Decision(NamedTuple):
    """One observed play decision: its ``kind`` (lead, follow, discard), whether the seat made
    the policy's choice, and how many legal choices it had (only decisions with two or more);
    for a discard with a keep order, the places of its cards in that order and the hand size;
    with candidates, how many the seat had and whether the move was one (the policy's choice is
    the first)."""

    seat: int
    kind: str
    matched: bool
    legal: int
    places: tuple[int, ...] = ()
    hand: int = 0
    cands: int = 0
    in_cands: bool = False
    rank: int = -1
    """With candidates, the move's place among them (0 the policy's choice; -1 off them)."""


Candidates = Callable[[SeatFacts, Sequence[Play], int], Sequence[Play]]
"""``candidates(facts, legal, discard)``: the moves a modelled player considers at a decision,
its own choice first, from the ``legal`` leads or beating plays, or (``discard`` a size, ``legal``
empty) from the discards of that size."""
OFF_CANDIDATES = 0.01
"""The candidate model's share of moves off the candidates, spread over every legal move: the
modelled player never makes one, another player may, and no deal may weigh exactly 0."""


def log_discard(places: Sequence[int], hand: int, lam: float) -> float:
    """The log-probability of discarding the cards at ``places`` of the keep order (0 first)
    from a hand of ``hand`` cards under the softmax with ``lam`` (see the module notes).

    >>> round(math.exp(log_discard([0], 4, 0.0)), 3), round(math.exp(log_discard([0, 1], 4, 0.0)), 3)
    (0.25, 0.167)
    """
    return -lam * sum(places) - _log_norm(hand, len(places), lam)


@functools.lru_cache(maxsize=4096)
def _log_norm(hand: int, k: int, lam: float) -> float:
    """``log Z`` of :func:`log_discard`: the elementary symmetric polynomial of degree ``k`` of
    ``exp(-lam j)`` over the places ``j`` of a hand of ``hand`` cards (a few dozen distinct
    arguments, so it is computed once each)."""
    e = [1.0] + [0.0] * k  # e[i]: the elementary symmetric polynomial of degree i so far
    for j in range(hand):
        x = math.exp(-lam * j)
        for i in range(min(k, j + 1), 0, -1):
            e[i] += x * e[i - 1]
    return math.log(e[k])


@dataclass(frozen=True)
class OpponentModel:
    """The opponent model (see the module notes): ``policy(facts)`` is the rule move,
    ``strength(hand)`` the calling strength; ``slope``/``threshold`` the call's logistic curve,
    ``eps`` the share of each play kind made off the policy (lead, follow, discard); with
    ``candidates`` the candidate model, else the rule model."""

    policy: Callable[[SeatFacts], Play]
    strength: Callable[[CardSet], float]
    slope: float = DEFAULT_CALL_CURVE.slope
    threshold: float = DEFAULT_CALL_CURVE.threshold
    eps: tuple[float, float, float] = (0.3, 0.3, 0.3)
    order: Callable[[SeatFacts], Sequence[int]] | None = None
    """The rule player's discard order (cards least worth keeping first); None: the mixture."""
    lam: float = 0.5
    candidates: Candidates | None = None
    """The modelled player's candidate moves (:data:`Candidates`); when given, every play kind is
    the candidate mixture ``(1 - eps - off) [first] + eps [candidate] / candidates + off / legal``
    (``off`` :data:`OFF_CANDIDATES`), and ``policy``/``order``/``lam`` are not used."""
    off: float = OFF_CANDIDATES
    """The candidate mixture's share of moves off the candidates."""
    ranks: tuple[tuple[float, ...], ...] | None = None
    """With candidates, the rank model instead of ``eps``: for each play kind, a weight for each
    place among the candidates (0 the policy's choice); a move at place ``r`` of ``n`` candidates
    has probability ``(1 - off) q[r] / (q[0] + … + q[n-1]) + off / legal``."""
    temperature: float = 1.0
    """The exponent of the likelihood in the weights (``w = L ** temperature``), calibrated by
    accuracy on held-out records: below 1 it keeps more samples' worth than the raw likelihood."""
    policy_moves: Callable[[SeatFacts, Sequence[Play]], Play] | None = None
    """``policy`` given the legal moves the replay has listed (the leads, then the claim when
    allowed; or the beating plays): the same move, faster (the rule model's,
    ``policy.rule_fast.rule_move_fast``); None: ``policy`` is asked."""

    def p_call(self, hand: CardSet) -> float:
        """The probability that a seat dealt ``hand`` says *play*."""
        return CallCurve(self.slope, self.threshold).p_play(self.strength(hand))

    def log_call(self, hand: CardSet, call: str) -> float:
        """The log-probability of ``call`` (``play``/``pass``) from a seat dealt ``hand``."""
        p = self.p_call(hand)
        return math.log(max(p if call == "play" else 1 - p, 1e-300))

    def log_decision(self, d: Decision) -> float:
        """The log-probability of one observed play decision."""
        e = self.eps[KINDS.index(d.kind)]
        if d.cands and self.ranks is not None:
            return math.log(rank_p(d, self.ranks[KINDS.index(d.kind)], self.off))
        if d.cands:
            return math.log(candidate_p(d, e, self.off))
        if d.places:
            return log_discard(d.places, d.hand, self.lam)
        return math.log((1 - e) * d.matched + e / d.legal)

    def to_json(self) -> dict[str, Any]:
        """The parameters as JSON data."""
        eps = dict(zip(KINDS, self.eps, strict=True))
        if self.candidates is not None:
            kind: dict[str, Any] = {"play_model": "candidates", "off_candidates": self.off}
            if self.ranks is not None:
                kind = {"play_model": "ranks", "off_candidates": self.off}
                kind["ranks"] = {k: [round(x, 4) for x in q] for k, q in zip(KINDS, self.ranks, strict=True)}
            kind["temperature"] = self.temperature
            return {"slope": self.slope, "threshold": self.threshold, "eps": eps, **kind}
        return {"slope": self.slope, "threshold": self.threshold, "eps": eps, "lam": self.lam}


def candidate_p(d: Decision, e: float, off: float = OFF_CANDIDATES) -> float:
    """The candidate mixture's probability of decision ``d`` with share ``e`` spread over the
    candidates and ``off`` over every legal move (see :class:`OpponentModel`)."""
    return (1 - e - off) * d.matched + e * d.in_cands / d.cands + off / d.legal


def rank_p(d: Decision, q: Sequence[float], off: float = OFF_CANDIDATES) -> float:
    """The rank model's probability of decision ``d`` with place weights ``q`` (see
    :class:`OpponentModel`): the move's place among the seat's candidates, and ``off`` spread
    over every legal move."""
    n = min(d.cands, len(q))
    inside = q[d.rank] / sum(q[:n]) if 0 <= d.rank < n else 0.0
    return (1 - off) * inside + off / d.legal


RULE_FITTED: dict[str, Any] = {
    "slope": RULE_MODEL_CALL_CURVE.slope,
    "threshold": RULE_MODEL_CALL_CURVE.threshold,
    "eps": (0.879, 0.404, 0.410),
    "lam": 0.2,
}
"""The rule model's parameters (the rule player softened: :func:`rule_model`), fitted by maximum
likelihood on self-play records of the level-2 ``pimc`` player: 60 deals, match seed 1901
(``python -m bench.inference``; the figures in ``bench/results/inference.json``, ``fit``). The
discard softness ``lam`` is the exception: its maximum-likelihood value (1.24) made the weights
of whole views collapse onto a few deals and put *less* probability on the true cards than
uniform sampling; it was set to 0.2 by the accuracy on 8 tuning deals (match seed 1902: 0.027
nats a hidden card against 0.015 at 1.24), and the accuracy is reported on other deals
(``docs/inference.md``)."""


def rule_model(**overrides: Any) -> OpponentModel:
    """The rule model: the rule player softened (:data:`RULE_FITTED`, ``overrides`` replace some),
    its moves and discard order by the fast rule policy (``policy.rule_fast``), its call curve
    :data:`~lukfu_solver.policy.calling.RULE_MODEL_CALL_CURVE`. It weighs the deals of
    ``analyse --infer``, of the hint's ``--infer`` and of the ``ipimc`` player's pool."""
    p = {**RULE_FITTED, **overrides}
    eps = tuple(p["eps"])
    return OpponentModel(
        rule_move,
        hand_strength_fast,
        p["slope"],
        p["threshold"],
        eps,  # type: ignore[arg-type]
        keep_order_fast,
        p["lam"],
        temperature=p.get("temperature", 1.0),
        policy_moves=rule_move_fast,
    )


# ---------------------------------------------------------------- replaying a deal


def decisions(
    policy: Callable[[SeatFacts], Play],
    dealt: Sequence[CardSet],
    caller: int,
    plays: Iterable[Play],
    skip: int | None = None,
    order: Callable[[SeatFacts], Sequence[int]] | None = None,
    candidates: Candidates | None = None,
    policy_moves: Callable[[SeatFacts, Sequence[Play]], Play] | None = None,
) -> Iterator[Decision]:
    """Replay the fully known ``plays`` of a deal (hands ``dealt``, every discard's cards shown)
    and yield every decision with two or more legal choices of a seat other than ``skip``: the
    seat's facts are rebuilt as its own view shows them (its hand and discards, the face-up
    cards, and what the other seats' discards against singles proved, R9). With a keep
    ``order``, a discard's decision carries its cards' places in it; with ``candidates``, every
    decision carries the candidates' count and whether the move was one (the policy and order
    are then not asked); with ``policy_moves`` (the same policy given the legal moves listed),
    it is asked instead of ``policy``."""
    return Replay(policy, dealt, caller, skip, order, candidates, policy_moves).advance(plays)


class Replay:
    """A deal's replay that can be continued: :meth:`advance` pushes more plays and yields their
    decisions (see :func:`decisions`, which is one replay run to the end). A seat's facts at a
    decision depend only on the plays before it, so a replay advanced in steps yields exactly the
    decisions of one run over all the plays (the carried pool, ``hidden.carry``, relies on it).

    It keeps the state of the deal itself (hands, the trick, its best play, the face-up cards,
    the fu won, who leads and who is to move), moved on as ``Position.push`` moves a position
    (R8-R10, R14, R15) without the position's hash key and undo stack, which a replay never
    reads: tested to be ``Position``'s state after every play of many games."""

    __slots__ = (
        "policy",
        "skip",
        "order",
        "candidates",
        "own",
        "proved_out",
        "policy_moves",
        "caller",
        "hands",
        "fu",
        "faceup",
        "trick",
        "best_i",
        "leader",
        "to_move",
        "over",
    )

    def __init__(
        self,
        policy: Callable[[SeatFacts], Play],
        dealt: Sequence[CardSet],
        caller: int,
        skip: int | None = None,
        order: Callable[[SeatFacts], Sequence[int]] | None = None,
        candidates: Candidates | None = None,
        policy_moves: Callable[[SeatFacts, Sequence[Play]], Play] | None = None,
    ) -> None:
        self.policy, self.skip, self.order, self.candidates = policy, skip, order, candidates
        self.policy_moves = policy_moves
        self.own = [0, 0, 0]  # each seat's own discards (only it knows their cards)
        self.proved_out = [0, 0, 0]  # the cards each seat's discards against singles proved it lacks (R9)
        self.caller = caller
        self.hands = list(dealt)
        self.fu = [0, 0, 0]
        self.faceup = 0
        self.trick: tuple[Play, ...] = ()
        self.best_i = 0
        self.leader = self.to_move = 0  # the Master leads the first trick (R4)
        self.over = False

    def push(self, move: Play) -> None:
        """Play ``move`` for the seat to move, as ``Position.push`` does: a claim ends the deal
        (R14); a play that is not a discard, after the lead, beats the best play (R8, R9); a full
        trick goes to the seat of its best play, its face-up cards are shown and its winner
        scores the best play's size in fu and leads next (R10); the deal ends when the winner's
        hand is empty (R15)."""
        s = self.to_move
        if move.kind == CLAIM:
            self.over = True
            return
        self.hands[s] ^= move.cards
        trick = self.trick
        if move.kind != DISCARD and trick:
            self.best_i = len(trick)
        trick += (move,)
        if len(trick) < 3:
            self.trick = trick
            self.to_move = (s + 1) % 3
            return
        best_i = self.best_i
        winner = (self.leader + best_i) % 3
        for q in trick:
            if q.kind != DISCARD:
                self.faceup |= q.cards
        self.fu[winner] += trick[best_i].size
        self.trick = ()
        self.best_i = 0
        self.to_move = self.leader = winner
        if not self.hands[winner]:
            self.over = True

    def advance(self, plays: Iterable[Play]) -> Iterator[Decision]:
        """Push ``plays`` (every discard's cards shown) and yield their decisions (see
        :func:`decisions`); the plays after the end of the deal are ignored."""
        own, proved_out, skip, caller, hands = self.own, self.proved_out, self.skip, self.caller, self.hands
        for p in plays:
            if self.over:
                return
            s, trick, best_i, faceup = self.to_move, self.trick, self.best_i, self.faceup
            hand = hands[s]
            if s != skip:
                if not trick:
                    kind = LEAD
                    moves = list(lead_plays(hand, faceup, s == caller, s == 0 and caller != 0))
                    if can_claim(self.fu[s], hand, faceup):
                        moves.append(CLAIM_PLAY)
                    legal = len(moves)
                else:
                    moves = list(beating_plays(hand, trick[best_i], best_i == 0))
                    kind, legal = (
                        (FOLLOW, len(moves)) if moves else (DISCARD_KIND, math.comb(hand.bit_count(), trick[0].size))
                    )
                if legal > 1:
                    yield _decision(self, s, kind, legal, moves, p)
            if p.kind == DISCARD:
                if discard_proves_none_higher(trick[best_i], trick):
                    top = trick[best_i].cards.bit_length() - 1
                    proved_out[s] |= (1 << ((top // 9 + 1) * 9)) - (1 << (top + 1))
                own[s] |= p.cards
            self.push(p)


def _decision(replay: Replay, s: int, kind: str, legal: int, moves: list[Play], p: Play) -> Decision:
    """Seat ``s``'s decision to play ``p`` in the ``replay``'s deal, its facts as its own view shows
    them (the policy, keep order and candidates are the replay's)."""
    hands, trick, proved_out = replay.hands, replay.trick, replay.proved_out
    hand, up = hands[s], 0
    shown = trick
    for i, q in enumerate(trick):
        if q.kind != DISCARD:
            up |= q.cards
        elif (replay.leader + i) % 3 != s:  # another seat's discard shows only its size
            shown = tuple(
                Play(DISCARD, 0, q.size) if q.kind == DISCARD and (replay.leader + j) % 3 != s else q
                for j, q in enumerate(trick)
            )
    faceup = replay.faceup
    unseen = ALL_CARDS & ~(hand | replay.own[s] | faceup | up)
    out = (
        0 if s == 0 or not hands[0] else unseen & ~proved_out[0],
        0 if s == 1 or not hands[1] else unseen & ~proved_out[1],
        0 if s == 2 or not hands[2] else unseen & ~proved_out[2],
    )
    facts = SeatFacts(s, hand, replay.caller, tuple(replay.fu), faceup, faceup | up, out, shown, replay.best_i)
    candidates, order = replay.candidates, replay.order
    if candidates is not None:
        cs = candidates(facts, moves, p.size if kind == DISCARD_KIND else 0)
        rank = cs.index(p) if p in cs else -1
        return Decision(s, kind, cs[0] == p, legal, (), hand.bit_count(), len(cs), rank >= 0, rank)
    if kind == DISCARD_KIND and order is not None:
        ranked = order(facts)
        places = tuple(sorted(ranked.index(c) for c in iter_cards(p.cards)))
        return Decision(s, kind, places == tuple(range(p.size)), legal, places, len(ranked))
    if replay.policy_moves is not None and kind != DISCARD_KIND:
        return Decision(s, kind, replay.policy_moves(facts, moves) == p, legal)
    return Decision(s, kind, replay.policy(facts) == p, legal)


def call_terms(model: OpponentModel, dealt: Sequence[CardSet], caller: int, skip: int | None = None) -> float:
    """The log-likelihood of the calls (R3) that made ``caller`` the caller: every earlier seat
    passed, the caller said *play*; ``skip``'s own call is left out."""
    return sum(model.log_call(dealt[s], "play" if s == caller else "pass") for s in range(caller + 1) if s != skip)


def log_likelihood(model: OpponentModel, view: SeatView, deal: Any) -> float:
    """The log-likelihood of everything the other seats did in ``view`` (their calls and plays)
    if the hidden cards are as in ``deal`` (a ``constraints.Deal`` consistent with the view)."""
    assert view.caller is not None
    dealt = deal.dealt()
    plays = [p for tr in deal.tricks() for p in tr]
    total = call_terms(model, dealt, view.caller, view.seat)
    for d in decisions(
        model.policy, dealt, view.caller, plays, view.seat, model.order, model.candidates, model.policy_moves
    ):
        total += model.log_decision(d)
    return total


# ---------------------------------------------------------------- weights


class Weights(NamedTuple):
    """Importance weights of sampled deals (mean 1): ``ess`` their effective sample size,
    ``raw_ess`` that of the untempered likelihoods, ``beta`` the tempering (1: none; 0: uniform),
    ``floor`` the effective sample size the tempering keeps, ``temperature`` the exponent asked
    (the model's: ``beta`` is below it only when the floor bound)."""

    weights: tuple[float, ...]
    ess: float
    raw_ess: float
    beta: float
    floor: float
    temperature: float = 1.0

    @property
    def tempered(self) -> bool:
        """The likelihoods were tempered below the model's temperature to keep the floor."""
        return self.beta < self.temperature

    def to_json(self) -> dict[str, Any]:
        """The weights' summary as JSON data (not the weights themselves)."""
        return {
            "samples": len(self.weights),
            "ess": round(self.ess, 3),
            "raw_ess": round(self.raw_ess, 3),
            "beta": round(self.beta, 4),
            "floor": round(self.floor, 3),
            "tempered": self.tempered,
            **({"temperature": self.temperature} if self.temperature != 1.0 else {}),
        }


def _powered(logs: Sequence[float], beta: float) -> list[float]:
    top = max(logs)
    w = [math.exp(beta * (x - top)) for x in logs]
    scale = len(w) / sum(w)
    return [x * scale for x in w]


def temper(logs: Sequence[float], share: float = ESS_SHARE, temperature: float = 1.0) -> Weights:
    """Weights from log-likelihoods: ``L ** temperature`` (the likelihoods themselves at 1) when
    their effective sample size is at least ``share`` of the samples (at least 1), else
    ``L ** beta`` with the largest ``beta`` below ``temperature`` (bisection, 40 steps) that keeps
    it there. All equal: every weight exactly 1; ``raw_ess`` is that of ``L ** temperature``.

    >>> temper([0.0, 0.0]).weights
    (1.0, 1.0)
    >>> w = temper([0.0, -50.0, -50.0, -50.0]); round(w.raw_ess, 3), round(w.ess, 2), w.tempered
    (1.0, 1.33, True)
    """
    n = len(logs)
    floor = max(1.0, share * n)
    if n == 0 or max(logs) == min(logs):
        return Weights((1.0,) * n, float(n), float(n), temperature, floor, temperature)
    full = _powered(logs, temperature)
    raw = effective_samples(full)
    if raw >= floor:
        return Weights(tuple(full), raw, raw, temperature, floor, temperature)
    lo, hi = 0.0, temperature
    for _ in range(40):
        mid = (lo + hi) / 2
        if effective_samples(_powered(logs, mid)) >= floor:
            lo = mid
        else:
            hi = mid
    w = _powered(logs, lo) if lo > 0 else [1.0] * n
    return Weights(tuple(w), effective_samples(w), raw, lo, floor, temperature)


def weigh(model: OpponentModel, view: SeatView, deals: Sequence[Any], share: float = ESS_SHARE) -> Weights:
    """The tempered importance weights of ``deals`` (consistent with ``view``) by the model."""
    return temper([log_likelihood(model, view, d) for d in deals], share, model.temperature)


def resample(pool: Sequence[Any], weights: Weights, n: int, rng: random.Random) -> list[Any]:
    """``n`` of the ``pool``'s deals drawn in proportion to their ``weights`` (systematic
    resampling: one uniform draw from ``rng``, then every ``sum / n`` of the weights' running
    sum; a deal may be drawn more than once, and each drawn deal then counts 1), in pool order."""
    step = sum(weights.weights) / n
    u = rng.random() * step
    picked: list[Any] = []
    acc = 0.0
    for d, x in zip(pool, weights.weights, strict=True):
        acc += x
        while u < acc and len(picked) < n:
            picked.append(d)
            u += step
    picked += pool[len(picked) - n :] if len(picked) < n else []
    return picked[:n]
