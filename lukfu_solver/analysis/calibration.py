"""Calibrated call values: what *play* and *pass* bring against the opponents a seat faces.

PIMC solves every sampled deal with every card seen, and deals the unseen cards uniformly: the
opponents it plays against are perfect, which no engine or person at a table is, and at seats 1
and 2 it forgets that the seats before passed (their hands are weaker than a uniform deal's).
The deals bring other points than it predicts: at seat 0 the spread of the predictions is too
wide, at seats 1 and 2 calling brings points more. The correction is a fitted line of the
advice's own value for each opponent strength (``easy``, ``medium``, ``strong``:
``players.STRENGTHS``), seat and branch, ``realized = a + b * predicted`` (the slope ``b`` shared
by the seats of a strength and branch), fitted by ``python -m train.calibration`` on deals the
``strong`` engine played out both ways, calling and passing,
against those opponents (``lukfu_solver/data/calibration.json``, loaded on first use);
``python -m bench.calibration`` checks it on other deals (``docs/pimc.md``, "Calibration").

>>> c = correction("easy", 1); (c.against, c.seat)
('easy', 1)
>>> correction("strong", 2).pass_(0.0)
0.0
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ..errors import NotationError
from ..hidden.pimc import ChoiceEstimate
from ..i18n import _

AGAINST = ("easy", "medium", "strong")
"""The opponent strengths a value can be calibrated against (weakest first)."""
DEFAULT_AGAINST = "strong"
"""What ``advise``, ``analyse HAND`` and the hint calibrate against unless told."""
CALIBRATION_FILE = "calibration.json"
"""The fitted corrections, in ``lukfu_solver/data/`` (package data)."""


@cache
def load() -> dict[str, Any]:
    """The fitted corrections (``train/calibration.py``)."""
    text = resources.files("lukfu_solver.data").joinpath(CALIBRATION_FILE).read_text(encoding="utf-8")
    return json.loads(text)


def check_against(against: str) -> str:
    """``against`` as a strength name (lower case), or NotationError naming ``against``."""
    name = against.strip().lower()
    if name not in AGAINST:
        raise NotationError(
            "against",
            _("expected one of {names}, got {value}").format(names=", ".join(AGAINST), value=repr(against)),
        )
    return name


@dataclass(frozen=True)
class Correction:
    """The fitted correction against one opponent strength at one seat: ``play_fit`` and
    ``pass_fit`` are ``(a, b)`` of ``realized = a + b * predicted``."""

    against: str
    seat: int
    play_fit: tuple[float, float]
    pass_fit: tuple[float, float]

    def play(self, predicted: float) -> float:
        """The calibrated value of calling."""
        a, b = self.play_fit
        return a + b * predicted

    def pass_(self, predicted: float) -> float:
        """The calibrated value of passing (at seat 2 a pass is a redeal, 0 by the rules: kept)."""
        if self.seat == 2:
            return predicted
        a, b = self.pass_fit
        return a + b * predicted


def correction(against: str, seat: int) -> Correction:
    """The fitted correction against ``against`` (one of :data:`AGAINST`) at ``seat``."""
    fit = load()["against"][check_against(against)][str(seat)]
    play, pass_ = fit["play"], fit["pass"]
    return Correction(against, seat, (float(play[0]), float(play[1])), (float(pass_[0]), float(pass_[1])))


def within_samples(corrected: float, estimate: ChoiceEstimate) -> float:
    """``corrected`` clamped into what the estimate's sampled deals could bring: the range of its
    sample values (and its own uncorrected mean, which a model's prior may put outside them). A
    value the samples prove certain (every sample the same) is not moved; without values, as is."""
    if not estimate.values:
        return corrected
    low, high = min(*estimate.values, estimate.mean), max(*estimate.values, estimate.mean)
    return min(max(corrected, low), high)


def calibrated(
    play: ChoiceEstimate, pass_: ChoiceEstimate, gap_stderr: float, seat: int, against: str
) -> tuple[ChoiceEstimate, ChoiceEstimate, float]:
    """The advice's ``play`` and ``pass_`` estimates and its gap's standard error corrected to what
    the deals bring against ``against`` at ``seat`` (each error scaled by its fit's slope; at seat
    2 pass is 0 by the rules and kept). A corrected mean never leaves what the sampled deals could
    bring (:func:`within_samples`): a certain +14 stays +14."""
    c = correction(against, seat)
    out_play = dataclasses.replace(
        play, mean=within_samples(c.play(play.mean), play), stderr=play.stderr * abs(c.play_fit[1])
    )
    out_pass = pass_
    if seat != 2:
        out_pass = dataclasses.replace(
            pass_, mean=within_samples(c.pass_(pass_.mean), pass_), stderr=pass_.stderr * abs(c.pass_fit[1])
        )
    return out_play, out_pass, gap_stderr * abs(c.play_fit[1])
