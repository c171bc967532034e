"""Calibrated call values: what *play* and *pass* bring against the opponents a seat faces.

PIMC solves every sampled deal with every card seen, and deals the unseen cards uniformly: the
opponents it plays against are perfect, which no engine or person at a table is, and at seats 1
and 2 it forgets that the seats before passed (their hands are weaker than a uniform deal's).
The deals bring other points than it predicts: at seat 0 the spread of the predictions is too
wide, at seats 1 and 2 calling brings points more. The correction is a fitted curve of the
advice's own value for each opponent strength (``easy``, ``medium``, ``strong``:
``players.STRENGTHS``), seat and branch, ``realized = a + b * predicted + c * predicted**2``
(``b`` and ``c`` shared by the seats of a strength and branch; ``c`` is 0 for passing, whose
line the bend did not improve), beyond the span of values it was fitted on its tangent there,
fitted by ``python -m train.calibration`` on deals the ``strong`` engine played out both ways,
calling and passing, against those opponents (``lukfu_solver/data/calibration.json``, loaded
on first use); ``python -m bench.calibration`` checks it on other deals (``docs/pimc.md``,
"Calibration").

>>> c = correction("easy", 1); (c.against, c.seat)
('easy', 1)
>>> correction("strong", 2).pass_(0.0)
0.0
"""

from __future__ import annotations

import dataclasses
import json
import math
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


Curve = tuple[float, float, float]
"""``(a, b, c)`` of ``realized = a + b * predicted + c * predicted**2``."""


@dataclass(frozen=True)
class Correction:
    """The fitted correction against one opponent strength at one seat: ``play_fit`` and
    ``pass_fit`` are the curves of each branch, ``span`` the predicted values they were fitted on
    (beyond it a curve goes on as its tangent at the end: no bend is extrapolated)."""

    against: str
    seat: int
    play_fit: Curve
    pass_fit: Curve
    span: tuple[float, float] = (-math.inf, math.inf)

    def play(self, predicted: float) -> float:
        """The calibrated value of calling."""
        return self._at(self.play_fit, predicted)

    def pass_(self, predicted: float) -> float:
        """The calibrated value of passing (at seat 2 a pass is a redeal, 0 by the rules: kept)."""
        if self.seat == 2:
            return predicted
        return self._at(self.pass_fit, predicted)

    def play_slope(self, predicted: float) -> float:
        """How many calibrated points a point of the predicted value of calling is worth there:
        what its standard error is scaled by."""
        return self._slope(self.play_fit, predicted)

    def pass_slope(self, predicted: float) -> float:
        """As :meth:`play_slope`, for passing (1 at seat 2)."""
        return 1.0 if self.seat == 2 else self._slope(self.pass_fit, predicted)

    def _at(self, fit: Curve, x: float) -> float:
        a, b, c = fit
        x0 = self._in_span(x)
        return a + b * x + c * x0 * (2 * x - x0)

    def _slope(self, fit: Curve, x: float) -> float:
        return fit[1] + 2 * fit[2] * self._in_span(x)

    def _in_span(self, x: float) -> float:
        """``x`` moved into :attr:`span`: where the bend stops and the tangent goes on."""
        return min(max(x, self.span[0]), self.span[1])


def _curve(values: list[float]) -> Curve:
    """A curve as the file writes it: ``[a, b, c]``, or a line ``[a, b]``."""
    a, b, *rest = (float(v) for v in values)
    return (a, b, rest[0] if rest else 0.0)


def correction(against: str, seat: int) -> Correction:
    """The fitted correction against ``against`` (one of :data:`AGAINST`) at ``seat``."""
    fit = load()["against"][check_against(against)][str(seat)]
    span = fit.get("span")
    return Correction(
        against,
        seat,
        _curve(fit["play"]),
        _curve(fit["pass"]),
        (float(span[0]), float(span[1])) if span else (-math.inf, math.inf),
    )


def kept_if_certain(corrected: float, estimate: ChoiceEstimate) -> float:
    """``corrected``, unless the estimate's sampled deals prove the value certain (every sample
    value and the uncorrected mean the same): then that value, which no table changes. A clamp into
    the samples' whole range was tried and dropped: at seats 1 and 2 every sampled deal of a weak
    hand can fall below what the table brings, and it pulled calling's value down, by half a point
    over every decision against ``easy`` (``docs/pimc.md``, "Calibration")."""
    if not estimate.values:
        return corrected
    low, high = min(*estimate.values, estimate.mean), max(*estimate.values, estimate.mean)
    return low if low == high else corrected


def calibrated(
    play: ChoiceEstimate, pass_: ChoiceEstimate, gap_stderr: float, seat: int, against: str
) -> tuple[ChoiceEstimate, ChoiceEstimate, float]:
    """The advice's ``play`` and ``pass_`` estimates and its gap's standard error corrected to what
    the deals bring against ``against`` at ``seat`` (each error scaled by its curve's slope at the
    value; at seat 2 pass is 0 by the rules and kept). A value the sampled deals prove certain is kept
    (:func:`kept_if_certain`): a certain +14 stays +14."""
    c = correction(against, seat)
    play_slope = abs(c.play_slope(play.mean))
    out_play = dataclasses.replace(play, mean=kept_if_certain(c.play(play.mean), play), stderr=play.stderr * play_slope)
    out_pass = pass_
    if seat != 2:
        out_pass = dataclasses.replace(
            pass_, mean=kept_if_certain(c.pass_(pass_.mean), pass_), stderr=pass_.stderr * abs(c.pass_slope(pass_.mean))
        )
    return out_play, out_pass, gap_stderr * play_slope
