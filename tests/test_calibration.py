"""The calibration of the call's values: the fitted corrections are loaded and applied, and every
place that shows the values says what they are against."""

from __future__ import annotations

import dataclasses
import json

import pytest
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_solver.analysis import calibration
from lukfu_solver.analysis.advice import advise
from lukfu_solver.analysis.calibration import AGAINST, DEFAULT_AGAINST, calibrated, correction, kept_if_certain, load
from lukfu_solver.analysis.defaults import make_limits
from lukfu_solver.analysis.hint import hint
from lukfu_solver.errors import NotationError
from lukfu_solver.game import dealt_hand
from lukfu_solver.hidden.pimc import ChoiceEstimate
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
        assert adv.play.mean == pytest.approx(kept_if_certain(c.play(raw.play.mean), raw.play))
        assert adv.pass_.mean == pytest.approx(kept_if_certain(c.pass_(raw.pass_.mean), raw.pass_))
        assert adv.recommendation == ("play" if adv.play.mean > adv.pass_.mean else "pass")


def test_a_correction_in_the_file_is_what_the_advice_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    """The values come from the data file: a different file, different values."""
    hand = dealt_hand(5, 1)
    raw = advise(hand, 1, 4, 1, 1, LIMITS, against=None)
    fake = {"against": {a: {str(s): {"play": [1.5, 0.5], "pass": [-1.0, 2.0]} for s in range(3)} for a in AGAINST}}
    monkeypatch.setattr(calibration, "load", lambda: fake)
    adv = advise(hand, 1, 4, 1, 1, LIMITS, against="medium")
    assert adv.play.mean == pytest.approx(kept_if_certain(1.5 + 0.5 * raw.play.mean, raw.play))
    assert adv.pass_.mean == pytest.approx(kept_if_certain(-1.0 + 2.0 * raw.pass_.mean, raw.pass_))
    assert adv.play.stderr == pytest.approx(0.5 * raw.play.stderr)


def estimate(move: str, values: tuple[float, ...], mean: float, stderr: float) -> ChoiceEstimate:
    """An estimate with these sample values and this mean (a model's prior may put it outside them)."""
    return ChoiceEstimate(move, mean, stderr, values)


def test_a_certain_value_is_kept_and_any_other_takes_its_line() -> None:
    """A value every sample proves certain (a +14 in every deal) is not moved; any other takes its
    fitted curve even outside the samples' range (a weak hand at seat 1, whose sampled deals all lie
    below what the table brings: a clamp into them biased calling's value); each standard error
    is scaled by its curve's slope at the value."""
    c = correction("strong", 1)
    certain = estimate("play", (14.0,) * 6, 14.0, 0.0)
    assert c.play(14.0) != 14  # the line alone would move it
    spread = estimate("pass", (-3.0, 0.0, 1.0, 1.0), -0.25, 0.9)
    play, pass_, gap_se = calibrated(certain, spread, 1.5, 1, "strong")
    assert play.mean == 14 and play.stderr == 0 and play.values == certain.values
    assert pass_.mean == pytest.approx(c.pass_(-0.25))
    assert pass_.stderr == pytest.approx(0.9 * abs(c.pass_slope(-0.25))) and gap_se == pytest.approx(1.5 * abs(c.play_slope(14.0)))
    weak = estimate("play", (-10.0, -8.0, -6.0, -6.0), -7.5, 0.9)
    assert c.play(-7.5) > -6.0  # above every sampled deal: a clamp would pull it down to -6
    assert calibrated(weak, spread, 1.5, 1, "strong")[0].mean == pytest.approx(c.play(-7.5))
    # a model's prior may put the uncorrected mean apart from equal samples: not certain, the line
    assert kept_if_certain(9.0, estimate("play", (8.0, 8.0), 7.0, 1.0)) == 9.0
    assert kept_if_certain(9.0, estimate("play", (8.0, 8.0), 8.0, 0.0)) == 8.0
    assert kept_if_certain(5.5, estimate("play", (), 5.0, 2.0)) == 5.5  # no samples (the model's answer): the line


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


FAKE = {"against": {a: {str(s): {"play": [1.5, 0.5], "pass": [-1.0, 2.0]} for s in range(3)} for a in AGAINST}}
"""A correction far from the identity, so that applying it shows (the file's may be the identity)."""


