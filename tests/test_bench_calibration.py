"""The calibration's fit and its check (``train/calibration.py``, ``bench/calibration.py``): the
shared-slope lines come out of data made from known lines, the check applies the library's own
correction (a certain value kept), a stopped run goes on where it stopped, and the goal's chance is what a
normal mean gives."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bench import calibration as bench_calibration
from lukfu_solver.analysis import calibration
from lukfu_solver.analysis.calibration import AGAINST
from train import calibration as train_calibration


def test_the_seat_curves_share_their_shape_and_keep_each_seat_s_intercept() -> None:
    rng = random.Random(3)
    truth = {0: 1.0, 1: 3.0, 2: -2.0}
    points = {s: [(x, a + 0.7 * x + rng.gauss(0, 0.5)) for x in (rng.uniform(-8, 8) for _ in range(400))] for s, a in truth.items()}
    a, b, c, rmse = train_calibration.seat_curves(points, ridge=0.0)
    assert b == pytest.approx(0.7, abs=0.02) and c == 0.0
    assert all(a[s] == pytest.approx(truth[s], abs=0.1) for s in truth)
    assert all(0.4 < rmse[s] < 0.6 for s in truth)
    # the ridge pulls the slope towards 1, more with fewer points
    few = {s: p[:5] for s, p in points.items()}
    assert train_calibration.seat_curves(few, ridge=0.0)[1] < train_calibration.seat_curves(few, ridge=10.0)[1] < 1.0
    # a bend is found when asked for, and a line's data give none
    bent = {s: [(x, a + 0.7 * x + 0.02 * x * x + rng.gauss(0, 0.5)) for x, _ in p] for (s, p), a in zip(points.items(), truth.values(), strict=True)}
    a, b, c, _ = train_calibration.seat_curves(bent, ridge=0.0, bend=True)
    assert b == pytest.approx(0.7, abs=0.02) and c == pytest.approx(0.02, abs=0.003)
    assert all(a[s] == pytest.approx(truth[s], abs=0.15) for s in truth)
    assert abs(train_calibration.seat_curves(points, ridge=0.0, bend=True)[2]) < 0.003


def test_the_fit_writes_curves_the_library_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(5)
    rows = []
    for against, shift in zip(AGAINST, (2.0, 1.0, 0.0), strict=True):
        for i in range(1500):
            seat = i % 3
            raw_play, raw_pass = rng.uniform(-8, 8), rng.uniform(-2, 2)
            rows.append(
                {
                    "against": against,
                    "seed": 1,
                    "deal": i,
                    "seat": seat,
                    "raw_play": raw_play,
                    "raw_pass": raw_pass if seat != 2 else 0.0,
                    "real_play": shift + seat + 0.5 * raw_play + 0.02 * raw_play**2,
                    "real_pass": -0.5 + 0.8 * raw_pass if seat != 2 else 0,
                }
            )
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows) + json.dumps({"against": "easy", "seed": 1, "done": 100}) + "\n")
    out = tmp_path / "calibration.json"
    fitted = train_calibration.fit(data, out)
    monkeypatch.setattr(calibration, "load", lambda: json.loads(out.read_text()))
    for against, shift in zip(AGAINST, (2.0, 1.0, 0.0), strict=True):
        for seat in range(3):
            c = calibration.correction(against, seat)
            assert c.play(4.0) == pytest.approx(shift + seat + 2.0 + 0.32, abs=0.05)
            assert c.pass_(1.0) == pytest.approx(0.3 if seat != 2 else 1.0, abs=0.05)
            # beyond the span it was fitted on, the curve goes on as its tangent: no bend extrapolated
            low, high = c.span
            assert -8.0 < low < -7.5 and 7.5 < high < 8.0
            tangent = c.play(high) + c.play_slope(high) * (12.0 - high)
            assert c.play(12.0) == pytest.approx(tangent)
            assert c.play(12.0) < shift + seat + 6.0 + 0.02 * 144 - 0.05  # below the parabola
        assert fitted["fitted_on"][against]["0"]["decisions"] == 500


def test_the_check_applies_the_library_s_correction_keeping_certain_values(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = {"against": {a: {str(s): {"play": [3.0, 0.5], "pass": [-1.0, 1.0]} for s in range(3)} for a in AGAINST}}
    monkeypatch.setattr(calibration, "load", lambda: fake)
    row = {"against": "medium", "seat": 0, "raw_play": 14.0, "raw_pass": 0.5, "play_se": 0.0, "pass_se": 0.3}
    clamped = bench_calibration.with_calibration([{**row, "play_range": [14.0, 14.0], "pass_range": [0.0, 2.0]}])[0]
    assert clamped["play"] == 14.0 and clamped["pass"] == pytest.approx(-0.5) and clamped["call"]  # certain kept, the line below the range
    lines_only = bench_calibration.with_calibration([row])[0]  # a row without ranges: the lines alone
    assert lines_only["play"] == pytest.approx(10.0) and lines_only["pass"] == pytest.approx(-0.5)


def fake_decisions(against: str, deals: int, seed: int, start: int = 0) -> Any:
    """Two decisions a deal, numbered, without playing anything."""
    for d in range(start, deals):
        for seat in (0, 1):
            yield {"against": against, "deal": d, "seat": seat, "raw_play": 0.0, "raw_pass": 0.0, "real_play": d, "real_pass": 0}


def test_a_stopped_run_goes_on_where_it_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench_calibration, "decisions", fake_decisions)
    stream = tmp_path / "rows.jsonl"
    rows, _ = bench_calibration.collect("easy", 3, 7, stream)
    assert [r["deal"] for r in rows] == [0, 0, 1, 1, 2, 2]
    # stopped in the middle of deal 2: its one row is dropped and the deal played again
    lines = stream.read_text().splitlines()
    stream.write_text("\n".join(lines[:5]) + "\n")
    assert bench_calibration._resume_read(stream, "easy", 7)[1] == 2  # the report counts the whole deals
    again, _ = bench_calibration.collect("easy", 4, 7, stream)
    assert [r["deal"] for r in again] == [0, 0, 1, 1, 2, 2, 3, 3]
    written = [json.loads(line) for line in stream.read_text().splitlines()]
    assert [r["deal"] for r in written if "deal" in r] == [0, 0, 1, 1, 2, 2, 3, 3] and written[-1]["done"] == 4
    assert bench_calibration._resume_read(stream, "easy", 7) == (again, 4)
    assert bench_calibration._resume_read(stream, "medium", 7) == ([], 0)
    # a finished run is not played again
    starts: list[int] = []
    monkeypatch.setattr(bench_calibration, "decisions", lambda *a: starts.append(a[3]) or iter(()))
    assert bench_calibration.collect("easy", 4, 7, stream)[0] == again and starts == [4]


def test_the_goal_s_chance_grows_with_the_calls() -> None:
    table = [{"n": 100, "se": 0.4}] * 10
    small = bench_calibration.chance_if_calibrated({"n": 1000, "se": 0.14}, table, 0.2)
    big = bench_calibration.chance_if_calibrated({"n": 4000, "se": 0.07}, [{"n": 400, "se": 0.2}] * 10, 0.2)
    assert small["deciles"] < 0.2 < big["deciles"] and small["bias"] < big["bias"]
    assert small["calls_for_deciles"] == big["calls_for_deciles"] > 1000  # the spread is the same


def test_the_forms_are_compared_out_of_sample(tmp_path: Path) -> None:
    """On decisions made from lines with one slope, the shared line's calls come out unbiased
    within their error, and every form is reported for every strength."""
    rng = random.Random(11)
    rows = []
    for against in AGAINST:
        for deal in range(400):
            for seat in range(3):
                raw_play, raw_pass = rng.uniform(-8, 8), rng.uniform(-2, 2) if seat != 2 else 0.0
                real_play = 1.0 + seat + 0.7 * raw_play + rng.gauss(0, 3)
                real_pass = -0.5 + 0.6 * raw_pass + rng.gauss(0, 1) if seat != 2 else 0.0
                rows.append({"against": against, "seed": 1, "deal": deal, "seat": seat, "raw_play": raw_play, "raw_pass": raw_pass, "real_play": real_play, "real_pass": real_pass})
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = train_calibration.crossval(data, folds=4, shuffles=1)
    assert tuple(result["forms"]) == train_calibration.FORMS == ("bend", "line", "a line a seat")
    assert all(result["forms"]["bend"][a]["play_mse_minus_first"] == 0.0 for a in AGAINST)  # paired against itself
    for against in AGAINST:
        shared = result["forms"]["line"][against]
        assert shared["calls"] > 300 and abs(shared["bias"]) < 3 * shared["se"]
