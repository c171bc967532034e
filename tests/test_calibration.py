"""The calibration of the call's values: the fitted corrections are loaded and applied, and every
place that shows the values says what they are against."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_solver.analysis import calibration
from lukfu_solver.analysis.advice import advise
from lukfu_solver.analysis.calibration import AGAINST, DEFAULT_AGAINST, correction, load
from lukfu_solver.analysis.defaults import make_limits
from lukfu_solver.analysis.hint import hint
from lukfu_solver.errors import NotationError
from lukfu_solver.game import dealt_hand
from lukfu_solver.view import SeatView

runner = CliRunner()
LIMITS = make_limits(None, None, 20_000)
FAST = ["--samples", "4", "--max-nodes", "20000"]


def test_the_fitted_corrections_are_loaded_for_every_strength() -> None:
    data = load()
    assert set(data["against"]) == set(AGAINST) and DEFAULT_AGAINST == "strong"
    for against in AGAINST:
        for seat in range(3):
            c = correction(against, seat)
            fit = data["against"][against][str(seat)]
            assert [list(c.play_fit), list(c.pass_fit)] == [fit["play"], fit["pass"]]
        assert correction(against, 2).pass_(0.0) == 0.0  # at seat 2 a pass is a redeal: 0 by the rules
    with pytest.raises(NotationError) as err:
        correction("hard", 0)
    assert err.value.field == "against"


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_the_advice_applies_the_correction_to_pimcs_own_values(seat: int) -> None:
    hand = dealt_hand(5, seat)
    raw = advise(hand, seat, 4, 1, 1, LIMITS, against=None)
    assert raw.against is None and raw.uncalibrated is None
    for against in AGAINST:
        adv = advise(hand, seat, 4, 1, 1, LIMITS, against=against)
        c = correction(against, seat)
        assert adv.against == against and adv.uncalibrated == (raw.play.mean, raw.pass_.mean)
        assert adv.play.mean == pytest.approx(c.play(raw.play.mean))
        assert adv.pass_.mean == pytest.approx(c.pass_(raw.pass_.mean))
        assert adv.recommendation == ("play" if adv.play.mean > adv.pass_.mean else "pass")


def test_a_correction_in_the_file_is_what_the_advice_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    """The values come from the data file: a different file, different values."""
    hand = dealt_hand(5, 1)
    raw = advise(hand, 1, 4, 1, 1, LIMITS, against=None)
    fake = {"against": {a: {str(s): {"play": [1.5, 0.5], "pass": [-1.0, 2.0]} for s in range(3)} for a in AGAINST}}
    monkeypatch.setattr(calibration, "load", lambda: fake)
    adv = advise(hand, 1, 4, 1, 1, LIMITS, against="medium")
    assert adv.play.mean == pytest.approx(1.5 + 0.5 * raw.play.mean)
    assert adv.pass_.mean == pytest.approx(-1.0 + 2.0 * raw.pass_.mean)
    assert adv.play.stderr == pytest.approx(0.5 * raw.play.stderr)


def test_the_hint_is_calibrated_against_the_table_s_opponents() -> None:
    view = SeatView(1, dealt_hand(5, 1), None, (), ("pass",))
    h = hint(view, 1, 1, samples=4, limits=LIMITS, against="easy")
    assert h.advice is not None and h.advice.against == "easy"
    assert hint(view, 1, 1, samples=4, limits=LIMITS).advice.against == DEFAULT_AGAINST  # type: ignore[union-attr]


def test_advise_and_analyse_say_what_the_numbers_are_against() -> None:
    res = runner.invoke(app, ["advise", "--deal", "5", "--seat", "1", *FAST, "--against", "medium", "--json"])
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["against"] == "medium" and set(data["uncalibrated"]) == {"play", "pass"}
    res = runner.invoke(app, ["advise", "--deal", "5", "--seat", "1", *FAST], env={"COLUMNS": "200"})
    assert res.exit_code == 0 and "Against strong opponents:" in res.stdout
    res = runner.invoke(app, ["analyse", "--deal", "5", "--seat", "1", *FAST, "--against", "easy", "--json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["advice"]["against"] == "easy"


@pytest.mark.parametrize("command", ["advise", "analyse"])
def test_a_bad_against_is_one_line_naming_the_option(command: str) -> None:
    res = runner.invoke(app, [command, "--deal", "5", "--seat", "1", *FAST, "--against", "hard"])
    assert res.exit_code == 2 and res.stderr.strip().count("\n") == 0
    assert "against" in res.stderr and "easy, medium, strong" in res.stderr and "Traceback" not in res.stderr
