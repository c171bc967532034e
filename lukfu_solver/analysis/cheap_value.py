"""The learned cheap value of a sampled deal, for two-phase sampling of call/pass advice.

Two-phase sampling (``hidden.calls.TwoPhase``) values every sampled deal with a solve stopped after
a few thousand nodes and solves only some deals exactly; the estimate is exact PIMC in expectation
whatever a stopped solve counts, and the nearer that count is to the exact value, the less
variance is left. A stopped solve has proved bounds; :class:`CheapValue` counts, within them, a
linear function of the rule playout of the deal (every hand seen) clamped to them and the two
bounds, fitted on solved training deals (``train/deal_model.py``, weights in
``lukfu_solver/data/deal_model.json``, loaded on first use, by cheap node limit).

>>> CheapValue(10_000).weights() == tuple(load()["limits"]["10000"]["weights"])
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ..policy.rule import rule_playout
from ..position import Position

MODEL_FILE = "deal_model.json"
"""The weights, in ``lukfu_solver/data/`` (package data)."""


@cache
def load() -> dict[str, Any]:
    """The fitted cheap values (``train/deal_model.py``)."""
    return json.loads(resources.files("lukfu_solver.data").joinpath(MODEL_FILE).read_text(encoding="utf-8"))


@dataclass(frozen=True)
class CheapValue:
    """The cheap value of a branch whose solve stopped after ``cheap_nodes`` nodes having proved
    ``[lower, upper]`` (``hidden.calls.CheapValue``): ``w · (playout clamped, lower, upper)``, the
    weights fitted for that node limit. A picklable value, so a process pool can carry it."""

    cheap_nodes: int

    def weights(self) -> tuple[float, float, float]:
        """The fitted weights of this node limit (a ``KeyError`` names a limit never fitted)."""
        w = load()["limits"][str(self.cheap_nodes)]["weights"]
        return (float(w[0]), float(w[1]), float(w[2]))

    def __call__(self, pos: Position, lower: int, upper: int) -> float:
        a, b, c = self.weights()
        playout = min(max(rule_playout(pos), lower), upper)
        return a * playout + b * lower + c * upper
