"""The carried pool: one seat's weighed deals kept from one of its decisions to the next.

The resampling player (``players.ipimc``, ``pool`` above 1) weighs a pool of deals drawn
uniformly from the deals consistent with its view (``hidden.constraints``) by the likelihood of
the other seats' actions (``hidden.inference``). Drawn afresh at every decision, each deal's
likelihood replays the whole history, so the cost grows with the game. Carried instead: a deal
drawn uniformly at decision ``t`` is taken to the view of decision ``t + 1`` by dealing the
cards of the other seats' new face-down discards uniformly at random out of the hand the deal
gave that seat (every split of the cards it still holds into those discards and its hand equally
likely), and kept when the result is consistent with the new view (:meth:`Problem.violation`,
the one definition). Each consistent deal of the new view arises from exactly one old deal and
one split, and every old deal and every split are equally likely, so a kept deal is uniform on
the new view's consistent deals, independent of the other deals kept and of the fresh draws
that top the pool up (``docs/inference.md``, "The carried pool", says where this is exact and
where the seat's own choices make it less so). Its log-likelihood is the old one plus the terms
of the actions since (the :class:`~lukfu_solver.hidden.inference.Replay` continued): the same
sum, term by term, as a full replay.

>>> from lukfu_solver.view import SeatView
>>> old = SeatView.parse("0 C9S156M249T249 0 T1,x1,x1/S2")
>>> extends(old, SeatView.parse("0 C9S156M249T249 0 T1,x1,x1/S2,S9")), extends(old, old)
(True, False)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import CardSet, iter_cards
from ..view import SeatView
from .constraints import Deal, Problem, derive
from .inference import OpponentModel, Replay, call_terms


@dataclass
class Particle:
    """One deal of the pool, its replay (advanced to the view it is consistent with) and its
    log-likelihood (the model's, at temperature 1) of the other seats' actions so far."""

    deal: Deal
    replay: Replay
    log: float


def _plays(view: SeatView) -> list[tuple[int, object]]:
    """The history's plays in order, each with its seat."""
    return [((view.leaders[t] + i) % 3, p) for t, tr in enumerate(view.tricks) for i, p in enumerate(tr)]


def extends(old: SeatView, new: SeatView) -> bool:
    """Whether ``new`` is a later view of the same seat in the same game as ``old``: the same seat,
    hand as dealt, calls and caller, and ``old``'s history a strict prefix of ``new``'s."""
    if old.seat != new.seat or old.caller != new.caller or old.calls != new.calls or new.caller is None:
        return False
    a, b = _plays(old), _plays(new)
    if len(a) >= len(b) or b[: len(a)] != a:
        return False
    own = old.hand | sum(p.cards for s, p in a if s == old.seat)  # type: ignore[attr-defined]
    return own == new.hand | sum(p.cards for s, p in b if s == new.seat)  # type: ignore[attr-defined]


def fresh(model: OpponentModel, view: SeatView, deal: Deal) -> Particle:
    """A newly drawn deal as a particle: its whole history replayed once (the log-likelihood is
    :func:`~lukfu_solver.hidden.inference.log_likelihood`'s, the same sum in the same order)."""
    assert view.caller is not None
    dealt = deal.dealt()
    replay = Replay(model.policy, dealt, view.caller, view.seat, model.order, model.candidates)
    total = call_terms(model, dealt, view.caller, view.seat)
    for d in replay.advance([p for tr in deal.tricks() for p in tr]):
        total += model.log_decision(d)
    return Particle(deal, replay, total)


def carry_deal(deal: Deal, view: SeatView, rng: random.Random, problem: Problem | None = None) -> Deal | None:
    """``deal`` (consistent with an earlier view of the same seat, :func:`extends`) taken to
    ``view``: the other seats' face-up plays since must be cards the deal gave them, the cards of
    their face-down discards since are drawn uniformly from what each seat still holds (every
    split equally likely); the deal if consistent with ``view``, else None. ``problem``: the
    view's (:func:`~lukfu_solver.hidden.constraints.derive`), when already derived."""
    old = deal.problem.view
    problem = problem or derive(view)
    hands = list(deal.hands())
    new = _plays(view)[len(_plays(old)) :]
    splits: dict[int, list[tuple[int, int, int]]] = {0: [], 1: [], 2: []}  # seat: (trick, play, size)
    flat = 0
    count = len(_plays(old))
    for t, tr in enumerate(view.tricks):
        for i, p in enumerate(tr):
            if flat >= count:
                s = (view.leaders[t] + i) % 3
                if s != view.seat:
                    if p.hidden:
                        splits[s].append((t, i, p.size))
                    elif p.cards & ~hands[s]:
                        return None  # the deal put a card it played elsewhere
                    else:
                        hands[s] &= ~p.cards
            flat += 1
    assert flat - count == len(new)
    cards_of: dict[tuple[int, int], CardSet] = {
        (p.trick, p.play): m for p, m in zip(deal.problem.places, deal.cards, strict=True) if not p.is_hand
    }
    for s in range(3):
        for t, i, k in splits[s]:
            picked = rng.sample(list(iter_cards(hands[s])), k) if k <= hands[s].bit_count() else None
            if picked is None:
                return None
            m = sum(1 << c for c in picked)
            cards_of[t, i] = m
            hands[s] &= ~m
    cards = tuple(hands[p.seat] if p.is_hand else cards_of.get((p.trick, p.play), -1) for p in problem.places)
    if any(m < 0 for m in cards) or problem.violation(cards) is not None:
        return None
    return Deal(problem, cards)


def advance(
    model: OpponentModel, particle: Particle, view: SeatView, rng: random.Random, problem: Problem | None = None
) -> Particle | None:
    """``particle`` taken to ``view`` (:func:`carry_deal`) with the terms of the actions since added
    to its log-likelihood; None when the deal is not consistent with ``view``."""
    deal = carry_deal(particle.deal, view, rng, problem)
    if deal is None:
        return None
    done = len(_plays(particle.deal.problem.view))
    total = particle.log
    for d in particle.replay.advance([p for tr in deal.tricks() for p in tr][done:]):
        total += model.log_decision(d)
    return Particle(deal, particle.replay, total)


def carry_pool(
    model: OpponentModel, particles: Sequence[Particle], view: SeatView, rng: random.Random
) -> list[Particle]:
    """The particles still consistent with ``view``, in order, each advanced to it."""
    problem = derive(view)
    kept = (advance(model, q, view, rng, problem) for q in particles)
    return [q for q in kept if q is not None]
