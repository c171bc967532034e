"""``lukfu review`` (docs/review.md): one JSON object with the documented keys, the words in each
language, bad records as the record reader's one line (exit 2), Ctrl-C as 130, and batches in
input order, the same for any ``--jobs`` and on a cluster; ``play`` and ``replay`` point to it."""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cli_checks import assert_bad_input
from rich.cells import cell_len
from typer.testing import CliRunner

from lukfu_cli import review_cmd, review_render
from lukfu_cli.app import app
from lukfu_solver.analysis import calibration, review_work
from lukfu_solver.analysis.calibration import AGAINST
from lukfu_solver.analysis.moves import candidates
from lukfu_solver.analysis.review import LUCK, VERDICTS
from lukfu_solver.i18n import using_language
from lukfu_solver.view import SeatView

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "deal-175.json"
BLUNDERS = ROOT / "examples" / "match-deal.json"
"""A deal whose caller (seat 0) blunders twice in the play: every word of a verdict is shown."""
LUKFU = str(Path(sys.executable).with_name("lukfu"))
FAST = ["--samples", "8", "--max-nodes", "20000"]
runner = CliRunner()


def run(*args: str, lang: str = "en", columns: int = 80) -> Any:
    return runner.invoke(app, [*args, "--lang", lang], env={"COLUMNS": str(columns)})


def timeless(d: Any) -> Any:
    """``d`` without its timings (every key ending in "seconds")."""
    if isinstance(d, dict):
        return {k: timeless(v) for k, v in d.items() if not k.endswith("seconds")}
    return [timeless(v) for v in d] if isinstance(d, list) else d


@functools.cache
def review_json(*args: str, lang: str = "en") -> dict[str, Any]:
    """The example's review as JSON (cached: each costs seconds of solving)."""
    result = run("review", str(EXAMPLE), *FAST, "--json", *args, lang=lang)
    assert result.exit_code == 0, (result.output, result.exception)
    return json.loads(result.stdout)


@functools.cache
def review_text(*args: str, lang: str = "en", columns: int = 80, record: Path = EXAMPLE) -> str:
    """The example's review in words (cached), or ``record``'s."""
    result = run("review", str(record), *FAST, *args, lang=lang, columns=columns)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.stdout


# ---------------------------------------------------------------- the JSON object


@pytest.mark.slow
def test_json_has_the_documented_keys() -> None:
    data = review_json()
    assert data["format"] == "lukfu-review/1"
    assert set(data) == {
        "format", "record", "settings", "thresholds", "decisions", "summary", "solves", "seconds", "cpu_seconds",
    }  # fmt: skip
    record = json.loads(EXAMPLE.read_text())
    assert data["record"]["plays"] == record["plays"] and data["record"]["hands"] == record["hands"]
    calls = [d for d in data["decisions"] if d["call"]]
    plays = [d for d in data["decisions"] if not d["call"]]
    assert [d["seat"] for d in calls] == [0, 1] and all(d["kind"] == "call" and d["index"] is None for d in calls)
    for d in plays:
        assert d["played"] == record["plays"][d["index"]]
        assert len(d["position"].split(" ")) == 6  # the six-field position line before the play
        assert isinstance(d["exact_before"], float) and isinstance(d["exact_after"], float)
        weighed = {str(m) for m in candidates(SeatView.parse(d["view"]))} | {d["played"]}
        assert d["legal"] >= 2 and {m["move"] for m in d["moves"]} == weighed and len(weighed) <= d["legal"]
        assert d["verdict"] in (None, *VERDICTS) and d["luck"] in (None, "lucky", "unlucky")
        for m in d["moves"]:
            assert set(m) == {"move", "mean", "stderr", "loss", "loss_stderr", "caller_mean"}
        assert d["moves"][0]["loss"] == 0 and d["best"] == d["moves"][0]["move"]
    summary = data["summary"]
    assert [s["seat"] for s in summary["seats"]] == [0, 1, 2]
    assert sum(s["decisions"] for s in summary["seats"]) == len(data["decisions"])
    assert summary["chart"]["seat"] == record["caller"]
    assert [p["label"] for p in summary["chart"]["points"]] == ["start", "trick", "trick", "end"]
    assert data["thresholds"]["caller"] == {"inaccuracy": 1.0, "mistake": 2.0, "blunder": 4.0}


def test_one_seat() -> None:
    data = review_json("--seat", "2")
    assert {d["seat"] for d in data["decisions"]} == {2} and [s["seat"] for s in data["summary"]["seats"]] == [2]
    assert data["summary"]["chart"]["seat"] == 2


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ru", "hi", "es"])
def test_json_is_the_same_in_every_language(lang: str) -> None:
    assert timeless(review_json("--seat", "1", lang=lang)) == timeless(review_json("--seat", "1"))


# ---------------------------------------------------------------- the words


