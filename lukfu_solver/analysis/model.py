"""The learned first answer of call/pass advice: a small linear model of a dealt hand's features.

PIMC (``hidden.calls.call_values``) needs seconds; a player at a table wants an answer at once.
This model gives expected points of *play* and of *pass* from the hand alone, instantly, with the
error it was measured to make on held-out hands against PIMC (``train/advice_model.py`` trains
it on solved deals and writes ``data/advice_model.json``: weights, the feature names, the data
recipe and the held-out error). Within the time budget PIMC refines it; the output always says
which answer is which.

Inference is a dot product in plain Python (no numpy), and the weights load on first use, so
``lukfu --help`` and the import of this module cost nothing.

>>> ModelAnswer(-2.0, 0.5, 2.0, 0.5, 2.0, 30).recommendation
'pass'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ..cards import SUIT_MASK9, old_cards
from ..policy.calling import HandFacts

FEATURES = (
    "bias",
    "seat0",
    "seat1",
    "seat2",
    "old",
    "old_seat0",
    "sets",
    "runs",
    "run_cards",
    "longest_suit",
    "shortest_suit",
    "nines",
    "eights",
    "low_cards",
    "call_score",
)
"""The model's inputs, in order (:func:`features`)."""
MODEL_FILE = "advice_model.json"
"""The weights, in ``lukfu_solver/data/`` (package data)."""


def features(facts: HandFacts, seat: int) -> list[float]:
    """A hand's features for the model (:data:`FEATURES`) from its facts (``policy.calling.hand_facts``):
    the seat, Old cards, sets, runs and the cards in runs, suit lengths, high cards (9s, 8s) and
    low cards (ranks 1–3), the policy's call score. Cheap: no sampling, no search."""
    hand = facts.hand
    old = old_cards(hand, 0).bit_count()
    lengths = [((hand >> (9 * s)) & SUIT_MASK9).bit_count() for s in range(4)]
    ranks = [sum((hand >> (9 * s + r)) & 1 for s in range(4)) for r in range(9)]
    run_cards = sum(r.bit_count() for r in facts.runs)
    return [
        1.0,
        float(seat == 0),
        float(seat == 1),
        float(seat == 2),
        float(old),
        float(old * (seat == 0)),
        float(len(facts.sets)),
        float(len(facts.runs)),
        float(run_cards),
        float(max(lengths)),
        float(min(lengths)),
        float(ranks[8]),
        float(ranks[7]),
        float(ranks[0] + ranks[1] + ranks[2]),
        float(facts.call_score),
    ]


@dataclass(frozen=True)
class ModelAnswer:
    """The model's expected points of play and pass for the hand, and its measured errors (RMSE
    on held-out hands against PIMC) of each and of their difference."""

    play: float
    pass_: float
    play_error: float
    pass_error: float
    gap_error: float
    hands: int
    """Held-out hands the errors were measured on."""
    play_var: float = 12.0
    pass_var: float = 12.0
    gap_var: float = 12.0
    """One sampled deal's typical variance of play, pass and the gap around a hand's mean (the
    training deals' squared residuals less the model's squared error; 12 in a file without
    them): what a few samples' variance is shrunk towards when they refine the model's answer."""

    @property
    def recommendation(self) -> str:
        """``"play"`` when the model values calling above passing."""
        return "play" if self.play > self.pass_ else "pass"

    def to_json(self) -> dict[str, Any]:
        """The learned first answer and its measured error, as ``advise --json`` writes it."""
        return {
            "play": round(self.play, 4),
            "pass": round(self.pass_, 4),
            "recommendation": self.recommendation,
            "error": {"play": self.play_error, "pass": self.pass_error, "gap": self.gap_error, "held_out_hands": self.hands},
        }


@cache
def load_model() -> dict[str, Any] | None:
    """The model file's contents, or None when the package carries none."""
    try:
        text = resources.files("lukfu_solver").joinpath("data", MODEL_FILE).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return None
    data = json.loads(text)
    return data if list(data.get("features", [])) == list(FEATURES) else None


def predict(facts: HandFacts, seat: int) -> ModelAnswer | None:
    """The model's answer for the hand of ``facts`` at ``seat`` (None without a model file). At
    seat 2 pass is 0 exactly (all three passed: a redeal)."""
    model = load_model()
    if model is None:
        return None
    x = features(facts, seat)
    play = sum(w * v for w, v in zip(model["play"], x, strict=True))
    pass_ = 0.0 if seat == 2 else sum(w * v for w, v in zip(model["pass"], x, strict=True))
    err = model["error"]
    var = model.get("sample_var", {})
    return ModelAnswer(
        play,
        pass_,
        err["play"],
        0.0 if seat == 2 else err["pass"],
        err["gap"],
        err["hands"],
        var.get("play", 12.0),
        var.get("pass", 12.0),
        var.get("gap", 12.0),
    )
