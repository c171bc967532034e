"""What a seat view proves about the hidden cards, stated once as a CP-SAT model.

A seat view hides the other seats' current hands and their face-down discards. Each of these is
a **place** (:class:`Place`): a seat's hand now, or one face-down discard of the history, with
the trick it was made in (a discard only proves what that seat held at that moment). A **deal
consistent with the view** puts every hidden card in exactly one place, gives every place its
size, and lets every play of the history be legal. The rules allow exactly two inferences about
hidden cards (everything else a seat did is either public or proves nothing):

- :class:`Discard` (R9): a seat that discarded held no play beating the best play of the trick
  at that moment, over the cards it still had then (its hand now, its discards from that trick
  on, that one included, and its face-up plays from that trick on). A led C1/T1 is unbeatable,
  so a discard against it proves nothing and gives no constraint.
- :class:`Lead` (R7): a non-caller who led a single held only Old cards in every higher suit, and
  the card led was not Old unless all its cards were (Old at that moment: from its hand then and
  the cards face up before that trick).

Calling, passing and beating plays constrain nothing. :func:`derive` turns a view into a
:class:`Problem` (places and constraints); :func:`build_model` states the problem as one CP-SAT
model, one Boolean per (hidden card, place). The model is the one definition of "consistent":
:func:`is_consistent`, :func:`explain_infeasible`, :func:`enumerate_deals`, :func:`count_deals`,
the sampler (:mod:`lukfu_solver.hidden.sampling`) and the tests use it or :meth:`Problem.violation`,
which checks the same constraints on one deal with the rules' own generators.

ortools is imported inside the functions that need it (its import is slow), never at import time.

>>> problem = derive(SeatView.parse("0 C9S156M249T249 0 T1,x1,x1/S2,S9,x1/T5"))
>>> [p.label() for p in problem.places][:3]
['seat 1, trick 1 discard', 'seat 1 hand', 'seat 2, trick 1 discard']
>>> [c.describe() for c in problem.constraints][1]
'seat 1, a non-caller, led T5, so every higher suit held only Old cards and T5 was not Old unless all its cards were (R7)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from ..cards import (
    ALWAYS_OLD,
    RANK_MASK,
    SUIT_MASK,
    UNBEATABLE_LEAD,
    CardSet,
    format_cards,
    iter_cards,
)
from ..errors import NotationError
from ..i18n import _
from ..plays import DISCARD, RUN, SET, SINGLE, Play
from ..position import Position
from ..rules import can_beat, single_leads
from ..view import SeatView, Tricks, format_history

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

HAND_TRICK = 12
"""The ``trick`` of a seat's current hand among its places: after every trick (tricks are 0-11)."""

HIDDEN, IN, OUT = 0, 1, 2
"""The status of a card for one seat's holding at one moment: unknown, surely held, surely not."""


# ---------------------------------------------------------------- places and constraints


class Place(NamedTuple):
    """Where hidden cards lie: ``seat``'s hand now (``trick`` = 12) or its face-down discard at
    ``play`` (0-2) of ``trick`` (0-based). ``size`` is the number of cards there."""

    seat: int
    trick: int
    play: int
    size: int

    @property
    def is_hand(self) -> bool:
        """True for a seat's current hand."""
        return self.trick == HAND_TRICK

    def label(self) -> str:
        """``seat 1 hand`` or ``seat 2, trick 3 discard`` (tricks numbered from 1, as in messages)."""
        if self.is_hand:
            return f"seat {self.seat} hand"
        return f"seat {self.seat}, trick {self.trick + 1} discard"


class Discard(NamedTuple):
    """R9: ``seat`` discarded at ``play`` of ``trick`` while ``best`` was the best play (``best_led``:
    it was the lead), so it held no play beating it. ``known_in``: its face-up plays from that
    trick on, cards it surely held then."""

    seat: int
    trick: int
    play: int
    discard: Play
    best: Play
    best_led: bool
    known_in: CardSet

    def describe(self) -> str:
        """What the play proves, in words (for messages)."""
        return _("seat {seat} discarded {discard} against {best}, so it held no play beating {best} (R9)").format(
            seat=self.seat, discard=self.discard, best=self.best
        )


