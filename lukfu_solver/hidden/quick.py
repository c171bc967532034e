"""The quick, approximately uniform sampler for views with many hidden discards, and the one
rule that chooses between it and the exact sampler."""

from __future__ import annotations

import random
from typing import Any

from ..cards import (
    ALL_CARDS,
    CardSet,
    iter_cards,
)
from ..errors import NotationError
from ..plays import DISCARD, Play
from ..position import Position
from ..rules import (
    discard_proves_none_higher,
    higher_in_suit,
)
from ..view import SeatView

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
                elif i and p.hidden and discard_proves_none_higher(best, tr):
                    s = (view.leaders[t] + i) % 3
                    above = higher_in_suit(ALL_CARDS, best.cards.bit_length() - 1)
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


