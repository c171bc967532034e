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
from ..plays import DISCARD, Play
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


def _dealt_and_plays(deal: Deal) -> tuple[tuple[CardSet, CardSet, CardSet], list[Play]]:
    """``deal.dealt()`` and the history's plays in order with every discard's cards shown
    (``deal.tricks()`` flattened), the history revealed once for both."""
    view = deal.problem.view
    hands = [0, 0, 0]
    hands[view.seat] = view.hand
    reveal = {}
    for place, m in zip(deal.problem.places, deal.cards, strict=True):
        if place.is_hand:
            hands[place.seat] = m
        else:
            reveal[place.trick, place.play] = m
    plays: list[Play] = []
    leaders = view.leaders
    for t, tr in enumerate(view.tricks):
        leader = leaders[t]
        for i, p in enumerate(tr):
            if p.hidden:
                p = Play(DISCARD, reveal[t, i], p.size)
            hands[(leader + i) % 3] |= p.cards
            plays.append(p)
    return (hands[0], hands[1], hands[2]), plays


def fresh(model: OpponentModel, view: SeatView, deal: Deal) -> Particle:
    """A newly drawn deal as a particle: its whole history replayed once (the log-likelihood is
    :func:`~lukfu_solver.hidden.inference.log_likelihood`'s, the same sum in the same order)."""
    assert view.caller is not None
    dealt, plays = _dealt_and_plays(deal)
    replay = Replay(model.policy, dealt, view.caller, view.seat, model.order, model.candidates, model.policy_moves)
    total = call_terms(model, dealt, view.caller, view.seat)
    for d in replay.advance(plays):
        total += model.log_decision(d)
    return Particle(deal, replay, total)


@dataclass
class Plan:
    """What carrying any deal from an earlier view ``old`` to ``view`` takes, worked out once a
    pool (the same for every deal): the view's problem, how many plays ``old`` had, the new plays
    (trick, place in it, play), the face-up cards each other seat played since, and each other
    seat's new face-down discards (trick, place, size) in order."""

    problem: Problem
    done: int
    new: list[tuple[int, int, Play]]
    shown: tuple[CardSet, CardSet, CardSet]
    splits: tuple[list[tuple[int, int, int]], list[tuple[int, int, int]], list[tuple[int, int, int]]]


def plan(old: SeatView, view: SeatView, problem: Problem | None = None) -> Plan:
    """The :class:`Plan` of carrying deals of ``old`` (a view :func:`extends` takes to ``view``)."""
    done = len(_plays(old))
    shown = [0, 0, 0]
    splits: tuple[list[tuple[int, int, int]], ...] = ([], [], [])
    new: list[tuple[int, int, Play]] = []
    flat = 0
    for t, tr in enumerate(view.tricks):
        for i, p in enumerate(tr):
            if flat >= done:
                new.append((t, i, p))
                s = (view.leaders[t] + i) % 3
                if s != view.seat:
                    if p.hidden:
                        splits[s].append((t, i, p.size))
                    else:
                        shown[s] |= p.cards
            flat += 1
    return Plan(problem or derive(view), done, new, (shown[0], shown[1], shown[2]), splits)  # type: ignore[arg-type]


def carry_deal(
    deal: Deal, view: SeatView, rng: random.Random, problem: Problem | None = None, how: Plan | None = None
) -> Deal | None:
    """``deal`` (consistent with an earlier view of the same seat, :func:`extends`) taken to
    ``view``: the other seats' face-up plays since must be cards the deal gave them, the cards of
    their face-down discards since are drawn uniformly from what each seat still holds (every
    split equally likely); the deal if consistent with ``view``, else None. ``problem``: the
    view's (:func:`~lukfu_solver.hidden.constraints.derive`), when already derived; ``how``: the
    :func:`plan`, when already made (a pool's deals share it)."""
    got = _carry(deal, how or plan(deal.problem.view, view, problem), rng)
    return None if got is None else got[0]


def _carry(deal: Deal, how: Plan, rng: random.Random) -> tuple[Deal, list[Play]] | None:
    """:func:`carry_deal` by its plan, with the new plays (every discard's cards shown)."""
    hands = list(deal.hands())
    for s in range(3):
        if how.shown[s] & ~hands[s]:
            return None  # the deal put a card the seat played since elsewhere
        hands[s] &= ~how.shown[s]
    cards_of: dict[tuple[int, int], CardSet] = {
        (p.trick, p.play): m for p, m in zip(deal.problem.places, deal.cards, strict=True) if not p.is_hand
    }
    for s in range(3):
        for t, i, k in how.splits[s]:
            if k > hands[s].bit_count():
                return None
            m = sum(1 << c for c in rng.sample(list(iter_cards(hands[s])), k))
            cards_of[t, i] = m
            hands[s] &= ~m
    problem = how.problem
    cards = tuple(hands[p.seat] if p.is_hand else cards_of.get((p.trick, p.play), -1) for p in problem.places)
    if any(m < 0 for m in cards) or problem.violation(cards) is not None:
        return None
    plays = [Play(DISCARD, cards_of[t, i], p.size) if p.hidden else p for t, i, p in how.new]
    return Deal(problem, cards), plays


def advance(
    model: OpponentModel,
    particle: Particle,
    view: SeatView,
    rng: random.Random,
    problem: Problem | None = None,
    how: Plan | None = None,
) -> Particle | None:
    """``particle`` taken to ``view`` (:func:`carry_deal`) with the terms of the actions since added
    to its log-likelihood; None when the deal is not consistent with ``view``."""
    got = _carry(particle.deal, how or plan(particle.deal.problem.view, view, problem), rng)
    if got is None:
        return None
    deal, plays = got
    total = particle.log
    for d in particle.replay.advance(plays):
        total += model.log_decision(d)
    return Particle(deal, particle.replay, total)


def carry_pool(
    model: OpponentModel, particles: Sequence[Particle], view: SeatView, rng: random.Random
) -> list[Particle]:
    """The particles still consistent with ``view``, in order, each advanced to it."""
    if not particles:
        return []
    how = plan(particles[0].deal.problem.view, view)
    kept = (advance(model, q, view, rng, how=how) for q in particles)
    return [q for q in kept if q is not None]
