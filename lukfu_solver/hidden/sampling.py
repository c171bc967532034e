"""Uniform sampling of the deals consistent with a seat view: every consistent deal equally likely.

CP-SAT states the constraints (:mod:`lukfu_solver.hidden.constraints`) but is not a uniform sampler, so
:class:`Sampler` counts and samples exactly:

1. **Exact part, by counting.** A discard against a single (and any limit that leaves no room) is
   a per-card rule: "card c was not in seat s's places from trick t on". A seat's places are
   ordered by trick (hand last), so these rules cut a seat's places into a few groups that accept
   the same cards; places of a group are merged into one **super-place** (the cards of a group
   are split among its places uniformly at the end, a constant number of ways per deal). An R7
   lead is exact too: a suit's Old condition says the leader held the suit's chain from the top
   down without a gap, which a dynamic program checks card by card, highest first, with one
   "gap seen" flag per lead, plus one "lead was Old" mode bit per lead whose Oldness is unknown
   and one "a card above the lead was missing" flag for the lead's suit when it was not Old.
   The program runs over the hidden cards with the state (remaining capacity of every
   super-place, flags) and counts the completions of every state (Python ints, exact however
   large). A draw is one random number below the total count, unranked down the program: each
   card's place comes with exactly the probability of its completions, so every deal of the
   exact part has the same chance. Building the table costs milliseconds; a draw, microseconds.
   A limit that some cards can only meet by lying in the holding is propagated first (those
   cards count against it; a limit used up forbids the holding to the others).
2. **Rejection.** Discards against sets and runs whose limits leave room ("not three 7s", "no
   three-card run above S345") are checked on the draw (with :func:`rules.can_beat`) and the
   draw is rejected if one fails. Rejection keeps uniformity; ``attempts``/``accepted`` give the
   acceptance rate.
3. **Fallback.** After ``budget`` attempts with acceptance below ``min_rate``, CP-SAT enumerates
   the consistent deals (up to ``enum_limit``, for at most ``enum_seconds``); if they are all
   found, samples are drawn from the sorted list (exactly uniform). If there are none, the view
   is infeasible: NotationError("view", explain_infeasible). Otherwise rejection goes on: some
   deal is consistent, so acceptance is above 0 and, every attempt being independent, sampling
   ends with probability 1 (with ``enum_limit`` deals found, acceptance is at least
   ``enum_limit`` over the exact part's count).

A view whose exact part already admits no deal raises NotationError("view", …) at once. The
seed makes everything reproducible: the same view and seed give the same deals in any process.

>>> s = Sampler(SeatView.parse("0 C9S156M249T249 0 T1,x1,x1/S2,S9,x1"), seed=1)
>>> d = s.sample(); d.position().hands[0] == s.problem.view.hand
True
>>> [x.key for x in Sampler(s.problem.view, 7).samples(3)] == [x.key for x in Sampler(s.problem.view, 7).samples(3)]
True
"""

from __future__ import annotations

import math
import random
import time
from bisect import bisect_right
from collections.abc import Callable
from typing import Any, NamedTuple

from ..cards import CardSet, iter_cards
from ..errors import NotationError
from ..i18n import _
from ..rules import can_beat
from ..view import SeatView
from .constraints import (
    HIDDEN,
    IN,
    OUT,
    Deal,
    Discard,
    Lead,
    Problem,
    _enumerate,
    derive,
    discard_limits,
    explain_infeasible,
    is_consistent,
    lead_chains,
)

__all__ = ["Deal", "Sampler"]


_BINOM = [[math.comb(n, k) for k in range(37)] for n in range(37)]
"""_BINOM[n][k] = n choose k, for splitting a super-place's cards among its places."""


_Move = tuple[int, tuple[int, ...], int]
"""A move of the program: the super-place a card goes to (−1: none) and the next state (caps, flags)."""
_Entry = tuple[int, list[int], list[_Move]]
"""A state's completions: their number, the cumulative numbers by move, and the moves."""


class _Effect(NamedTuple):
    """How one card of a R7 chain acts on lead ``r``'s flags (see :class:`_Plan`)."""

    r: int
    status: int  # HIDDEN, IN or OUT for the leader's holding
    always: bool  # the suit is above the lead's: its chain must hold whatever the lead
    old: int  # the lead's Oldness: IN (chain must hold), OUT (it need not), HIDDEN (mode bit r)
    witness: bool  # a hidden card above the lead in its suit: missing, it shows the lead not Old
    inside: int  # super-places of the leader's holding at that trick (bit mask)