def test_a_correction_changes_what_the_hint_and_analyse_show(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hint's numbers and ``analyse``'s words are the corrected values, with what they are
    against and PIMC's own values beside them."""
    monkeypatch.setattr(calibration, "load", lambda: FAKE)
    view = SeatView(1, dealt_hand(5, 1), None, (), ("pass",))
    h = hint(view, 1, 1, samples=4, limits=LIMITS, against="medium")
    assert h.advice is not None and h.advice.uncalibrated is not None
    raw_play, raw_pass = h.advice.uncalibrated
    data = h.to_json()
    raw_play_e = dataclasses.replace(h.advice.play, mean=raw_play)
    raw_pass_e = dataclasses.replace(h.advice.pass_, mean=raw_pass)
    assert data["play"]["mean"] == pytest.approx(kept_if_certain(1.5 + 0.5 * raw_play, raw_play_e)) != pytest.approx(raw_play)
    assert data["pass"]["mean"] == pytest.approx(kept_if_certain(-1.0 + 2.0 * raw_pass, raw_pass_e))
    assert data["against"] == "medium" and data["uncalibrated"] == {"play": raw_play, "pass": raw_pass}
    assert data["command"].endswith("--seat 1 --seed 1 --against medium")
    args = ["analyse", "--deal", "5", "--seat", "1", "--seed", "1", *FAST, "--against", "medium"]
    res = runner.invoke(app, [*args, "--json"])
    assert res.exit_code == 0, res.stderr
    adv = json.loads(res.stdout)["advice"]
    shown = adv["play"]["mean"]
    assert shown == pytest.approx(kept_if_certain(1.5 + 0.5 * adv["uncalibrated"]["play"], raw_play_e))
    res = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.stderr
    text = " ".join(res.stdout.split())
    assert f"{shown:+.2f}" in text and "Against medium opponents:" in text
    assert f"play {adv['uncalibrated']['play']:+.2f}" in text  # PIMC's own value, said as such


@pytest.mark.slow
def test_the_review_calibrates_a_call_as_the_table_s_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reviewed call is corrected against the seat's opponents as the record names them (the
    stronger's, as the table's hint is; ``strong`` when a name is a person's), or as asked, and
    gives the hint's numbers at the same work and seed."""
    from lukfu_solver.analysis.review_work import ReviewSettings, review_record
    from lukfu_solver.game import play_deal
    from lukfu_solver.hidden.pimc import SolveLimits
    from lukfu_solver.players import make_player

    fake = {"against": {a: {str(s): {"play": [k + 1.0, 1.0], "pass": [0.0, 1.0]} for s in range(3)} for k, a in enumerate(AGAINST)}}
    monkeypatch.setattr(calibration, "load", lambda: fake)
    rec = play_deal([make_player("rule"), make_player("rule:4"), make_player("rule:5")], 12)
    seat = len(rec.calls) - 1  # the last seat to speak; each case names it first, then the others
    work = {"samples": 4, "call_max_nodes": 20_000, "seats": (seat,), "level": 1}
    for players, asked, want in (
        (("you", "easy A", "easy B"), None, "easy"),
        (("you", "rule", "pimc:1"), None, "medium"),
        (("pimc:1", "rule#2", "rule:4"), None, "easy"),
        (("you", "ann", "rule"), None, "strong"),
        (("you", "easy A", "easy B"), "medium", "medium"),
    ):
        named = dataclasses.replace(rec, players=tuple(players[(i - seat) % 3] for i in range(3)))
        review = review_record(named, ReviewSettings(**work, against=asked))  # type: ignore[arg-type]
        call = next(d for d in review.decisions if d.is_call)
        assert call.against == want, players
        view = SeatView(seat, rec.hands[seat], None, (), rec.calls[:seat])
        h = hint(view, 1, rec.seed or 0, samples=4, limits=SolveLimits(20_000), against=want)
        assert h.advice is not None and h.advice.uncalibrated is not None
        assert {m.move: (m.mean, m.stderr) for m in call.moves} == {
            "play": (h.advice.play.mean, h.advice.play.stderr),
            "pass": (h.advice.pass_.mean, h.advice.pass_.stderr),
        }
        raw_play = dataclasses.replace(h.advice.play, mean=h.advice.uncalibrated[0])
        assert h.advice.play.mean == pytest.approx(kept_if_certain(AGAINST.index(want) + 1.0 + raw_play.mean, raw_play))
