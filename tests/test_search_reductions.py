"""The rank classes of the reductions (``reductions.equivalence_classes``) that reach past face-up
cards, proved where they apply.

- The caller's discard chains (``reductions._caller_chains``): of two free cards of one suit with
  no card of the other hands between them, the caller keeps the higher one, even when cards face
  down or its own cards lie between. In seeded positions where the chains drop a discard, the
  dropped discard's value (an unreduced search of the position after it) is never above that of
  the discard that keeps the lower cards' places with the higher ones, and the reduced search's
  value is the unreduced one's.
- Classes of singles across face-down cards (or the hand's own cards) between two cards that a
  higher face-down card blocks: in seeded positions where such a class exists (and the narrow rule,
  everything between face up, would have parted it), every card of the class played as a single
  gives the same value.

The kernel's reduced search is the reference's on all of these positions (value, nodes, line).
"""

from __future__ import annotations

import random

import pytest

from lukfu_solver.endgames import random_endgame
from lukfu_solver.plays import CLAIM, DISCARD, SINGLE, Play
from lukfu_solver.position import Position
from lukfu_solver.search import Solver, reduced_moves
from lukfu_solver.search.reductions import equivalence_classes


def lowest(mask: int, k: int) -> int:
    """The ``k`` lowest cards of ``mask``."""
    out = 0
    for _ in range(k):
        low = mask & -mask
        out |= low
        mask ^= low
    return out


def dominating(m: Play, chains: list[int]) -> Play:
    """The discard that takes, in every chain, the lowest cards instead of those ``m`` takes."""
    cards = m.cards
    for c in chains:
        d = cards & c
        if d:
            cards = (cards & ~c) | lowest(c, d.bit_count())
    return Play(DISCARD, cards, m.size)


def child_value(pos: Position, m: Play) -> int:
    pos.push(m)
    try:
        return Solver(reduce=False).solve(pos).value  # type: ignore[return-value]
    finally:
        pos.pop()


def caller_discard_positions(count: int) -> list[Position]:
    """Seeded positions where the caller must discard and the chains drop at least one discard."""
    out = []
    rng = random.Random(13)
    for i in range(4000):
        pos = random_endgame(130_000 + i, 4 + i % 3)
        for _ in range(rng.randrange(1, 3)):
            if pos.outcome is not None:
                break
            pos.push(rng.choice([m for m in pos.legal_moves() if m.kind != CLAIM]))
        if pos.outcome is not None or pos.to_move != pos.caller or not pos.trick:
            continue
        moves = list(pos.legal_moves())
        if moves[0].kind != DISCARD or len(reduced_moves(pos)) == len(moves):
            continue
        out.append(Position.parse(str(pos)))
        if len(out) == count:
            break
    return out


def test_a_face_down_card_between_does_not_part_a_chain() -> None:
    """C2 and C4 of the caller with C3 face down between: one chain (not a class of singles)."""
    pos = Position.parse("C24M9/C6S2T1/C5S3T2 1 0 3,3,3 C1789S456789M2345678T3456789 -")
    pos.push(Play.parse("S2"))
    pos.push(Play.parse("S3"))
    assert pos.to_move == pos.caller == 0
    singles, discards = equivalence_classes(pos)
    assert singles == [] and discards == [0b1010]  # C2 and C4
    assert {str(m) for m in reduced_moves(pos)} == {"xC2", "xM9"}
    assert Solver().solve(pos).value == Solver(reduce=False).solve(pos).value


@pytest.mark.slow
def test_a_dropped_discard_is_never_better_than_the_one_kept() -> None:
    positions = caller_discard_positions(25)
    assert len(positions) >= 15
    for pos in positions:
        kept = set(reduced_moves(pos))
        _, chains = equivalence_classes(pos)
        best_kept = max(child_value(pos, m) for m in kept)
        for m in pos.legal_moves():
            if m not in kept:
                d = dominating(m, chains)
                assert d in kept, (str(pos), str(m), str(d))
                assert child_value(pos, m) <= child_value(pos, d) <= best_kept, (str(pos), str(m))
        assert Solver().solve(pos).value == Solver(reduce=False).solve(pos).value == best_kept


def narrow_rule_parts(pos: Position, cls: int) -> bool:
    """Whether the narrow rule (every card between face up) parts the class ``cls``."""
    cards = [c for c in range(36) if cls >> c & 1]
    for a, b in zip(cards, cards[1:], strict=False):
        between = ((1 << b) - 1) & ~((1 << (a + 1)) - 1)
        if between & ~pos.faceup:
            return True
    return False


def wider_single_positions(count: int) -> list[tuple[Position, int]]:
    """Seeded positions with a class of singles that the narrow rule parts, and that class."""
    out = []
    rng = random.Random(14)
    for i in range(6000):
        pos = random_endgame(140_000 + i, 3 + i % 4)
        for _ in range(rng.randrange(0, 2)):
            if pos.outcome is not None:
                break
            pos.push(rng.choice([m for m in pos.legal_moves() if m.kind != CLAIM]))
        if pos.outcome is not None:
            continue
        singles, _ = equivalence_classes(pos)
        wide = [c for c in singles if narrow_rule_parts(pos, c)]
        legal = {m.cards for m in pos.legal_moves() if m.kind == SINGLE}
        wide = [c for c in wide if sum(1 for b in range(36) if c >> b & 1 and 1 << b in legal) >= 2]
        if wide:
            out.append((Position.parse(str(pos)), wide[0]))
        if len(out) == count:
            break
    return out


@pytest.mark.slow
def test_a_wider_class_of_singles_holds_equal_cards() -> None:
    cases = wider_single_positions(20)
    assert len(cases) >= 10
    for pos, cls in cases:
        values = set()
        for m in pos.legal_moves():
            if m.kind == SINGLE and m.cards & cls:
                values.add(child_value(pos, m))
        assert len(values) == 1, (str(pos), bin(cls), values)
        assert Solver().solve(pos).value == Solver(reduce=False).solve(pos).value


@pytest.mark.slow
def test_the_kernel_reduces_as_the_reference_does() -> None:
    pytest.importorskip("numba")
    from lukfu_solver.search import make_solver

    for pos in caller_discard_positions(25) + [p for p, _ in wider_single_positions(20)]:
        ref = make_solver("reference").solve(pos)
        fast = make_solver("compiled").solve(pos)
        assert (ref.value, ref.nodes, ref.pv) == (fast.value, fast.nodes, fast.pv), str(pos)