ENGLISH = ("Review of deal", "Summary", "Turning points", "points a decision", "inaccurac", "mistake", "blunder",
           "with all cards seen", "The caller's result", "lucky", "From its own view", "points", "sampled deal")  # fmt: skip
"""English words of the review; none may be left in a translated output."""
FORBIDDEN = [r"(?i)\bnodes?\b", r"PIMC", r"(?i)midpoint", r"(?i)\bbounds?\b", r"(?i)(?<!-)\bsamples?\b", r"M[12]\b"]


@pytest.mark.slow
def test_the_review_speaks_a_players_words() -> None:
    text = review_text("--seat", "0", record=BLUNDERS)
    for needle in ("Summary", "Turning points", "The caller's result after each trick", "blunder ??"):
        assert needle in text
    found = {p: m.group(0) for p in FORBIDDEN if (m := re.search(p, text))}
    assert not found, found
    assert all(cell_len(line) <= 80 for line in text.splitlines())


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ru", "hi", "es"])
def test_the_review_in_each_language(lang: str) -> None:
    text = review_text("--seat", "0", lang=lang, record=BLUNDERS)
    assert text != review_text("--seat", "0", record=BLUNDERS)
    left = [w for w in ENGLISH if w in text]
    assert not left, left
    assert all(cell_len(line) <= 80 for line in text.splitlines())
    with using_language(lang):
        from lukfu_solver.i18n import _

        assert _("blunder") in text and _("Summary") in text
    # numbers as the language writes them (as play writes them): 0,44 and 20 000 in Russian
    english_numbers = {"ru": r"\d\.\d|\d,\d\d\d\b", "es": r"\d\.\d\d\b|\d,\d\d\d\b", "hi": r"\d,\d\d\d,\d\d\d"}
    assert not re.findall(english_numbers[lang], text), re.findall(english_numbers[lang], text)


