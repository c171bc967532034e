"""Every calling policy (R3) in one place, each with its threshold or curve.

- **The rule player's call** (:func:`rule_call`): *play* when the hand strength
  (:func:`hand_strength`: Old cards, near-sure winners, sets, runs) reaches
  :data:`DEFAULT_CALL_THRESHOLD` (or the ``rule:T`` player's own threshold).
- **The later seats' policy in the call valuation** (:func:`policy_calls`, read by
  ``hidden.calls.call_values``): a later seat calls when Old cards + sets + runs held
  (:class:`HandFacts`) reach :data:`CALL_SCORE`; cheaper than the rule player's strength, and
  documented for the *pass* branch of ``advise``.
- **The opponent model's call curve** (:class:`CallCurve`, read by ``hidden.inference``): a
  seat says *play* with probability ``sigmoid(slope * (strength - threshold))`` of its hand
  strength; :data:`PIMC_CALL_CURVE` and :data:`RULE_MODEL_CALL_CURVE` are the curves fitted on
  self-play records (``docs/inference.md``).

>>> from lukfu_solver.cards import parse_cards
>>> facts = hand_facts(parse_cards("C9S789M1M2M3T1T5T6T7"))
>>> format_cards(facts.old), [format_cards(s) for s in facts.runs], facts.sure_fu
('C9S789T1', ['M123', 'S789', 'T567'], 5)
>>> sigmoid(0.0), CallCurve(2.0, 6.0).p_play(6.0)
(0.5, 0.5)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..cards import ABOVE_IN_SUIT, ALL_CARDS, RANK_MASK, RUNS9, SUIT_MASK9, CardSet, format_cards, iter_cards, old_cards
from ..rules import higher_in_suit

# ================================================================ the rule player's call

DEFAULT_CALL_THRESHOLD = 6.0
"""The rule player calls when its hand strength reaches this: the best threshold against random
players and against the rule player alike (measured: ``docs/pimc.md``, "Calibration")."""


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
        if higher_in_suit(out, c).bit_count() == 1:
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


_TOP_RUN9 = tuple(max(RUNS9[m9], key=int.bit_count) if RUNS9[m9] else 0 for m9 in range(512))
"""The longest run of a 9-bit suit mask (the first of that length), 0 when there is none."""
_RANK_MASKS = RANK_MASK[1:]


def hand_strength_fast(hand: CardSet) -> float:
    """:func:`hand_strength`, the same value, faster (the opponent model's call curve reads it
    for every sampled deal it weighs; ``tests/test_rule_fast.py`` holds the two equal). Every
    term is a multiple of a half, so the sum is exact in any order."""
    old = old_cards(hand, 0)
    out = ALL_CARDS & ~hand
    score = float(old.bit_count())
    m = hand & ~old
    while m:
        low = m & -m
        m ^= low
        if (out & ABOVE_IN_SUIT[low.bit_length() - 1]).bit_count() == 1:
            score += 0.5
    for r, rm in enumerate(_RANK_MASKS, 1):
        rm &= hand
        if rm.bit_count() >= 3 and rm & ~old:
            score += 1.0 if r >= 6 else 0.5
    for shift in (0, 9, 18, 27):
        top = _TOP_RUN9[(hand >> shift) & SUIT_MASK9]
        if top and (top << shift) & ~old:
            score += 0.5
    return score


def rule_call(hand: CardSet, threshold: float = DEFAULT_CALL_THRESHOLD) -> str:
    """The rule player's call: ``play`` when :func:`hand_strength` reaches ``threshold``."""
    return "play" if hand_strength(hand) >= threshold else "pass"


# ================================================================ the later seats' policy in the call valuation

CALL_SCORE = 5
"""The later seats' policy's threshold: a seat calls when Old cards + sets + runs held reach it."""