class _Step(NamedTuple):
    """One step of the program: place a hidden ``card`` (``card`` ≥ 0), note a known chain card,
    choose a mode bit (``mode`` ≥ 0), or end a suit block (``end`` true)."""

    card: int
    allowed: int
    effects: tuple[_Effect, ...]
    mode: int = -1
    end: bool = False
    witness_modes: int = 0  # at a block end: leads whose "not Old" mode needs the witness flag
    keep: int = 0  # at a block end: the flag bits kept after it


class _Plan:
    """The counting program of a problem: super-places, steps and the completion counts."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        places = problem.places
        hidden = problem.hidden
        self.infeasible = False
        forbid: dict[tuple[int, int], CardSet] = {}
        self.checks: list[Discard] = []  # discards checked on each draw (rejection)
        partial: list[tuple[Discard, list[Any]]] = []
        leads: list[Lead] = []
        for con in problem.constraints:
            if isinstance(con, Lead):
                leads.append(con)
                continue
            rest = []
            for lim in discard_limits(con, hidden):
                if lim.limit < 0:
                    self.infeasible = True
                elif lim.limit == 0:
                    forbid[lim.seat, lim.trick] = forbid.get((lim.seat, lim.trick), 0) | lim.cards
                else:
                    rest.append(lim)
            if rest:
                partial.append((con, rest))
        # super-places: a seat's places between two boundaries accept the same cards
        bounds: dict[int, set[int]] = {}
        # (the seats and tricks of partial limits too, so their checks see whole super-places)
        for s, t in list(forbid) + [(c.seat, c.trick) for c in leads] + [(c.seat, c.trick) for c, _limit in partial]:
            bounds.setdefault(s, set()).add(t)
        groups: dict[tuple[int, int], list[int]] = {}
        for j, p in enumerate(places):
            g = sum(1 for t in bounds.get(p.seat, ()) if t <= p.trick)
            groups.setdefault((p.seat, g), []).append(j)
        self.members = [tuple(js) for _, js in sorted(groups.items())]
        self.caps = tuple(sum(places[j].size for j in js) for js in self.members)
        n = len(self.members)
        first = [places[js[0]] for js in self.members]

        def inside(seat: int, trick: int) -> int:
            return sum(1 << q for q in range(n) if first[q].seat == seat and first[q].trick >= trick)

        full = (1 << n) - 1
        allowed = {c: full for c in iter_cards(hidden)}
        for (s, t), cards in forbid.items():
            h = inside(s, t)
            for c in iter_cards(cards):
                allowed[c] &= ~h
        # propagate the partial limits: a card that can only lie in the holding counts against the
        # limit; a limit used up forbids the holding to the other cards (to a fixpoint)
        changed = True
        while changed:
            changed = False
            for con, rest in partial:
                h = inside(con.seat, con.trick)
                for lim in rest:
                    cards = [c for c in iter_cards(lim.cards) if allowed[c] & h]
                    forced = [c for c in cards if not allowed[c] & ~h]
                    if len(forced) > lim.limit:
                        self.infeasible = True
                    elif len(forced) == lim.limit and len(cards) > len(forced):
                        for c in cards:
                            if allowed[c] & ~h:
                                allowed[c] &= ~h
                        changed = True
        self.allowed = allowed
        # a partial limit whose cards cannot all be held beyond it needs no check
        for con, rest in partial:
            h = inside(con.seat, con.trick)
            if any(sum(1 for c in iter_cards(lim.cards) if allowed[c] & h) > lim.limit for lim in rest):
                self.checks.append(con)
        self.check_supers = [[q for q in range(n) if inside(c.seat, c.trick) >> q & 1] for c in self.checks]
        self.steps, self.nflags = self._steps(leads, inside)
        self.memo: list[dict[tuple[tuple[int, ...], int], _Entry]] = [{} for _ in range(len(self.steps) + 1)]
        self._avail()
        self.start = (self.caps, 0)
        self.total = 0 if self.infeasible else self._count(0, self.caps, 0)
        if self.total:
            self._compile()
        self.splits = 1
        for js in self.members:
            self.splits *= math.factorial(sum(places[j].size for j in js))
            for j in js:
                self.splits //= math.factorial(places[j].size)

    # ------------------------------------------------------------ building

    def _steps(self, leads: list[Lead], inside: Callable[[int, int], int]) -> tuple[list[_Step], int]:
        """The steps: mode choices, the R7 suit blocks (highest card first), then the free cards."""
        hidden = self.problem.hidden
        nr = len(leads)
        chains = [lead_chains(con, hidden) for con in leads]
        steps: list[_Step] = []
        for r, lc in enumerate(chains):
            if lc.old == HIDDEN:
                steps.append(_Step(-1, 0, (), mode=r))
        suits_of: list[set[int]] = []  # the suits whose chains matter for each lead
        for lc in chains:
            ss = {s for s in range(4) if s > lc.lead_suit or lc.old != OUT}
            suits_of.append(ss)
        block_suits = sorted(set().union(*suits_of), reverse=True) if suits_of else []
        last_use = {r: min(ss) for r, ss in enumerate(suits_of) if ss}  # a lead's lowest block
        done_cards = 0
        for suit in block_suits:
            effects_of: dict[int, list[_Effect]] = {}
            for r, lc in enumerate(chains):
                if suit not in suits_of[r]:
                    continue
                h = inside(leads[r].seat, leads[r].trick)
                lead = leads[r].lead.cards.bit_length() - 1
                for c, st in lc.chains[suit]:
                    wit = suit == lc.lead_suit and lc.old == HIDDEN and c > lead and st == HIDDEN
                    effects_of.setdefault(c, []).append(_Effect(r, st, suit > lc.lead_suit, lc.old, wit, h))
            for c in range(9 * suit + 8, 9 * suit - 1, -1):
                if hidden >> c & 1:
                    steps.append(_Step(c, self.allowed[c], tuple(effects_of.get(c, ()))))
                    done_cards |= 1 << c
                elif c in effects_of:
                    steps.append(_Step(-1, 0, tuple(effects_of[c])))
            wm = 0
            for r, lc in enumerate(chains):
                if lc.old == HIDDEN and lc.lead_suit == suit:
                    wm |= 1 << r
            keep = 0
            for r in range(nr):
                if r in last_use and last_use[r] < suit:  # used by a later (lower) block
                    keep |= 1 << r
            steps.append(_Step(-1, 0, (), end=True, witness_modes=wm, keep=keep))
        free = [c for c in iter_cards(hidden & ~done_cards)]
        free.sort(key=lambda c: (self.allowed[c].bit_count(), self.allowed[c], c))
        steps.extend(_Step(c, self.allowed[c], ()) for c in free)
        return steps, nr

    def _avail(self) -> None:
        """avail[i][q]: the hidden cards of steps i… that super-place q may take (for pruning)."""
        n = len(self.caps)
        cur = [0] * n
        avail = [tuple(cur)]
        for step in reversed(self.steps):
            if step.card >= 0:
                for q in range(n):
                    if step.allowed >> q & 1:
                        cur[q] += 1
            avail.append(tuple(cur))
        avail.reverse()
        self.avail = avail

    # ------------------------------------------------------------ counting

    def _moves(self, step: _Step, caps: tuple[int, ...], flags: int) -> list[_Move]:
        """The moves of a step from a state: ``(super-place or -1, caps, flags)``."""
        nr = self.nflags
        if step.mode >= 0:
            return [(-1, caps, flags), (-1, caps, flags | 1 << step.mode)]
        if step.end:
            for r in range(nr):
                if step.witness_modes >> r & 1 and not flags >> r & 1 and not flags >> (2 * nr + r) & 1:
                    return []
            return [(-1, caps, flags & step.keep)]
        if step.card < 0:  # a known chain card: IN needs no gap above; OUT opens a gap
            for e in step.effects:
                if e.always or e.old == IN or (e.old == HIDDEN and flags >> e.r & 1):
                    if e.status == IN:
                        if flags >> (nr + e.r) & 1:
                            return []
                    else:
                        flags |= 1 << (nr + e.r)
            return [(-1, caps, flags)]
        out = []
        a = step.allowed
        while a:
            low = a & -a
            q = low.bit_length() - 1
            a ^= low
            if not caps[q]:
                continue
            nf = flags
            ok = True
            for e in step.effects:
                inside = e.inside >> q & 1
                if e.always or e.old == IN or (e.old == HIDDEN and nf >> e.r & 1):
                    if inside:
                        if nf >> (nr + e.r) & 1:
                            ok = False
                            break
                    else:
                        nf |= 1 << (nr + e.r)
                elif e.witness and not inside:
                    nf |= 1 << (2 * nr + e.r)
            if ok:
                out.append((q, caps[:q] + (caps[q] - 1,) + caps[q + 1 :], nf))
        return out

    def _count(self, i: int, caps: tuple[int, ...], flags: int) -> int:
        """The number of completions from step ``i`` in state ``(caps, flags)`` (memoised)."""
        memo = self.memo[i]
        key = (caps, flags)
        got = memo.get(key)
        if got is not None:
            return got[0]
        if i == len(self.steps):
            total = 1
            memo[key] = (1, [], [])
            return total
        avail = self.avail[i]
        for q, cap in enumerate(caps):
            if cap > avail[q]:
                memo[key] = (0, [], [])
                return 0
        cum: list[int] = []
        targets: list[_Move] = []
        total = 0
        for move in self._moves(self.steps[i], caps, flags):
            n = self._count(i + 1, move[1], move[2])
            if n:
                total += n
                cum.append(total)
                targets.append(move)
        memo[key] = (total, cum, targets)
        return total

    def _compile(self) -> None:
        """Number the reachable states with deals left and keep, for each, its moves' cumulative
        counts, super-places and next states: a draw then walks plain lists."""
        self.cum: list[list[int]] = []
        self.where: list[list[int]] = []
        self.next: list[list[int]] = []
        self.step_cards = [step.card for step in self.steps]
        ids: dict[tuple[int, tuple[int, ...], int], int] = {}
        order = [(0, self.start[0], self.start[1])]
        ids[order[0]] = 0
        for i, caps, flags in order:  # grows while iterating: breadth first over the steps
            _count, cum, targets = self.memo[i][caps, flags]
            nxt = []
            for _n, caps2, flags2 in targets:
                key = (i + 1, caps2, flags2)
                if key not in ids:
                    ids[key] = len(order)
                    order.append(key)
                nxt.append(ids[key])
            self.cum.append(cum)
            self.where.append([t[0] for t in targets])
            self.next.append(nxt)
        self.memo = []  # no longer needed

    def draw(self, rng: random.Random) -> tuple[list[CardSet], int]:
        """One uniform draw of the exact part: the cards of every super-place, and a uniform number
        below ``splits`` that says how to split them among their places (:meth:`split`).

        One random number below the count is unranked down the steps: each move takes as many
        numbers as it has completions, so every completion has exactly one number.
        """
        got = [0] * len(self.caps)
        node = 0
        rank, split_rank = divmod(rng.randrange(self.total * self.splits), self.splits)
        cums, wheres, nexts = self.cum, self.where, self.next
        for card in self.step_cards:
            cum = cums[node]
            k = 0
            if len(cum) > 1:
                k = bisect_right(cum, rank)
                if k:
                    rank -= cum[k - 1]
            q = wheres[node][k]
            if q >= 0:
                got[q] |= 1 << card
            node = nexts[node][k]
        return got, split_rank

    def split(self, got: list[CardSet], rank: int) -> tuple[CardSet, ...]:
        """The cards of every place: each super-place's cards split among its places, the split
        being number ``rank`` (below ``splits``) in a fixed order of all splits."""
        places = self.problem.places
        cards = [0] * len(places)
        for q, js in enumerate(self.members):
            if len(js) == 1:
                cards[js[0]] = got[q]
                continue
            pool = []
            m = got[q]
            while m:
                low = m & -m
                pool.append(low)
                m ^= low
            for j in js[:-1]:
                k = places[j].size
                n = len(pool)
                rank, r = divmod(rank, _BINOM[n][k])
                chosen = 0
                rest = []
                for i, b in enumerate(pool):  # the r-th k-subset of pool, in lexicographic order
                    if k:
                        c = _BINOM[n - i - 1][k - 1]
                        if r < c:
                            chosen |= b
                            k -= 1
                            continue
                        r -= c
                    rest.append(b)
                cards[j] = chosen
                pool = rest
            cards[js[-1]] = sum(pool)
        return tuple(cards)

    def accepts(self, got: list[CardSet]) -> bool:
        """True when every discard left to rejection holds for the draw (super-places' cards)."""
        for con, qs in zip(self.checks, self.check_supers, strict=True):
            held = con.known_in
            for q in qs:
                held |= got[q]
            if can_beat(held, con.best, con.best_led):
                return False
        return True


class Sampler:
    """Uniform random deals consistent with ``view`` (see the module doc for the method).

    ``sample()`` returns one :class:`~lukfu_solver.hidden.constraints.Deal`, ``samples(n)`` a list; draws
    are independent. ``attempts`` and ``accepted`` count the draws of the rejection step,
    ``method`` says how samples are drawn now (``exact``, ``rejection`` or ``enumeration``),
    ``stats()`` reports it all, ``samples_per_s`` the speed. ``seed`` seeds ``random.Random``.
    """

    def __init__(
        self,
        view: SeatView,
        seed: int | None = None,
        *,
        budget: int = 2000,
        min_rate: float = 1e-3,
        enum_limit: int = 10_000,
        enum_seconds: float = 60.0,
    ) -> None:
        t0 = time.perf_counter()
        self.problem = derive(view)
        self.rng = random.Random(seed)
        self.budget = budget
        self.min_rate = min_rate
        self.enum_limit = enum_limit
        self.enum_seconds = enum_seconds
        self._plan = _Plan(self.problem)
        self.attempts = 0
        self.accepted = 0
        self.seconds = 0.0
        self.drawn = 0
        self._list: list[tuple[CardSet, ...]] | None = None
        self._fell_back = False
        if self._plan.total == 0:
            raise NotationError("view", explain_infeasible(view) or _("no deal fits the view"))
        self.method = "rejection" if self._plan.checks else "exact"
        self.setup_seconds = time.perf_counter() - t0

    @property
    def view(self) -> SeatView:
        """The view sampled."""
        return self.problem.view

    @property
    def exact_count(self) -> int:
        """The number of deals that satisfy the exact part (all constraints but the rejected ones)."""
        return self._plan.total * self._plan.splits

    @property
    def count(self) -> int | None:
        """The number of consistent deals when known exactly (no rejection, or enumerated), else None."""
        if self._list is not None:
            return len(self._list)
        return self.exact_count if not self._plan.checks else None

    @property
    def acceptance(self) -> float | None:
        """accepted / attempts of the rejection step (None before any attempt)."""
        return self.accepted / self.attempts if self.attempts else None

    @property
    def samples_per_s(self) -> float | None:
        """Samples drawn per second so far (None before the first)."""
        return self.drawn / self.seconds if self.seconds else None

    def sample(self) -> Deal:
        """One deal drawn uniformly among the deals consistent with the view."""
        t0 = time.perf_counter()
        try:
            deal = Deal(self.problem, self._cards())
        finally:
            self.seconds += time.perf_counter() - t0
        self.drawn += 1
        return deal

    def samples(self, n: int) -> list[Deal]:
        """``n`` independent uniform deals."""
        return [self.sample() for _ in range(n)]

    def _cards(self) -> tuple[CardSet, ...]:
        if self._list is not None:
            return self._list[self.rng.randrange(len(self._list))]
        plan, rng = self._plan, self.rng
        while True:
            got, split = plan.draw(rng)
            if not plan.checks:
                return plan.split(got, split)
            self.attempts += 1
            if plan.accepts(got):
                self.accepted += 1
                return plan.split(got, split)
            if not self._fell_back and self.attempts >= self.budget and self.accepted < self.min_rate * self.attempts:
                self._fall_back()
                if self._list is not None:
                    return self._list[rng.randrange(len(self._list))]

    def _fall_back(self) -> None:
        """Acceptance is too low: enumerate the consistent deals with CP-SAT if there are few."""
        self._fell_back = True
        found, complete = _enumerate(self.problem, self.enum_limit, self.enum_seconds)
        if complete and found:
            self._list = found
            self.method = "enumeration"
        elif not found and (complete or not is_consistent(self.problem.view)):
            raise NotationError("view", explain_infeasible(self.problem.view) or _("no deal fits the view"))

    def stats(self) -> dict[str, Any]:
        """How sampling went: the method, the counts (``count`` None when unknown), the rejection
        step's attempts and acceptance, the samples drawn, their time and the setup time (the
        timings are the keys with ``seconds`` in their name; the rate is :attr:`samples_per_s`)."""
        return {
            "method": self.method,
            "count": self.count,
            "exact_count": self.exact_count,
            "rejection_checks": len(self._plan.checks),
            "attempts": self.attempts,
            "accepted": self.accepted if self._plan.checks else None,
            "acceptance": None if self.acceptance is None else round(self.acceptance, 4),
            "samples": self.drawn,
            "seconds": round(self.seconds, 4),
            "setup_seconds": round(self.setup_seconds, 4),
        }


def deal_others(hand: CardSet, seat: int, rng: random.Random) -> list[CardSet]:
    """The three hands of a uniform deal with ``hand`` at ``seat`` (R2): the exactly uniform sampler of
    a view with nothing played, as the call decision sees it (every split of the unseen cards alike)."""
    unseen = [c for c in range(36) if not hand >> c & 1]
    rng.shuffle(unseen)
    others = [sum(1 << c for c in unseen[:12]), sum(1 << c for c in unseen[12:])]
    hands = [0, 0, 0]
    hands[seat] = hand
    hands[(seat + 1) % 3] = others[0]
    hands[(seat + 2) % 3] = others[1]
    return hands
