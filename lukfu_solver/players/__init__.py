"""Engine players behind one small interface: ``random``, ``rule``, ``pimc`` and ``ipimc``.

A player is any object with a ``name`` that, given its :class:`~lukfu_solver.view.SeatView`,
answers ``"play"``/``"pass"`` in the calling phase (``view.caller is None``) and a
:class:`~lukfu_solver.plays.Play` otherwise — exactly what :func:`~lukfu_solver.game.play_deal`
asks of its players. :func:`make_player` builds one from a short spec:

- ``random`` — uniformly random legal choices (:class:`RandomPlayer`, ``players/random.py``);
- ``rule`` / ``rule:T`` — :class:`RulePlayer` (``policy/rule.py``: it needs only the rules, so
  it stands below the hidden-hand modules that replay it), simple principles, calling when its
  hand's strength (Old cards, sure and near-sure winners, sets, runs) reaches ``T``;
- ``pimc`` / ``pimc:L`` — :class:`PimcPlayer`, perfect-information Monte Carlo at level ``L``
  (1–5): samples the hidden cards, evaluates every candidate move in every sample with the
  exact solver (node-limited) or a rule-player playout, and picks the best mean; sampling,
  evaluation, estimates and the call valuation are the PIMC core's (``hidden.pimc``).
- ``easy``, ``medium``, ``strong`` — the plain strengths a table offers (:data:`STRENGTHS`);
- ``ipimc`` / ``ipimc:L`` — the PIMC player over deals weighted by what the other seats did
  (``players/ipimc.py``): a pool of four times its samples weighed by the rule model and carried
  between its decisions, the configuration measured ahead of ``pimc``.

Every player is deterministic: the same seed and the same views give the same answers, in any
process (``pimc`` draws each decision's samples from its seed and the view's text, and limits
the solver by nodes, never by time).

>>> from lukfu_solver.game import play_deal
>>> rec = play_deal([make_player("rule"), make_player("random", 1), make_player("rule:4")], seed=3)
>>> sum(rec.outcome.points), rec == play_deal([make_player("rule"), make_player("random", 1), make_player("rule:4")], 3)
(0, True)
"""

from ..policy.rule import RulePlayer
from .pimc import CALL_CALIBRATION, DEFAULT_LEVEL, LEVELS, MoveValue, PimcDecision, PimcPlayer
from .random import RandomPlayer
from .registry import (
    PLAYER_KINDS,
    SPEC_HELP,
    STRENGTHS,
    Player,
    against_of,
    make_player,
    player_factory,
    strength_of,
    strength_of_name,
)

__all__ = [
    "against_of",
    "player_factory",
    "strength_of",
    "strength_of_name",
    "CALL_CALIBRATION",
    "DEFAULT_LEVEL",
    "LEVELS",
    "PLAYER_KINDS",
    "SPEC_HELP",
    "STRENGTHS",
    "PimcDecision",
    "MoveValue",
    "PimcPlayer",
    "Player",
    "RandomPlayer",
    "RulePlayer",
    "make_player",
]
