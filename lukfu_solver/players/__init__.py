"""Engine players behind one small interface: ``random``, ``rule`` and ``pimc``.

A player is any object with a ``name`` that, given its :class:`~lukfu_solver.view.SeatView`,
answers ``"play"``/``"pass"`` in the calling phase (``view.caller is None``) and a
:class:`~lukfu_solver.plays.Play` otherwise — exactly what :func:`~lukfu_solver.game.play_deal`
asks of its players. :func:`make_player` builds one from a short spec:

- ``random`` — uniformly random legal choices (:class:`~lukfu_solver.game.RandomPlayer`);
- ``rule`` / ``rule:T`` — :class:`RulePlayer`, simple principles, calling when its hand's
  strength (Old cards, sure and near-sure winners, sets, runs) reaches ``T``;
- ``pimc`` / ``pimc:L`` — :class:`PimcPlayer`, perfect-information Monte Carlo at level ``L``
  (1–5): samples the hidden cards, evaluates every candidate move in every sample with the
  exact solver (node-limited) or a rule-player playout, and picks the best mean.

Every player is deterministic: the same seed and the same views give the same answers, in any
process (``pimc`` draws each decision's samples from its seed and the view's text, and limits
the solver by nodes, never by time).

>>> from lukfu_solver.game import play_deal
>>> rec = play_deal([make_player("rule"), make_player("random", 1), make_player("rule:4")], seed=3)
>>> sum(rec.outcome.points), rec == play_deal([make_player("rule"), make_player("random", 1), make_player("rule:4")], 3)
(0, True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, NamedTuple, Protocol, runtime_checkable

from ..cards import (
    ALL_CARDS,
    RANK_MASK,
    RUNS9,
    SUIT_MASK9,
    UNBEATABLE_LEAD,
    CardSet,
    format_cards,
    iter_cards,
    old_cards,
)
from ..errors import NotationError
from ..plays import CLAIM, CLAIM_PLAY, DISCARD, RUN, SET, SINGLE, Play
from ..position import Position
from ..rules import beating_plays, can_beat, can_claim, lead_plays, single_leads
from ..view import HAND_SIZE, SeatView


@runtime_checkable
class Player(Protocol):
    """The interface of every player: a ``name`` and an answer for a seat view.

    In the calling phase (``view.caller is None``) the answer is ``"play"`` or ``"pass"``;
    otherwise it is one of ``view.legal_moves()``.
    """

    name: str

    def __call__(self, view: SeatView) -> Play | str: ...


# ================================================================ what a seat knows, as masks


class Ctx(NamedTuple):
    """The facts a rule decision needs, as card masks: from a seat view or a full position.

    ``out[s]`` are the cards seat ``s`` may hold (0 for the seat to move): in a view the unseen
    cards less what the seat's discards proved it did not hold; in a position its actual hand.
    """

    seat: int
    hand: CardSet
    caller: int
    fu: tuple[int, ...]
    faceup: CardSet  # face-up cards of completed tricks (claims, R7)
    seen_up: CardSet  # … and of the trick in progress (Old cards)
    out: tuple[CardSet, CardSet, CardSet]
    trick: tuple[Play, ...]
    best_i: int


def _proves_none_higher(best: Play, trick: Sequence[Play]) -> bool:
    """Whether a discard against ``best`` proves the discarder held no higher card of its suit
    (R9): ``best`` is a single, and not a led C1 or T1, which nothing beats (R8)."""
    return best.kind == SINGLE and not (best is trick[0] and best.cards & UNBEATABLE_LEAD)


def ctx_from_view(view: SeatView) -> Ctx:
    """The rule facts of a view whose seat is to move in the play phase.

    A hidden discard against a single (but a led C1 or T1) proves that the discarding seat held
    no higher card of that suit then, hence none now (R9): those cards are removed from its ``out``.
    """
    assert view.caller is not None
    unseen = view.unseen
    out = [0 if s == view.seat or view.hand_sizes[s] == 0 else unseen for s in range(3)]
    for t, tr in enumerate(view.tricks):
        leader = view.leaders[t]
        best = tr[0]
        for i, p in enumerate(tr):
            s = (leader + i) % 3
            if i and p.kind != DISCARD:
                best = p
            elif i and _proves_none_higher(best, tr) and s != view.seat:
                top = best.cards.bit_length() - 1
                suit_end = (top // 9 + 1) * 9
                out[s] &= ~((1 << suit_end) - (1 << (top + 1)))
    trick = view.trick
    best_i = 0
    for i, p in enumerate(trick):
        if i and p.kind != DISCARD:
            best_i = i
    up = view.faceup
    seen = up
    for p in trick:
        if p.kind != DISCARD:
            seen |= p.cards
    return Ctx(view.seat, view.hand, view.caller, view.fu, up, seen, (out[0], out[1], out[2]), trick, best_i)


def ctx_from_position(pos: Position) -> Ctx:
    """The rule facts of the seat to move in a full position (every hand known)."""
    s = pos.to_move
    h = pos.hands
    out = (0 if s == 0 else h[0], 0 if s == 1 else h[1], 0 if s == 2 else h[2])
    return Ctx(
        s, h[s], pos.caller, tuple(pos.fu), pos.faceup, pos.faceup | pos.trick_faceup, out, pos.trick, pos.best_i
    )


# ================================================================ rule player


DEFAULT_CALL_THRESHOLD = 6.0
"""The rule player calls when its hand strength reaches this. Measured (1,000 deals × 3 seatings,
rule:T against two of the opponent): against random the margin rises to T = 6–6.5 (+1.28) and
falls beyond; against rule:5 T = 5–6.5 are level; 6 is the best of both."""


def _higher(mask: CardSet, c: int) -> CardSet:
    """The cards of ``mask`` of card ``c``'s suit above ``c``."""
    suit_end = (c // 9 + 1) * 9
    return mask & ((1 << suit_end) - (1 << (c + 1)))


def _combo_cards(hand: CardSet) -> tuple[CardSet, CardSet]:
    """The cards of ``hand`` that are in a set (3+ of a rank) and in a run (3+ in suit)."""
    in_set = 0
    for r in range(1, 10):
        m = hand & RANK_MASK[r]
        if m.bit_count() >= 3:
            in_set |= m
    in_run = 0
    for s in range(4):
        for run in RUNS9[(hand >> (9 * s)) & SUIT_MASK9]:
            in_run |= run << (9 * s)
    return in_set, in_run


def hand_strength(hand: CardSet) -> float:
    """A 12-card hand's calling strength: Old cards, plus half a point for each card that only
    one missing card tops, one point for a high set (ranks 6+), half for a lower set or a run.

    Before any play a non-Old card never is a sure winner, so the near-sure cards, the sets and
    the runs (multi-card leads that are hard to beat) stand for the fu still to win.

    >>> from lukfu_solver.cards import parse_cards
    >>> hand_strength(parse_cards("C19S79M2345M9T159"))  # 6 Old, S7 near-sure, run M2345
    7.0
    """
    old = old_cards(hand, 0)
    out = ALL_CARDS & ~hand
    score = float(old.bit_count())
    for c in iter_cards(hand & ~old):
        if _higher(out, c).bit_count() == 1:
            score += 0.5
    for r in range(1, 10):
        m = hand & RANK_MASK[r]
        if m.bit_count() >= 3 and m & ~old:
            score += 1.0 if r >= 6 else 0.5
    for s in range(4):
        m9 = (hand >> (9 * s)) & SUIT_MASK9
        runs = RUNS9[m9]
        if runs and (max(runs, key=int.bit_count) << (9 * s)) & ~old:
            score += 0.5
    return score


def keep_values(hand: CardSet, old: CardSet, out: CardSet) -> dict[int, int]:
    """How much each card of ``hand`` is worth keeping (higher: keep longer).

    Old cards count towards a claim (R14) and are kept longest, then cards of sets and runs
    (multi-card leads), then by how few unseen cards top them, then by rank.
    """
    in_set, in_run = _combo_cards(hand)
    values = {}
    for c in iter_cards(hand):
        b = 1 << c
        rank = c % 9 + 1
        if b & old:
            v = 1000 + rank
        elif b & in_set:
            v = 300 + 10 * rank
        elif b & in_run:
            v = 200 + 10 * rank
        else:
            v = 100 - 25 * _higher(out, c).bit_count() + rank
        values[c] = v
    return values


def _cost(cards: CardSet, values: dict[int, int]) -> int:
    return sum(values[c] for c in iter_cards(cards))


def _pick_discard(hand: CardSet, size: int, values: dict[int, int]) -> Play:
    """The ``size`` cards least worth keeping, face down (R9)."""
    order = sorted(iter_cards(hand), key=lambda c: (values[c], c % 9, c))
    return Play(DISCARD, sum(1 << c for c in order[:size]), size)


def _beat_risk(play: Play, out: CardSet) -> float:
    """A rough chance that one opponent holds a play beating the set or run ``play`` led, from
    the cards ``out`` they may hold (each card taken to be in a given hand with chance 1/2)."""
    risk = 0.0
    k = play.size
    if play.kind == SET:
        ranks = (9,) if play.rank == 1 else range(play.rank + 1, 10)
        for r in ranks:
            c = (out & RANK_MASK[r]).bit_count()
            if c >= k:
                risk += 2 * math.comb(c, k) * 0.5**k
    elif play.kind == RUN:
        for s in range(play.suit, 4):
            for run in RUNS9[(out >> (9 * s)) & SUIT_MASK9]:
                if run.bit_count() == k and (s > play.suit or run.bit_length() > play.rank):
                    risk += 2 * 0.5**k
    return min(risk, 1.0)


def rule_call(hand: CardSet, threshold: float = DEFAULT_CALL_THRESHOLD) -> str:
    """The rule player's call: ``play`` when :func:`hand_strength` reaches ``threshold``."""
    return "play" if hand_strength(hand) >= threshold else "pass"


def rule_move(ctx: Ctx) -> Play:
    """The rule player's move for the seat to move (see :class:`RulePlayer`)."""
    if ctx.trick:
        return _rule_follow(ctx)
    return _rule_lead(ctx)


def _rule_lead(ctx: Ctx) -> Play:
    s, hand, faceup = ctx.seat, ctx.hand, ctx.faceup
    is_caller = s == ctx.caller
    old = old_cards(hand, faceup)
    o1, o2 = ctx.out[(s + 1) % 3], ctx.out[(s + 2) % 3]
    out = o1 | o2
    leads = list(lead_plays(hand, faceup, is_caller, s == 0 and ctx.caller != 0))
    # 1. cash a lead nobody can beat that adds to the total (non-Old cards), largest gain first
    best: tuple[int, int, Play] | None = None
    for p in leads:
        gain = p.size - (p.cards & old).bit_count()
        if gain > 0 and not can_beat(o1, p, True) and not can_beat(o2, p, True):
            key = (gain, -p.rank)
            if best is None or key > best[:2]:
                best = (gain, -p.rank, p)
    if best is not None:
        return best[2]
    # 2. claim when allowed and nothing is sure to add to it (R14)
    if can_claim(ctx.fu[s], hand, faceup):
        return CLAIM_PLAY
    values = keep_values(hand, old, out)
    # 3. a set or run that is probably not beaten, most expected fu first
    multi: tuple[float, Play] | None = None
    for p in leads:
        if p.kind == SINGLE or not p.cards & ~old:
            continue
        risk = _beat_risk(p, out)
        if risk < 0.25:
            score = (1 - risk) * p.size
            if multi is None or score > multi[0]:
                multi = (score, p)
    if multi is not None:
        return multi[1]
    # 4. a single: a near-sure winner (one unseen card tops it); for the caller an Old single
    # (it keeps the lead); else the card least worth keeping
    singles = single_leads(hand, faceup, is_caller)
    near = [c for c in iter_cards(singles & ~old) if _higher(out, c).bit_count() <= 1]
    if near:
        c = min(near, key=lambda c: (_higher(out, c).bit_count(), -(c % 9), c))
        return Play(SINGLE, 1 << c, 1)
    if is_caller and old:
        c = min(iter_cards(old), key=lambda c: (c % 9, c))
        return Play(SINGLE, 1 << c, 1)
    pool = singles & ~old or singles
    c = min(iter_cards(pool), key=lambda c: (values[c], c % 9, c))
    return Play(SINGLE, 1 << c, 1)


def _rule_follow(ctx: Ctx) -> Play:
    s, hand, trick = ctx.seat, ctx.hand, ctx.trick
    best = trick[ctx.best_i]
    old = old_cards(hand, ctx.seen_up)
    nxt = (s + 1) % 3
    out = ctx.out[nxt] | ctx.out[(s + 2) % 3]
    values = keep_values(hand, old, out)
    beating = list(beating_plays(hand, best, ctx.best_i == 0))
    if not beating:
        return _pick_discard(hand, trick[0].size, values)
    last = len(trick) == 2
    chosen: tuple[int, int, int, Play] | None = None
    for p in beating:
        sure = last or not can_beat(ctx.out[nxt], p, False)
        key = (0 if sure else 1, _cost(p.cards, values), p.cards)
        if chosen is None or key < chosen[:3]:
            chosen = (*key, p)
    assert chosen is not None
    return chosen[3]


class RulePlayer:
    """A rule-based player: a baseline, and the playout policy of :class:`PimcPlayer`.

    - **Calling:** ``play`` when :func:`hand_strength` (Old cards, near-sure winners, sets,
      runs) reaches ``threshold``.
    - **Leading:** first cash a play nobody can beat that adds to its total (a non-Old single
      above every card others may hold, an unbeatable set or run); then claim when allowed
      (R14) — playing on only while such sure gains remain; then a set or run that is
      probably not beaten; then a near-sure single; then, for the caller, an Old single (it
      wins and keeps the lead); else the single least worth keeping (within R7's choice for a
      non-caller).
    - **Following:** when it must beat (R9), the cheapest play that surely wins the trick (the
      last follower always does; the first when the next seat cannot beat it), else the
      cheapest play; Old cards and set/run cards count as dear. R9 forces a beat even over a
      partner's winning play, so a non-caller never overtakes needlessly: only by force, and
      then as cheaply as it can. When it cannot beat, it discards the cards least worth keeping:
      low, isolated, non-Old ones, keeping Old cards, sets and runs.
    """

    def __init__(self, threshold: float = DEFAULT_CALL_THRESHOLD, name: str | None = None) -> None:
        self.threshold = threshold
        self.name = name or ("rule" if threshold == DEFAULT_CALL_THRESHOLD else f"rule:{threshold:g}")

    def __call__(self, view: SeatView) -> Play | str:
        if view.caller is None:
            return rule_call(view.hand, self.threshold)
        return rule_move(ctx_from_view(view))


def rule_playout(pos: Position) -> int:
    """The caller's net points when every seat plays the rule policy from ``pos`` to the end,
    each seeing all hands (a perfect-information playout: PIMC's evaluation when the exact
    solver cannot finish). ``pos`` is left unchanged."""
    p = pos.copy()
    while p.outcome is None:
        p.push(rule_move(ctx_from_position(p)))
    return p.outcome.points[p.caller]


# ================================================================ sampling


def _as_position(sample: Any) -> Position:
    """A sample as a Position: a Position, or a ``sampling.Deal`` (its ``position()``)."""
    if isinstance(sample, Position):
        return sample
    pos = sample.position() if callable(getattr(sample, "position", None)) else getattr(sample, "position", None)
    if isinstance(pos, Position):
        return pos
    raise TypeError(f"cannot use a sample of type {type(sample).__name__} as a position")


class QuickSampler:
    """A fast, approximately uniform sampler for views with many hidden discards, where the exact
    ``sampling.Sampler`` can take seconds to set up (see ``QUICK_AFTER``).

    Same interface (``QuickSampler(view, seed).samples(n)``, here returning positions). Deals the
    unseen cards at random over the other hands and their hidden discards, never placing a card
    where a discard against a single (but a led C1 or T1) proves it was not (R9) — a random perfect matching of cards
    to places, so it never gets stuck — then replays the history on the deal and rejects it if a
    play is illegal (R7, R9 against sets and runs). After ``MAX_TRIES`` rejections in a row it
    keeps an unchecked deal (``unchecked``).
    """

    MAX_TRIES = 200

    def __init__(self, view: SeatView, seed: int = 0) -> None:
        self.view = view
        self.rng = random.Random(seed)
        self.unchecked = 0
        self.method = "quick"
        sizes: list[int] = []
        owner: list[int] = []
        where: list[tuple[int, int] | None] = []  # (trick, play) of a hidden discard; None: a hand
        for s in range(3):
            if s != view.seat:
                sizes.append(view.hand_sizes[s])
                owner.append(s)
                where.append(None)
        for t, tr in enumerate(view.tricks):
            for i, p in enumerate(tr):
                if p.hidden:
                    sizes.append(p.size)
                    owner.append((view.leaders[t] + i) % 3)
                    where.append((t, i))
        barred = [0] * len(sizes)
        for t, tr in enumerate(view.tricks):
            best = tr[0]
            for i, p in enumerate(tr):
                if i and p.kind != DISCARD:
                    best = p
                elif i and p.hidden and _proves_none_higher(best, tr):
                    s = (view.leaders[t] + i) % 3
                    above = _higher(ALL_CARDS, best.cards.bit_length() - 1)
                    for k in range(len(sizes)):  # not in s's holding then: its hand now, its later discards
                        w = where[k]
                        if owner[k] == s and (w is None or w >= (t, i)):
                            barred[k] |= above
        self.sizes, self.owner, self.where, self.barred = sizes, owner, where, barred

    def _deal(self) -> list[CardSet] | None:
        """A random assignment of the unseen cards to the places' slots that respects the bars.

        Keeps a perfect matching of cards to slots; fixes the cards one at a time (random order)
        to a random allowed slot, repairing the matching by an augmenting path, so it never
        paints itself into a corner. None only if no assignment exists.
        """
        rng = self.rng
        cards = list(iter_cards(self.view.unseen))
        slot_place = [k for k, n in enumerate(self.sizes) for _ in range(n)]
        if len(slot_place) != len(cards):
            return None
        allowed = [[x for x, k in enumerate(slot_place) if not self.barred[k] >> c & 1] for c in cards]
        for a in allowed:
            rng.shuffle(a)
        n = len(cards)
        slot_of = [-1] * n  # card index -> slot
        card_at = [-1] * n  # slot -> card index
        fixed = [False] * n  # by slot

        def augment(i: int, seen: list[bool]) -> bool:
            for x in allowed[i]:
                if fixed[x] or seen[x]:
                    continue
                seen[x] = True
                j = card_at[x]
                if j < 0 or augment(j, seen):
                    slot_of[i], card_at[x] = x, i
                    return True
            return False

        for i in range(n):
            if not augment(i, [False] * n):
                return None
        for i in rng.sample(range(n), n):
            for x in allowed[i]:
                if fixed[x]:
                    continue
                if slot_of[i] == x:
                    fixed[x] = True
                    break
                j, old = card_at[x], slot_of[i]
                # move i to x; j (x's card) must find another slot, ending at i's old slot
                card_at[old], slot_of[i], card_at[x], slot_of[j] = -1, x, i, -1
                fixed[x] = True
                seen = [False] * n
                seen[x] = True
                if augment(j, seen):
                    break
                fixed[x] = False
                card_at[x], slot_of[j], slot_of[i], card_at[old] = j, x, old, i
        got = [0] * len(self.sizes)
        for i, c in enumerate(cards):
            got[slot_place[slot_of[i]]] |= 1 << c
        return got

    def _position(self, got: list[CardSet], check: bool) -> Position | None:
        v = self.view
        assert v.caller is not None
        hands = [0, 0, 0]
        hands[v.seat] = v.hand
        fill = {}
        for k, w in enumerate(self.where):
            if w is None:
                hands[self.owner[k]] = got[k]
            else:
                fill[w] = got[k]
        plays = []
        dealt = list(hands)
        for t, tr in enumerate(v.tricks):
            for i, p in enumerate(tr):
                q = Play(DISCARD, fill[(t, i)], p.size) if p.hidden else p
                plays.append(q)
                dealt[(v.leaders[t] + i) % 3] |= q.cards
        pos = Position.start(dealt, v.caller)
        for p in plays:
            if check and not pos.is_legal(p):
                return None
            pos.push(p)
        return pos.copy()

    def samples(self, n: int) -> list[Position]:
        """``n`` positions consistent with the view (approximately uniform)."""
        out: list[Position] = []
        while len(out) < n:
            pos = None
            for _ in range(self.MAX_TRIES):
                got = self._deal()
                pos = self._position(got, check=True) if got is not None else None
                if pos is not None:
                    break
            if pos is None:
                self.unchecked += 1
                got = self._deal()
                if got is None:
                    raise NotationError("view", "no deal fits the view's discards")
                pos = self._position(got, check=False)
                assert pos is not None
            out.append(pos)
        return out


def _sampler(view: SeatView, seed: int) -> Any:
    """The exact ``sampling.Sampler``, or :class:`QuickSampler` when more than ``QUICK_AFTER``
    cards lie in hidden discards (the exact one's setup time explodes there)."""
    hidden = sum(p.size for tr in view.tricks for p in tr if p.hidden)
    if hidden > QUICK_AFTER:
        return QuickSampler(view, seed)
    from ..hidden.sampling import Sampler

    return Sampler(view, seed)


QUICK_AFTER = 14
"""PIMC samples with :class:`QuickSampler` when more cards than this lie in hidden discards.
Measured setup of the exact sampler (views from pimc-vs-rule games): at most 0.09 s up to 14
hidden cards, 0.4 s at 17, 0.5–7 s at 17–22 (a five-fold rise per trick in the worst deal)."""


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


# ================================================================ registry


PLAYER_KINDS = ("random", "rule", "pimc")
SPEC_HELP = "random | rule[:T] (call threshold) | pimc[:L[:C]] (level 1-5, call calibration C)"


def make_player(spec: str, seed: int = 0) -> Player:
    """A player from its spec: ``random``, ``rule``, ``rule:T``, ``pimc``, ``pimc:L``, ``pimc:L:C``
    (``C`` points added to PIMC's value of calling; ``pimc:3:0`` is the uncalibrated player).

    ``seed`` seeds the player's random choices (``random``'s moves, ``pimc``'s samples). A bad
    spec raises NotationError("player", …).

    >>> [make_player(s).name for s in ("random", "rule", "rule:4.5", "pimc", "pimc:1", "pimc:3:0")]
    ['random', 'rule', 'rule:4.5', 'pimc', 'pimc:1', 'pimc:3:0']
    """
    from ..game import RandomPlayer

    text = spec.strip().lower()
    kind, _, arg = text.partition(":")
    if kind == "random" and not arg:
        return RandomPlayer(seed)
    if kind == "rule":
        if not arg:
            return RulePlayer()
        try:
            t = float(arg)
        except ValueError:
            raise NotationError("player", f"rule:T needs a number T (the call threshold), got {arg!r}") from None
        if not 0 <= t <= 20:
            raise NotationError("player", f"rule call threshold {t:g} outside 0-20")
        return RulePlayer(t)
    if kind == "pimc":
        if not arg:
            return PimcPlayer(DEFAULT_LEVEL, seed)
        level, _, cal = arg.partition(":")
        if not (level.isascii() and level.isdigit()) or int(level) not in LEVELS:
            raise NotationError("player", f"pimc:L needs a level 1-5, got {level!r}")
        if not cal:
            return PimcPlayer(int(level), seed)
        try:
            c = float(cal)
        except ValueError:
            raise NotationError("player", f"pimc:L:C needs a number C (the call calibration), got {cal!r}") from None
        if not -10 <= c <= 10:
            raise NotationError("player", f"pimc call calibration {c:g} outside -10..10")
        return PimcPlayer(int(level), seed, calibration=c)
    raise NotationError("player", f"unknown player {spec!r} (players: {SPEC_HELP})")


def player_factory(spec: str) -> Callable[[int], Player]:
    """A checked spec as a function of the seed (the spec is validated now)."""
    make_player(spec, 0)
    return lambda seed: make_player(spec, seed)


__all__ = [
    "CALL_CALIBRATION",
    "DEFAULT_LEVEL",
    "LEVELS",
    "PLAYER_KINDS",
    "SPEC_HELP",
    "Analysis",
    "Ctx",
    "MoveValue",
    "PimcPlayer",
    "QuickSampler",
    "Player",
    "RulePlayer",
    "ctx_from_position",
    "ctx_from_view",
    "hand_strength",
    "keep_values",
    "make_player",
    "rule_call",
    "rule_move",
    "rule_playout",
]