@pytest.mark.slow
def test_the_call_is_judged_on_its_values_against_the_seats_opponents(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 175's players are people: seat 1's call is calibrated against strong opponents, against
    whom calling at seat 1 brings more than PIMC's own values (and passing less): within error of
    passing, where PIMC's own values make it a blunder."""
    call = next(d for d in review_json("--seat", "1")["decisions"] if d["call"])
    assert call["played"] == "play" and call["best"] == "pass" and call["against"] == "strong"
    assert call["verdict"] is None and call["within_error"]
    identity = {"against": {a: {str(s): {"play": [0.0, 1.0], "pass": [0.0, 1.0]} for s in range(3)} for a in AGAINST}}
    monkeypatch.setattr(calibration, "load", lambda: identity)
    result = run("review", str(EXAMPLE), *FAST, "--json", "--seat", "1")
    assert result.exit_code == 0, result.output
    own = next(d for d in json.loads(result.stdout)["decisions"] if d["call"])
    assert own["verdict"] == "blunder" and own["loss"] > call["loss"]


def test_every_verdict_and_luck_mark_has_its_own_word_in_each_language() -> None:
    english = {review_render.verdict_word(v) for v in VERDICTS} | {review_render.luck_word(m) for m in LUCK}
    assert len(english) == len(VERDICTS) + len(LUCK)
    for lang in ("ru", "hi", "es"):
        with using_language(lang):
            words = {review_render.verdict_word(v) for v in VERDICTS} | {review_render.luck_word(m) for m in LUCK}
        assert len(words) == len(english) and not words & english, lang


@pytest.mark.slow
def test_the_chart_fits_the_terminal() -> None:
    def chart(columns: int) -> list[str]:
        result = run("review", str(ROOT / "examples" / "match-deal.json"), *FAST, "--seat", "2", columns=columns)
        assert result.exit_code == 0, result.output
        assert all(cell_len(line) <= columns for line in result.stdout.splitlines())
        return [line for line in result.stdout.splitlines() if "│" in line or "┼" in line]

    narrow, wide = chart(60), chart(120)
    assert narrow and len(narrow) == len(wide)  # one row each two points
    assert max(map(cell_len, narrow)) < max(map(cell_len, wide))  # the columns shrink to fit


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "content",
    [
        None,  # no such file
        "{not json",
        '{"format": "lukfu-record/2"}',
        EXAMPLE.read_text().replace('"T4"', '"T3"'),  # an illegal play
        EXAMPLE.read_text().replace('"points": [0, -2, 2]', '"points": [0, -4, 4]'),  # a wrong result
    ],
    ids=["missing", "json", "keys", "illegal", "result"],
)
def test_bad_records_get_the_record_readers_line(content: str | None, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    line = assert_bad_input(run("review", str(path)))
    assert line == run("replay", str(path)).stderr.strip()  # the record reader's own words


def test_bad_options() -> None:
    assert_bad_input(run("review", str(EXAMPLE), "--seat", "3"), "seat")
    assert_bad_input(run("review", str(EXAMPLE), "--samples", "0"), "samples")
    assert_bad_input(run("review", str(EXAMPLE), "--scheduler", "local:1"), "--scheduler")
    assert_bad_input(run("review"), "RECORD.json")
    assert_bad_input(run("review", str(EXAMPLE), "--batch", str(EXAMPLE)), "RECORD.json")


def test_ctrl_c_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(review_work, "review_record", interrupted)
    result = run("review", str(EXAMPLE))
    assert result.exit_code == 130 and result.stderr.strip() == "interrupted" and result.stdout == ""


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(LUKFU), reason="the lukfu script is not installed next to python")
def test_ctrl_c_stops_a_review_on_two_processes() -> None:
    terminal = {"start_new_session": True, "preexec_fn": lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)}
    proc = subprocess.Popen(
        [LUKFU, "review", str(ROOT / "examples" / "match-deal.json"), "--jobs", "2", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **terminal,
    )
    try:
        time.sleep(4)
        assert proc.poll() is None, "the review ended before it could be interrupted"
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and err == "interrupted\n" and out == ""


# ---------------------------------------------------------------- batches


def batch_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "records"
    folder.mkdir()
    shutil.copy(EXAMPLE, folder / "a.json")
    (folder / "b.json").write_text("{broken")
    short = json.loads(EXAMPLE.read_text())
    short["plays"], short["result"] = short["plays"][:4], None
    (folder / "c.json").write_text(json.dumps(short))
    return folder


def batch(*args: str) -> list[dict[str, Any]]:
    result = run("review", *FAST, "--seat", "1", "--batch", *args)
    assert result.exit_code == 0, (result.output, result.exception)
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.slow
def test_a_batch_in_input_order_the_same_for_any_jobs(tmp_path: Path) -> None:
    folder = batch_dir(tmp_path)
    one = batch(str(folder))
    assert [o["file"] for o in one] == [str(folder / n) for n in ("a.json", "b.json", "c.json")]
    assert "error" in one[1] and one[1]["error"].startswith("file: ") and "error" not in one[0]
    assert one[0]["format"] == "lukfu-review/1" and one[2]["record"]
    single = review_json("--seat", "1")
    assert timeless({k: v for k, v in one[0].items() if k not in ("file", "record")}) == timeless(
        {k: v for k, v in single.items() if k not in ("file", "record")}
    )
    assert timeless(batch(str(folder), "--jobs", "2")) == timeless(one)
    listing = tmp_path / "list.txt"
    lines = [str(folder / "c.json"), EXAMPLE.read_text().strip(), "nowhere.json"]
    listing.write_text("\n".join(lines) + "\n")
    listed = batch(str(listing))
    assert [o["line"] for o in listed] == [1, 2, 3] and "error" in listed[2]
    assert timeless(listed[1])["decisions"] == timeless(one[0])["decisions"]


@pytest.mark.slow
def test_a_batch_on_a_cluster_is_the_same(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    folder = batch_dir(tmp_path)
    assert timeless(batch(str(folder), "--scheduler", "local:1")) == timeless(batch(str(folder)))


# ---------------------------------------------------------------- where players are


def test_replay_names_the_review() -> None:
    result = run("replay", str(EXAMPLE))
    assert f"lukfu review {EXAMPLE}" in " ".join(result.stdout.split())


def test_play_names_the_review_of_its_record(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = runner.invoke(app, ["play", "--seed", "74", "--seat", "0", "--record", str(path)], input="1\n1\n")
    assert result.exit_code == 0, result.output
    assert f"lukfu review {path} --seat 0" in " ".join(result.stdout.split())
    assert path.exists()


def test_the_command_is_documented_with_its_defaults() -> None:
    from lukfu_solver.analysis import defaults as d
    from lukfu_solver.analysis.review import CALLER_GRADES, NON_CALLER_GRADES

    help_text = " ".join((review_cmd.review.__doc__ or "").split())
    for number in (f"{d.REVIEW_SAMPLES} sampled deals", f"{d.REVIEW_MAX_NODES:,} positions",
                   f"{d.REVIEW_CALL_MAX_NODES:,}"):  # fmt: skip
        assert number in help_text, number
    assert "{:g}, {:g} or {:g} points".format(*CALLER_GRADES) in help_text
    assert "{:g}, {:g} or {:g})".format(*NON_CALLER_GRADES) in help_text


def test_a_time_budget_a_decision() -> None:
    result = run("review", str(EXAMPLE), "--seat", "2", "--time", "0.5", "--max-nodes", "20000", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["settings"]["budget"] == 0.5 and data["settings"]["samples"] == 48
    assert all(d["budget"] == 0.5 and 1 <= d["samples"] <= 48 for d in data["decisions"])