@dataclass(frozen=True)
class HandFacts:
    """What a dealt hand holds for calling: Old cards, sets, runs and the fu it is sure of."""

    hand: CardSet
    old: CardSet
    sets: tuple[CardSet, ...]
    runs: tuple[CardSet, ...]

    @property
    def sure_fu(self) -> int:
        """Fu the hand can cash once it has the lead: its Old cards as singles (nobody else can
        hold a higher card of their suits), which R14 also counts in a claim."""
        return self.old.bit_count()

    @property
    def call_score(self) -> int:
        """The later seats' policy's score: Old cards + sets + runs."""
        return self.old.bit_count() + len(self.sets) + len(self.runs)

    def to_json(self) -> dict[str, Any]:
        """``{"old", "sets", "runs", "sure_fu", "call_score"}``, cards as NOTATION.md writes them."""
        return {
            "old": format_cards(self.old),
            "sets": [format_cards(s) for s in self.sets],
            "runs": [format_cards(r) for r in self.runs],
            "sure_fu": self.sure_fu,
            "call_score": self.call_score,
        }


def hand_facts(hand: CardSet) -> HandFacts:
    """Old cards (R11–R13, nothing face up yet), sets of three or four, maximal runs (R5)."""
    sets = tuple(hand & RANK_MASK[r] for r in range(1, 10) if (hand & RANK_MASK[r]).bit_count() >= 3)
    runs: list[CardSet] = []
    for s in range(4):
        shift = 9 * s
        all_runs = RUNS9[(hand >> shift) & SUIT_MASK9]
        for run in all_runs:
            if not any(other != run and other & run == run for other in all_runs):
                runs.append(run << shift)
    return HandFacts(hand, old_cards(hand, 0), sets, tuple(sorted(runs, key=format_cards)))


def policy_calls(hand: CardSet) -> bool:
    """The cheaper calling policy used for the later seats in the call valuation (and as the
    evidence of earlier passes in ``advise``): call when Old cards + sets + runs reach
    :data:`CALL_SCORE`."""
    return hand_facts(hand).call_score >= CALL_SCORE


def later_caller(
    hands: Sequence[CardSet], seat: int, calls: Callable[[CardSet], bool] = policy_calls
) -> int | None:
    """Who calls if ``seat`` passes (R3): the first later seat whose hand ``calls`` calls (by
    default :func:`policy_calls`, the later seats' policy in the call valuation), None when
    none does (three passes: a redeal, nobody scores).

    >>> from lukfu_solver.game import deal_from_seed
    >>> [later_caller(deal_from_seed(9), s) for s in range(3)], later_caller(deal_from_seed(2), 0)
    ([1, 2, None], None)
    """
    return next((s for s in range(seat + 1, 3) if calls(hands[s])), None)


# ================================================================ the opponent model's call curve


def sigmoid(z: float) -> float:
    """The logistic function, safe for any ``z``."""
    if z >= 0:
        return 1 / (1 + math.exp(-z))
    e = math.exp(z)
    return e / (1 + e)


class CallCurve(NamedTuple):
    """A seat's chance of saying *play*: ``sigmoid(slope * (strength - threshold))`` of its
    hand strength (:func:`hand_strength`)."""

    slope: float
    threshold: float

    def p_play(self, strength: float) -> float:
        """The probability of *play* at hand strength ``strength``."""
        return sigmoid(self.slope * (strength - self.threshold))


DEFAULT_CALL_CURVE = CallCurve(2.0, DEFAULT_CALL_THRESHOLD)
"""An unfitted curve: the rule player's threshold, softened (the opponent model's default)."""
PIMC_CALL_CURVE = CallCurve(0.79, 5.268)
"""The call curve fitted by maximum likelihood on 300 self-play deals of the level-2 ``pimc``
player, match seed 1911 (``fitted`` in ``bench/results/inference-model.json``): the shipped
opponent model's (``players.ipimc.opponent_model``)."""
RULE_MODEL_CALL_CURVE = CallCurve(0.851, 5.339)
"""The call curve of the rule model (``hidden.inference.rule_model``), fitted by maximum likelihood
on 60 self-play deals of the level-2 ``pimc`` player, match seed 1901 (``fit`` in
``bench/results/inference.json``)."""
