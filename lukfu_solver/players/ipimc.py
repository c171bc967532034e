"""The inference player ``ipimc``: the PIMC player with its sampled deals weighted by what the
other seats did (``hidden.inference``, ``docs/inference.md``).

Everything but the weights is the ``pimc`` player's: the same levels, candidates, samples,
node budgets and call decision (a call sees no other seat's play yet, and the PIMC call
valuation already values passing by the later seats' policy). In the play phase each sampled
deal is weighted by the likelihood of the other seats' calls and plays under the opponent
model (the rule player softened, fitted on self-play records of the ``pimc`` player), tempered
so the effective sample size stays at a floor; the moves are valued by the weighted means.
"""

from __future__ import annotations

from typing import Any

from ..hidden.inference import ESS_SHARE, Facts, OpponentModel, Weights, weigh
from ..plays import Play
from ..view import SeatView
from .pimc import CALL_CALIBRATION, DEFAULT_LEVEL, PimcPlayer
from .rule import Ctx, hand_strength, rule_move

FITTED: dict[str, Any] = {"slope": 2.0, "threshold": 6.0, "eps": (0.3, 0.3, 0.3)}
"""The opponent model's parameters, fitted by maximum likelihood on self-play records of the
level-3 ``pimc`` player (``bench/inference.py --fit``; the figures in
``bench/results/inference.json``, ``fit``)."""


def rule_policy(facts: Facts) -> Play:
    """The rule player's move for a seat's facts (the opponent model's policy)."""
    return rule_move(Ctx(*facts))


def opponent_model(**overrides: Any) -> OpponentModel:
    """The opponent model with the fitted parameters (``overrides`` replace some)."""
    params = {**FITTED, **overrides}
    return OpponentModel(rule_policy, hand_strength, params["slope"], params["threshold"], tuple(params["eps"]))


class IpimcPlayer(PimcPlayer):
    """PIMC over importance-weighted deals (see the module notes); ``share`` is the effective
    sample size floor as a share of the samples."""

    def __init__(
        self,
        level: int = DEFAULT_LEVEL,
        seed: int = 0,
        *,
        model: OpponentModel | None = None,
        share: float = ESS_SHARE,
        name: str | None = None,
        calibration: float = CALL_CALIBRATION,
        **overrides: int,
    ) -> None:
        if name is None:
            name = "ipimc" if level == DEFAULT_LEVEL else f"ipimc:{level}"
        super().__init__(level, seed, name=name, calibration=calibration, **overrides)
        self.model = model or opponent_model()
        self.share = share

    def weigh(self, view: SeatView, deals: list[Any]) -> Weights | None:
        """The deals weighted by the opponent model's likelihood of the other seats' actions."""
        return weigh(self.model, view, deals, self.share)