class Lead(NamedTuple):
    """R7: ``seat``, a non-caller, led the single ``lead`` at ``trick`` (``play`` is 0). ``faceup``:
    the cards face up before that trick; ``known_in``: its face-up plays from that trick on."""

    seat: int
    trick: int
    play: int
    lead: Play
    faceup: CardSet
    known_in: CardSet

    def describe(self) -> str:
        """What the play proves, in words (for messages)."""
        return _(
            "seat {seat}, a non-caller, led {lead}, so every higher suit held only Old cards "
            "and {lead} was not Old unless all its cards were (R7)"
        ).format(seat=self.seat, lead=self.lead)


Constraint = Discard | Lead


class Limit(NamedTuple):
    """At most ``limit`` of the hidden ``cards`` lie in ``seat``'s places from ``trick`` on.

    ``limit`` < 0 means the constraint fails whatever the hidden cards (known cards already break it).
    """

    seat: int
    trick: int
    cards: CardSet
    limit: int


def discard_limits(con: Discard, hidden: CardSet) -> list[Limit]:
    """A discard (R9) as limits on the hidden cards the seat held at that trick (R8 by kind).

    Single: no higher card of its suit. Set of k: fewer than k cards of every beating rank (only
    9s beat a led set of 1s). Run of length n: not all n cards of any beating run (same suit with
    a higher top, or any higher suit). Known cards count: a beating card the seat showed later
    makes the limit negative; a run with a card the seat surely lacked needs no limit.
    """
    best, s, t, known = con.best, con.seat, con.trick, con.known_in
    out: list[Limit] = []
    if best.kind == SINGLE:
        if con.best_led and best.cards & UNBEATABLE_LEAD:
            return out
        top = best.cards.bit_length() - 1
        higher = (1 << ((top // 9 + 1) * 9)) - (1 << (top + 1))
        if higher & known:
            out.append(Limit(s, t, 0, -1))
        elif higher & hidden:
            out.append(Limit(s, t, higher & hidden, 0))
    elif best.kind == SET:
        k = best.size
        ranks = (9,) if con.best_led and best.rank == 1 else range(best.rank + 1, 10)
        for r in ranks:
            limit = k - 1 - (RANK_MASK[r] & known).bit_count()
            cards = RANK_MASK[r] & hidden
            if limit < 0:
                out.append(Limit(s, t, 0, -1))
            elif cards.bit_count() > limit:
                out.append(Limit(s, t, cards, limit))
    elif best.kind == RUN:
        n = best.size
        for suit in range(best.suit, 4):
            for lo in range(0, 10 - n):
                run = ((1 << n) - 1) << (9 * suit + lo)
                if suit == best.suit and lo + n <= best.rank:
                    continue  # the same suit needs a higher top card
                if run & ~hidden & ~known:
                    continue  # the seat surely lacked one of its cards
                cards = run & hidden
                out.append(Limit(s, t, cards, cards.bit_count() - 1) if cards else Limit(s, t, 0, -1))
    return out


class LeadChains(NamedTuple):
    """A lead (R7) as chains of one suit each: the cards of the suit that count for Old (not face
    up before the trick, not C1/T1), highest first, with their status (HIDDEN, IN, OUT) for the
    leader's holding at that trick. A suit's Old condition is that its chain is held from the top
    down without a gap: a held card below a card not held is not Old.

    Chains of suits above the lead's suit must hold always; the others only when the lead was Old
    (``old``: IN surely, OUT surely not, HIDDEN when it depends on ``above``, the chain cards
    above the lead: the lead is Old exactly when all of them are held).
    """

    lead_suit: int
    chains: tuple[tuple[tuple[int, int], ...], ...]
    above: tuple[tuple[int, int], ...]
    old: int


def lead_chains(con: Lead, hidden: CardSet) -> LeadChains:
    """The chains of a lead (R7), see :class:`LeadChains`."""
    lead = con.lead.cards
    chains = []
    for suit in range(4):
        members = SUIT_MASK[suit] & ~con.faceup & ~UNBEATABLE_LEAD
        chain = []
        for c in reversed(list(iter_cards(members))):
            b = 1 << c
            chain.append((c, HIDDEN if b & hidden else IN if b & (con.known_in | lead) else OUT))
        chains.append(tuple(chain))
    li = lead.bit_length() - 1
    above = tuple(e for e in chains[li // 9] if e[0] > li)
    if lead & ALWAYS_OLD or all(st == IN for _, st in above):
        old = IN
    elif any(st == OUT for _, st in above):
        old = OUT
    else:
        old = HIDDEN
    return LeadChains(li // 9, tuple(chains), above, old)


@dataclass(frozen=True)
class Problem:
    """The hidden part of a view: the ``hidden`` cards, their ``places`` and the ``constraints``.

    Places are ordered by seat, then trick (each seat's hand last); constraints chronologically.
    """

    view: SeatView
    hidden: CardSet
    places: tuple[Place, ...]
    constraints: tuple[Constraint, ...]
    _members: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict, repr=False, compare=False)

    def members(self, seat: int, trick: int) -> tuple[int, ...]:
        """Indices of ``seat``'s places from ``trick`` on: where the hidden cards it held then lie."""
        key = (seat, trick)
        got = self._members.get(key)
        if got is None:
            got = tuple(j for j, p in enumerate(self.places) if p.seat == seat and p.trick >= trick)
            self._members[key] = got
        return got

    def holding(self, con: Constraint, cards: Sequence[CardSet]) -> CardSet:
        """The cards ``con``'s seat held at its trick, given the cards of every place."""
        held = con.known_in
        for j in self.members(con.seat, con.trick):
            held |= cards[j]
        return held

    def holds(self, con: Constraint, cards: Sequence[CardSet]) -> bool:
        """True when ``con`` holds for the deal giving each place ``cards`` (checked with rules.py)."""
        held = self.holding(con, cards)
        if isinstance(con, Discard):
            return not can_beat(held, con.best, con.best_led)
        return bool(con.lead.cards & single_leads(held, con.faceup, False))

    def violation(self, cards: Sequence[CardSet]) -> str | None:
        """None when ``cards`` (one mask per place) is a consistent deal, else what is wrong."""
        if len(cards) != len(self.places):
            return f"{len(cards)} card sets for {len(self.places)} places"
        seen = 0
        for p, m in zip(self.places, cards, strict=True):
            if m.bit_count() != p.size:
                return f"{p.label()} has {m.bit_count()} cards, not {p.size}"
            if m & seen or m & ~self.hidden:
                return f"{p.label()}: {format_cards(m & (seen | ~self.hidden))} is named twice or is not hidden"
            seen |= m
        if seen != self.hidden:
            return f"{format_cards(self.hidden & ~seen)} lie nowhere"
        for con in self.constraints:
            if not self.holds(con, cards):
                return f"trick {con.trick + 1}, play {con.play + 1}: {con.describe()}"
        return None


def derive(view: SeatView) -> Problem:
    """The places and constraints of ``view``; an invalid view raises its NotationError (validate)."""
    view.validate()
    me = view.seat
    others = [s for s in range(3) if s != me]
    sizes = view.hand_sizes
    if view.caller is None:  # calling phase: two hands of 12, nothing known
        places = tuple(Place(s, HAND_TRICK, -1, sizes[s]) for s in others)
        return Problem(view, view.unseen, places, ())
    tricks = view.tricks
    leaders = view.leaders
    count = len(tricks)
    up_from = [[0] * (count + 1) for _ in range(3)]  # face-up cards of a seat from trick t on
    for t in range(count - 1, -1, -1):
        for s in range(3):
            up_from[s][t] = up_from[s][t + 1]
        for i, p in enumerate(tricks[t]):
            if p.kind != DISCARD:
                up_from[(leaders[t] + i) % 3][t] |= p.cards
    places: list[Place] = []
    constraints: list[Constraint] = []
    faceup = 0  # face-up cards of the tricks before t
    for t, walk in enumerate(view.history.tricks):
        for i, p in enumerate(walk.plays):
            s = walk.seat(i)
            if s != me:
                if i == 0 and p.kind == SINGLE and s != view.caller:
                    constraints.append(Lead(s, t, 0, p, faceup, up_from[s][t]))
                if p.kind == DISCARD:
                    places.append(Place(s, t, i, p.size))
                    best_i = walk.best_before(i)
                    best = walk.plays[best_i]
                    if not (best_i == 0 and best.kind == SINGLE and best.cards & UNBEATABLE_LEAD):
                        constraints.append(Discard(s, t, i, p, best, best_i == 0, up_from[s][t]))
        if walk.complete:
            faceup |= walk.faceup()
    places.extend(Place(s, HAND_TRICK, -1, sizes[s]) for s in others)
    places.sort(key=lambda p: (p.seat, p.trick))
    hidden = view.unseen
    if sum(p.size for p in places) != hidden.bit_count():  # pragma: no cover - validate() rules it out
        raise NotationError("view", _("the hidden cards do not fill the hidden places"))
    return Problem(view, hidden, tuple(places), tuple(constraints))


# ---------------------------------------------------------------- deals


class Deal:
    """One deal consistent with a view: the cards of every hidden place (``cards``, by place).

    From it: the current hands, the history with every discard's cards written out, the hands as
    dealt and the current perfect-information position. ``key`` (the cards tuple) identifies it.
    """

    __slots__ = ("problem", "cards")

    def __init__(self, problem: Problem, cards: tuple[CardSet, ...]) -> None:
        self.problem = problem
        self.cards = cards

    @property
    def key(self) -> tuple[CardSet, ...]:
        """The cards of every place, in the problem's place order."""
        return self.cards

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and self.cards == other.cards and self.problem.view == other.problem.view

    def __hash__(self) -> int:
        return hash(self.cards)

    def __repr__(self) -> str:
        return f"Deal({self.deal_text()!r}, {self.history()!r})"

    def hands(self) -> tuple[CardSet, CardSet, CardSet]:
        """The three current hands (the viewer's from the view)."""
        view = self.problem.view
        hands = [0, 0, 0]
        hands[view.seat] = view.hand
        for p, m in zip(self.problem.places, self.cards, strict=True):
            if p.is_hand:
                hands[p.seat] = m
        return (hands[0], hands[1], hands[2])

    def tricks(self) -> Tricks:
        """The history with every face-down discard showing its cards."""
        reveal = {(p.trick, p.play): m for p, m in zip(self.problem.places, self.cards, strict=True) if not p.is_hand}
        return tuple(
            tuple(Play(DISCARD, reveal[t, i], p.size) if p.hidden else p for i, p in enumerate(tr))
            for t, tr in enumerate(self.problem.view.tricks)
        )

    def history(self) -> str:
        """The history field with every discard's cards written out (``xC2``)."""
        return format_history(self.tricks())

    def dealt(self) -> tuple[CardSet, CardSet, CardSet]:
        """The 12-card hands as dealt: each current hand plus every card its seat played."""
        view = self.problem.view
        hands = list(self.hands())
        for t, tr in enumerate(self.tricks()):
            for i, p in enumerate(tr):
                hands[(view.leaders[t] + i) % 3] |= p.cards
        return (hands[0], hands[1], hands[2])

    def deal_text(self) -> str:
        """The hands as dealt, ``H0/H1/H2``."""
        return "/".join(format_cards(h) for h in self.dealt())

    def position(self) -> Position | None:
        """The current perfect-information position (None in the calling phase: no caller yet)."""
        view = self.problem.view
        if view.caller is None:
            return None
        tricks = self.tricks()
        trick = tricks[-1] if tricks and len(tricks[-1]) < 3 else ()
        to_move = view.to_move if view.to_move is not None else view.trick_leader
        return Position(self.hands(), to_move, view.caller, view.fu, view.faceup, trick)

    def to_json(self) -> dict[str, Any]:
        """``{"deal", "history", "position"}`` in NOTATION form (position null in the calling phase)."""
        pos = self.position()
        return {"deal": self.deal_text(), "history": self.history(), "position": None if pos is None else str(pos)}


# ---------------------------------------------------------------- the CP-SAT model


class _Encoder:
    """Adds the constraints of a problem to a CP-SAT model over ``x[card, place]``."""

    def __init__(self, model: cp_model.CpModel, problem: Problem, x: dict[tuple[int, int], Any]) -> None:
        self.model = model
        self.problem = problem
        self.x = x
        self._lits: dict[tuple[int, int, int], Any] = {}

    def held(self, seat: int, trick: int, c: int) -> Any:
        """A literal: hidden card ``c`` was in ``seat``'s holding at ``trick``."""
        key = (seat, trick, c)
        lit = self._lits.get(key)
        if lit is None:
            lit = self.model.new_bool_var(f"held_{seat}_{trick}_{c}")
            self.model.add(sum(self.x[c, j] for j in self.problem.members(seat, trick)) == lit)
            self._lits[key] = lit
        return lit

    def clause(self, lits: list[Any], guard: list[Any]) -> None:
        """``guard`` (all true) implies one of ``lits``; with no lits, the guard must fail."""
        self.model.add_bool_or(lits + [g.Not() for g in guard])

    def add(self, con: Constraint, guard: list[Any]) -> None:
        """Add one constraint, enforced when every literal of ``guard`` is true."""
        hidden = self.problem.hidden
        if isinstance(con, Discard):
            for lim in discard_limits(con, hidden):
                if lim.limit < 0:
                    self.clause([], guard)
                    continue
                terms = [self.x[c, j] for c in iter_cards(lim.cards) for j in self.problem.members(lim.seat, lim.trick)]
                ct = self.model.add(sum(terms) <= lim.limit)
                if guard:
                    ct.only_enforce_if(guard)
            return
        lc = lead_chains(con, hidden)

        def value(c: int, st: int) -> Any:
            return True if st == IN else False if st == OUT else self.held(con.seat, con.trick, c)

        old_guard: list[Any] | None = guard
        if lc.old == OUT:
            old_guard = None
        elif lc.old == HIDDEN:
            old = self.model.new_bool_var(f"old_{con.trick}")
            lits = [value(c, st) for c, st in lc.above if st == HIDDEN]
            self.model.add_bool_and(lits).only_enforce_if(old)
            self.model.add_bool_or([lit.Not() for lit in lits] + [old])
            old_guard = guard + [old]
        for suit, chain in enumerate(lc.chains):
            g = guard if suit > lc.lead_suit else old_guard
            if g is None:
                continue
            for (a, sa), (b, sb) in zip(chain, chain[1:], strict=False):  # b held => a held
                va, vb = value(a, sa), value(b, sb)
                if vb is False or va is True:
                    continue
                lits = []
                if vb is not True:
                    lits.append(vb.Not())
                if va is not False:
                    lits.append(va)
                self.clause(lits, g)


def _new_model(problem: Problem) -> tuple[cp_model.CpModel, dict[tuple[int, int], Any], _Encoder]:
    """The model of place sizes only: one Boolean per (hidden card, place)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x: dict[tuple[int, int], Any] = {}
    cards = list(iter_cards(problem.hidden))
    for c in cards:
        for j in range(len(problem.places)):
            x[c, j] = model.new_bool_var(f"x_{c}_{j}")
        model.add_exactly_one(x[c, j] for j in range(len(problem.places)))
    for j, p in enumerate(problem.places):
        model.add(sum(x[c, j] for c in cards) == p.size)
    return model, x, _Encoder(model, problem, x)


def build_model(view: SeatView) -> tuple[cp_model.CpModel, dict[tuple[int, int], Any], tuple[Place, ...]]:
    """The CP-SAT model of ``view``: ``(model, vars, places)``.

    ``vars[card, j]`` is true when hidden card ``card`` (index 0-35) lies in ``places[j]``. Every
    hidden card lies in exactly one place, every place holds its size, and every constraint of
    :func:`derive` holds. Its solutions are exactly the deals consistent with the view. An
    invalid view raises its NotationError.
    """
    problem = derive(view)
    model, x, enc = _new_model(problem)
    for con in problem.constraints:
        enc.add(con, [])
    return model, x, problem.places


def _solver(workers: int = 1, seconds: float | None = None) -> Any:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    if seconds is not None:
        solver.parameters.max_time_in_seconds = seconds
    return solver


def is_consistent(view: SeatView) -> bool:
    """True when some deal is consistent with ``view`` (False also for an invalid view)."""
    try:
        model, _places, _vars = build_model(view)
    except NotationError:
        return False
    from ortools.sat.python import cp_model

    status = _solver().solve(model)
    if status == cp_model.UNKNOWN:  # pragma: no cover - tiny models always finish
        raise RuntimeError("CP-SAT could not decide the view")
    return status in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def _where(con: Constraint) -> str:
    return _("trick {trick}, play {play}").format(trick=con.trick + 1, play=con.play + 1)


def explain_infeasible(view: SeatView) -> str:
    """Why no deal fits ``view`` (the trick and play that make it impossible); ``""`` when one does.

    An invalid view gives its validation message. Otherwise the constraints are added play by
    play in the order of the history: the first play after which no deal fits is named, with the
    earlier plays that CP-SAT found it contradicts (sufficient assumptions, not always minimal).
    """
    try:
        problem = derive(view)
    except NotationError as err:
        return str(err)
    from ortools.sat.python import cp_model

    model, _vars, enc = _new_model(problem)
    guards = []
    for k, con in enumerate(problem.constraints):
        g = model.new_bool_var(f"play_{k}")
        enc.add(con, [g])
        guards.append(g)

    def feasible(k: int) -> bool:
        model.clear_assumptions()
        model.add_assumptions(guards[:k])
        return _solver().solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)

    n = len(guards)
    if feasible(n):
        return ""
    if not feasible(0):  # pragma: no cover - a valid view's places always fit its hidden cards
        return _("the hidden cards do not fit the hidden places")
    lo, hi = 0, n  # feasible(lo), not feasible(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if feasible(mid):
            lo = mid
        else:
            hi = mid
    con = problem.constraints[hi - 1]
    model.clear_assumptions()
    model.add_assumptions(guards[:hi])
    solver = _solver()
    solver.solve(model)
    index = {g.index: k for k, g in enumerate(guards)}
    core = sorted(index[i] for i in solver.sufficient_assumptions_for_infeasibility() if i in index)
    others = [problem.constraints[k] for k in core if k != hi - 1]
    msg = _("no deal fits the history at {where}: {what}").format(where=_where(con), what=con.describe())
    if others:
        found = "; ".join(f"{_where(o)}: {o.describe()}" for o in others)
        msg += _("; it contradicts {others}").format(others=found)
    else:
        msg += _("; the cards the view shows rule that out")
    return msg


def enumerate_deals(view: SeatView, limit: int | None = None, seconds: float | None = None) -> list[Deal]:
    """Every deal consistent with ``view`` (at most ``limit``), found by CP-SAT with one worker.

    For small views and tests. The list is sorted by the deals' keys, so it does not depend on
    the order CP-SAT finds them in. ``seconds`` bounds the search (the list may then be partial).
    """
    problem = derive(view)
    return [Deal(problem, cards) for cards in _enumerate(problem, limit, seconds)[0]]


def count_deals(view: SeatView, limit: int | None = None, seconds: float | None = None) -> int:
    """The number of deals consistent with ``view``, counted up to ``limit`` (then ``limit``)."""
    return len(_enumerate(derive(view), limit, seconds)[0])


def _enumerate(
    problem: Problem, limit: int | None, seconds: float | None = None
) -> tuple[list[tuple[CardSet, ...]], bool]:
    """All solutions' place cards (sorted), and whether the enumeration is complete."""
    from ortools.sat.python import cp_model

    model, x, enc = _new_model(problem)
    for con in problem.constraints:
        enc.add(con, [])
    n = len(problem.places)
    cards = list(iter_cards(problem.hidden))
    index = [[x[c, j].index for j in range(n)] for c in cards]
    found: list[tuple[CardSet, ...]] = []

    class Collector(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            values = self.response_proto.solution  # one read of the whole solution
            masks = [0] * n
            for c, ids in zip(cards, index, strict=True):
                for j, i in enumerate(ids):
                    if values[i]:
                        masks[j] |= 1 << c
                        break
            found.append(tuple(masks))
            if limit is not None and len(found) >= limit:
                self.stop_search()

    solver = _solver(1, seconds)
    solver.parameters.enumerate_all_solutions = True
    if limit is not None and limit <= 0:
        return [], False
    status = solver.solve(model, Collector())
    complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and (limit is None or len(found) < limit)
    found.sort()
    return found, complete
