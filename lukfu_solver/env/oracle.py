"""What no other game environment offers: the exact value of every legal play with all cards
seen (the one solver, :func:`~lukfu_solver.search.make_solver`) and deals consistent with what
the acting person has seen (the one sampler, :func:`~lukfu_solver.hidden.make_sampler`), for
perfect-training-imperfect-execution research and PIMC baselines.

Values are in the acting person's points: the caller's net points under best play for the caller
(M1), minus half of them for a non-caller (M2: the mean of the two non-callers' results).

>>> from lukfu_solver.env.episode import Episode
>>> from lukfu_solver.env.actions import CALL_PLAY
>>> ep = Episode.from_seed(7); ep.apply(CALL_PLAY)
>>> worlds = sample_worlds(ep, 3, seed=1)
>>> len(worlds), worlds[0].dealt[0] == ep.hands[0], worlds[0].position.hands[0] == ep.hands[0]
(3, True, True)
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import NotationError
from ..hidden import make_sampler
from ..hidden.pimc import viewer_points
from ..i18n import _
from ..plays import Play
from ..position import Position
from ..record import GameRecord, Hands
from ..search import ExactSolver, make_solver
from ..view import SeatView
from .actions import Decision
from .episode import Episode
from .render import table_text


class World(NamedTuple):
    """One deal consistent with the acting person's view: the hands as ``dealt`` (by lukfu
    seat) and the ``position`` now in that deal (None in the calling phase)."""

    dealt: Hands
    position: Position | None


def sample_worlds(ep: Episode, n: int, seed: int = 0, *, exact: bool = True) -> list[World]:
    """``n`` deals drawn independently from those consistent with the acting person's view
    (uniformly with ``exact``; else by the sampler's rule, which turns approximate when many
    cards lie in hidden discards: ``docs/sampling.md``). The same ``seed`` gives the same deals."""
    if n < 0:
        raise NotationError("n", _("a count is at least 0, got {n}").format(n=n))
    sampler = make_sampler(ep.view(), seed, exact=exact)
    return [World(d.dealt(), d.position()) for d in sampler.samples(n)]


def exact_values(ep: Episode, world: World | None = None, solver: ExactSolver | None = None) -> dict[Play, float]:
    """Every legal play of the acting person with its exact value with all cards seen, in that
    person's points (M1, M2): in the episode's own deal, or in ``world`` (one of
    :func:`sample_worlds`; averaging over worlds is PIMC). A play ending the deal is worth its
    result. Solving a whole deal can take seconds a play; ``solver`` (from ``make_solver``)
    keeps its table from one call to the next."""
    pos = (world.position if world is not None else None) or (ep.pos.copy() if ep.pos is not None else None)
    if ep.phase != "play" or pos is None:
        raise NotationError(
            "phase", _("exact values are given in the play phase, not in phase {phase}").format(phase=ep.phase)
        )
    if world is not None and world.position is None:
        raise NotationError("world", _("the world has no position (it was drawn in the calling phase)"))
    solver = solver or make_solver("compiled")
    seat, caller = pos.to_move, pos.caller
    out: dict[Play, float] = {}
    for play in Decision(pos).plays_list():
        pos.push(play)
        value = pos.outcome.points[caller] if pos.outcome is not None else solver.value(pos)
        pos.pop()
        out[play] = viewer_points(seat, caller, value)
    return out


class LukfuObjects:
    """lukfu's objects on an environment that holds an ``episode``: the record, the acting
    person's seat view, the oracle (one solver kept from call to call) and the table as text (a
    mixin of the PettingZoo environment, the Gymnasium environment and the OpenSpiel state)."""

    episode: Episode
    _solver: ExactSolver | None = None

    def record(self) -> GameRecord:
        """The lukfu record of the episode so far (``lukfu replay`` accepts it)."""
        return self.episode.record()

    def view(self) -> SeatView:
        """The acting person's seat view."""
        return self.episode.view()

    def exact_values(self, world: World | None = None) -> dict[Play, float]:
        """Every legal play of the acting person with its exact value (:func:`exact_values`)."""
        if self._solver is None:
            self._solver = make_solver("compiled")
        return exact_values(self.episode, world, self._solver)

    def sample_worlds(self, n: int, seed: int = 0) -> list[World]:
        """``n`` deals consistent with the acting person's view (:func:`sample_worlds`)."""
        return sample_worlds(self.episode, n, seed)

    def render(self) -> str | None:
        """The table with every card shown: returned (``render_mode`` ``ansi``), or printed (``human``)."""
        text = table_text(self.episode)
        if getattr(self, "render_mode", None) == "human":
            print(text)
            return None
        return text
