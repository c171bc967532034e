"""The quick, approximately uniform sampler for views with many hidden discards, and the one
rule that chooses between it and the exact sampler (:func:`make_sampler`, ``docs/sampling.md``).

Both samplers have one interface: ``sample()`` and ``samples(n)`` give
:class:`~lukfu_solver.hidden.constraints.Deal` values (``.position()``), ``stats()`` says how
sampling went and ``method`` names the method (``exact``, ``rejection``, ``enumeration`` or
``quick``).

>>> from lukfu_solver.view import SeatView
>>> view = SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6/M3,M5")
>>> make_sampler(view, 1).method, make_sampler(view, 1, exact=False).method
('exact', 'exact')
"""

from __future__ import annotations

import random
import time
from typing import Any, Protocol

from ..cards import (
    ALL_CARDS,
    CardSet,
    iter_cards,
)
from ..errors import NotationError
from ..i18n import _
from ..plays import DISCARD, Play
from ..position import Position
from ..rules import (
    discard_proves_none_higher,
    higher_in_suit,
)
from ..view import SeatView
from .constraints import Deal, derive


class QuickSampler:
    """A fast, approximately uniform sampler for views with many hidden discards, where the exact
    :class:`~lukfu_solver.hidden.sampling.Sampler` can take seconds to set up (see :data:`QUICK_AFTER`).

    The same interface and type as the exact sampler (``sample()``, ``samples(n)`` giving
    :class:`~lukfu_solver.hidden.constraints.Deal` values, ``stats()``, ``method``). Deals the
    unseen cards at random over the other hands and their hidden discards, never placing a card
    where a discard against a single (but a led C1 or T1) proves it was not (R9) — a random
    perfect matching of cards to places, so it never gets stuck — then replays the history on the
    deal and rejects it if a play is illegal (R7, R9 against sets and runs). After ``MAX_TRIES``
    rejections in a row it keeps an unchecked deal (counted in ``unchecked``).
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
        for t, walk in enumerate(view.history.tricks):
            for i, p in enumerate(walk.plays):
                best = walk.plays[walk.best_before(i)]  # the best play a hidden discard faced
                if p.hidden and discard_proves_none_higher(best, walk.plays):
                    s = walk.seat(i)
                    above = higher_in_suit(ALL_CARDS, best.cards.bit_length() - 1)
                    for k in range(len(sizes)):  # not in s's holding then: its hand now, its later discards
                        w = where[k]
                        if owner[k] == s and (w is None or w >= (t, i)):
                            barred[k] |= above
        self.sizes, self.owner, self.where, self.barred = sizes, owner, where, barred
        self.problem = derive(view)
        index = {(o, w): k for k, (o, w) in enumerate(zip(owner, where, strict=True))}
        self._order = [index[p.seat, None if p.is_hand else (p.trick, p.play)] for p in self.problem.places]
        self.attempts = self.drawn = 0
        self.seconds = 0.0

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

    def _legal(self, got: list[CardSet]) -> bool:
        """Whether the history replays legally on the deal ``got`` (R5-R9)."""
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
            if not pos.is_legal(p):
                return False
            pos.push(p)
        return True

    def sample(self) -> Deal:
        """One deal consistent with the view (approximately uniform)."""
        t0 = time.perf_counter()
        got = None
        for _try in range(self.MAX_TRIES):
            self.attempts += 1
            got = self._deal()
            if got is not None and self._legal(got):
                break
            got = None
        if got is None:
            self.unchecked += 1
            got = self._deal()
            if got is None:
                raise NotationError("view", _("no deal fits the view's discards"))
        self.drawn += 1
        self.seconds += time.perf_counter() - t0
        return Deal(self.problem, tuple(got[k] for k in self._order))

    def samples(self, n: int) -> list[Deal]:
        """``n`` deals consistent with the view (approximately uniform)."""
        return [self.sample() for _ in range(n)]

    def stats(self) -> dict[str, Any]:
        """How sampling went, with the exact sampler's keys where they apply (counts unknown)."""
        return {
            "method": self.method,
            "count": None,
            "exact_count": None,
            "rejection_checks": None,
            "attempts": self.attempts,
            "accepted": self.drawn - self.unchecked,
            "acceptance": None if not self.attempts else round((self.drawn - self.unchecked) / self.attempts, 4),
            "unchecked": self.unchecked,
            "samples": self.drawn,
            "seconds": round(self.seconds, 4),
            "setup_seconds": 0.0,
        }


class HandSampler(Protocol):
    """What both samplers offer (:class:`QuickSampler` and ``sampling.Sampler``)."""

    method: str

    def sample(self) -> Deal: ...

    def samples(self, n: int) -> list[Deal]: ...

    def stats(self) -> dict[str, Any]: ...


QUICK_AFTER = 14
"""The rule's threshold: more cards than this in hidden discards and :func:`make_sampler` gives the
quick sampler (the exact one's setup time rises about five-fold a trick past it; figures in
``docs/sampling.md``)."""


def hidden_discards(view: SeatView) -> int:
    """Cards lying in the view's face-down discards."""
    return sum(p.size for tr in view.tricks for p in tr if p.hidden)


def make_sampler(view: SeatView, seed: int, *, exact: bool = False) -> HandSampler:
    """The one rule choosing a sampler: the exact, uniform ``sampling.Sampler``, unless more than
    :data:`QUICK_AFTER` cards lie in hidden discards and ``exact`` is False, then
    :class:`QuickSampler`. ``exact=True`` is for callers that promise uniform samples (``analyse``);
    time-bounded callers (the ``pimc`` player) take the rule."""
    if not exact and hidden_discards(view) > QUICK_AFTER:
        return QuickSampler(view, seed)
    from .sampling import Sampler

    return Sampler(view, seed)
