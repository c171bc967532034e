"""``lukfu analyse`` (a view, or a dealt hand) and ``lukfu advise``: plain and --json output, bad
input (exit 2, one line), a view where it is not the viewer's turn, and no progress bar unless
stderr is a terminal. Solves are kept small: late-deal views, few samples, low node limits."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_checks import assert_bad_input
from typer.testing import CliRunner

from lukfu_cli import progress
from lukfu_cli.app import app
from lukfu_solver.game import play_deal
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.plays import Play
from lukfu_solver.view import SeatView

runner = CliRunner()
LUKFU = str(Path(sys.executable).with_name("lukfu"))


CALLER_LEADS = "0 C267 0 T3,x1,T5/T6,T8,x1/M8,x1,x1/S9M9T9,x3,x3/S6,x1,x1/T4,x1,x1/T2,x1,x1"
"""Seat 0, the caller, to lead with 3 cards a hand (a late view of a random deal)."""
NONCALLER = "2 C48T7 0 T1,x1,xC2/S2,S9,xC6/T5,T6,T9/T2,T8,xM5/M1,M3,M4/M2,M8,xT3/M6,M7,M9/S6,S7,S8/S3,S5,x1/C9,x1"
"""Seat 2, a non-caller, to discard with 3 cards a hand."""
NOT_YOUR_TURN = "1 C1378S57M24T789 1 T2,T4,T6/M3"
"""NOTATION.md's example deal: seat 0 is to follow, not seat 1."""
SIX_OLD = "C19S9M9T19C2S2M3T4C5S6"
LOW = "C2356S2457M3467"
FAST = ["--samples", "4", "--max-nodes", "20000"]
VIEW_KEYS = {
    "input",
    "view",
    "seat",
    "caller",
    "to_move",
    "old",
    "points",
    "moves",
    "left_out",
    "best",
    "p_best",
    "samples",
    "requested_samples",
    "stopped_early",
    "timed_out",
    "cut",
    "solves",
    "incomplete",
    "seed",
    "limits",
    "sampler",
    "seconds",
}
ADVICE_KEYS = {
    "play",
    "against",
    "uncalibrated",
    "pass",
    "p_play_better",
    "recommendation",
    "reason",
    "reasons",
    "basis",
    "gap_stderr",
    "p_caller_loses",
    "outcomes",
    "model",
    "samples",
    "requested_samples",
    "stopped",
    "cut",
    "seed",
    "solves",
    "incomplete",
    "limits",
    "seconds",
    "two_phase",
}
FACT_KEYS = {"old", "sets", "runs", "sure_fu", "call_score"}


def run(*args: str):
    """Invoke ``lukfu`` in-process."""
    return runner.invoke(app, list(args))


def ok(*args: str):
    """Invoke ``lukfu`` and require exit 0 with nothing on stderr (so no progress bar either)."""
    result = run(*args)
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    assert result.stderr == ""
    return result


def ok_json(*args: str) -> dict:
    """The one JSON object printed with --json (stdout is JSON only)."""
    out = ok(*args, "--json").stdout
    assert len(out.splitlines()) == 1
    return json.loads(out)


def untimed(obj: object) -> object:
    """``obj`` without its timings (``seconds`` keys anywhere)."""
    if isinstance(obj, dict):
        return {k: untimed(v) for k, v in obj.items() if "seconds" not in k}
    if isinstance(obj, list):
        return [untimed(v) for v in obj]
    return obj


def legal(view_text: str) -> list[str]:
    return sorted(str(m) for m in SeatView.parse(view_text).legal_moves())


# ---------------------------------------------------------------- analyse VIEW


@pytest.mark.slow
def test_analyse_view_plain() -> None:
    out = ok("analyse", CALLER_LEADS, *FAST).stdout
    assert "Seat 0's view (the caller), to lead" in out
    assert "Old cards:" in out and "as the caller." in out and "M1" not in out
    assert "Recommendation:" in out and "4 sampled deals" in out
    for move in legal(CALLER_LEADS):
        assert f" {move} " in out, move


@pytest.mark.slow
def test_analyse_view_json() -> None:
    data = ok_json("analyse", CALLER_LEADS, *FAST)
    assert set(data) == VIEW_KEYS
    v = SeatView.parse(CALLER_LEADS)
    assert data["input"] == "view" and data["view"] == CALLER_LEADS and data["points"] == "M1"
    assert (data["seat"], data["caller"], data["to_move"]) == (v.seat, v.caller, v.seat)
    assert sorted(m["move"] for m in data["moves"]) == legal(CALLER_LEADS)
    for m in data["moves"]:
        assert str(Play.parse(m["move"])) == m["move"]  # canonical text
        assert len(m["values"]) == data["samples"] == 4
        assert -14 <= m["mean"] <= 14 and m["stderr"] >= 0
    means = [m["mean"] for m in data["moves"]]
    assert means == sorted(means, reverse=True) and data["best"] == data["moves"][0]["move"]
    assert data["solves"] == 4 * len(data["moves"]) and data["incomplete"] == 0
    assert data["limits"] == {"max_nodes": 20000, "solve_time": None} and data["seed"] == 0


def test_analyse_view_noncaller_says_m2() -> None:
    out = ok("analyse", NONCALLER, *FAST).stdout
    assert "as a non-caller: a defender's share" in out and "M2" not in out
    data = ok_json("analyse", NONCALLER, *FAST)
    assert data["points"] == "M2" and all(-7 <= m["mean"] <= 7 for m in data["moves"])


def test_analyse_reproducible_and_seeded() -> None:
    a = ok_json("analyse", NONCALLER, "--samples", "8", "--seed", "3")
    b = ok_json("analyse", NONCALLER, "--samples", "8", "--seed", "3")
    assert untimed(a) == untimed(b)
    c = ok_json("analyse", NONCALLER, "--samples", "8", "--seed", "4")
    assert c["seed"] == 4 and [m["values"] for m in c["moves"]] != [m["values"] for m in a["moves"]]


@pytest.mark.slow
def test_analyse_jobs_same_output() -> None:
    one = ok_json("analyse", NONCALLER, "--samples", "16", "--jobs", "1")
    two = ok_json("analyse", NONCALLER, "--samples", "16", "--jobs", "2")
    assert untimed(one) == untimed(two)


def test_analyse_not_your_turn() -> None:
    out = ok("analyse", NOT_YOUR_TURN).stdout
    assert "Seat 0 (the Master) is to follow, not seat 1" in out
    data = ok_json("analyse", NOT_YOUR_TURN)
    assert data["to_move"] == 0 and data["seat"] == 1 and data["moves"] == [] and data["best"] is None
    assert "is to follow" in data["message"]


def test_analyse_deal_over() -> None:
    rec = next(
        r
        for r in (play_deal([RandomPlayer(i) for i in (1, 2, 3)], s) for s in range(60))
        if str(r.plays[-1]) != "claim"
    )
    view = str(rec.view(0))
    assert SeatView.parse(view).is_over
    assert "the deal is over" in ok("analyse", view).stdout
    assert ok_json("analyse", view)["to_move"] is None


def test_calling_phase_view_is_its_hand() -> None:
    data = ok_json("analyse", f"2 {LOW} - pass,pass", *FAST)
    assert data["input"] == "hand" and data["seat"] == 2 and data["leads"] is None
    assert "Seat 1 is to call, not seat 2" in ok("analyse", f"2 {LOW} - pass").stdout


# ---------------------------------------------------------------- analyse HAND


@pytest.mark.slow
def test_analyse_hand_master_plain() -> None:
    out = ok("analyse", SIX_OLD, "--seat", "0", *FAST, "--lead-samples", "2").stdout
    assert "Old cards (6): C19S9M9T19" in out and "Sets: C9S9M9T9" in out and "Runs: none" in out
    assert "Sure fu: 6, enough to claim as soon as it leads" in out and "of the 6 needed" not in out
    assert "Recommendation: PLAY" in out and "Reason:" in out
    assert "its first lead" in out and "claim" in out
    assert "stopped early" in out and "halfway between" in out  # full deals do not finish in 20,000 nodes
    assert "bound" not in out and "midpoint" not in out


@pytest.mark.slow
def test_analyse_hand_master_json() -> None:
    data = ok_json("analyse", SIX_OLD, "--seat", "0", *FAST, "--lead-samples", "2")
    assert set(data) == {"input", "hand", "seat", "advice", "leads"} | FACT_KEYS
    assert data["hand"] == "C1259S269M39T149" and data["old"] == "C19S9M9T19" and data["sure_fu"] == 6
    assert data["sets"] == ["C9S9M9T9"] and data["runs"] == []
    assert set(data["advice"]) == ADVICE_KEYS and data["advice"]["recommendation"] == "play"
    assert data["advice"]["play"]["mean"] >= 2 and data["advice"]["samples"] == 4
    leads = data["leads"]
    legal_leads = legal(f"0 {SIX_OLD} 0 -")
    assert sorted(m["move"] for m in leads["moves"]) == legal_leads and "claim" in legal_leads
    assert leads["samples"] == 2 and leads["solves"] == 2 * len(legal_leads)


def test_analyse_hand_other_seat_has_no_leads() -> None:
    out = ok("analyse", LOW, "--seat", "2", *FAST).stdout
    assert "Old cards (0): none" in out and "Recommendation: PASS" in out
    assert "The Master (seat 0) leads the first trick" in out
    data = ok_json("analyse", LOW, "--seat", "1", *FAST)
    assert data["leads"] is None and data["advice"]["recommendation"] == "pass"


# ---------------------------------------------------------------- advise


def test_advise_plain() -> None:
    out = ok("advise", LOW, "--seat", "2", *FAST).stdout
    assert "Play (call):" in out and "Pass:" in out and "redeal" in out
    assert "Recommendation: PASS" in out and "Reason: pass" in out
    assert "Earlier passes" not in out


def test_advise_json() -> None:
    data = ok_json("advise", SIX_OLD, "--seat", "0", *FAST)
    assert set(data) == {"hand", "seat"} | FACT_KEYS | ADVICE_KEYS
    assert data["recommendation"] == "play" and data["play"]["mean"] >= 2
    assert data["play"]["n"] == data["pass"]["n"] == data["samples"] == 4
    assert 0 <= data["p_play_better"] <= 1 and data["limits"] == {"max_nodes": 20000, "solve_time": None}


def test_advise_counts_its_solves() -> None:
    # seat 2: one solve a sample (passing redeals); seat 0: a second one when a later seat calls
    data = ok_json("advise", LOW, "--seat", "2", *FAST)
    assert data["solves"] == 4 and 0 <= data["incomplete"] <= 4
    data = ok_json("advise", SIX_OLD, "--seat", "0", *FAST)
    assert 4 <= data["solves"] <= 8 and data["incomplete"] <= data["solves"]
    out = ok("advise", SIX_OLD, "--seat", "0", *FAST).stdout
    assert f"{data['solves']} solves" in out and f"of {data['solves']:,} solves stopped" in out


@pytest.mark.slow
def test_default_node_limits_per_kind_of_work() -> None:
    """Advice solves whole deals a sample or two, so its default limit is far higher than that of
    the first-lead table (every legal lead solved a sample); --max-nodes sets both."""
    from lukfu_solver.analysis.defaults import ADVICE_MAX_NODES, DEFAULT_MAX_NODES

    assert ADVICE_MAX_NODES > DEFAULT_MAX_NODES
    data = ok_json("advise", LOW, "--seat", "2", "--samples", "1")
    assert data["limits"] == {"max_nodes": ADVICE_MAX_NODES, "solve_time": None}
    data = ok_json("analyse", SIX_OLD, "--seat", "0", "--samples", "1", "--lead-samples", "1")
    assert data["advice"]["limits"]["max_nodes"] == ADVICE_MAX_NODES
    assert data["leads"]["limits"]["max_nodes"] == DEFAULT_MAX_NODES
    data = ok_json("analyse", SIX_OLD, "--seat", "0", *FAST, "--lead-samples", "1")
    assert data["advice"]["limits"]["max_nodes"] == data["leads"]["limits"]["max_nodes"] == 20000
    data = ok_json("analyse", CALLER_LEADS, "--samples", "2")
    assert data["limits"]["max_nodes"] == DEFAULT_MAX_NODES


@pytest.mark.slow
def test_advise_evidence() -> None:
    out = ok("advise", SIX_OLD, "--seat", "1", *FAST, "--evidence").stdout
    assert "Earlier passes (seat 0 passed" in out
    data = ok_json("advise", SIX_OLD, "--seat", "2", *FAST, "--evidence")
    ev = data["evidence"]
    assert set(ev) == {"kept", "play", "pass", "recommendation"} and 0 <= ev["kept"] <= 4
    master = ok_json("advise", SIX_OLD, "--seat", "0", *FAST, "--evidence")["evidence"]
    assert master == {"kept": 0, "play": None, "pass": None, "recommendation": None}
    assert "Earlier passes: none" in ok("advise", SIX_OLD, "--seat", "0", *FAST, "--evidence").stdout


@pytest.mark.slow
def test_advise_jobs_and_seed() -> None:
    one = ok_json("advise", SIX_OLD, "--seat", "1", *FAST, "--seed", "5")
    two = ok_json("advise", SIX_OLD, "--seat", "1", *FAST, "--seed", "5", "--jobs", "2")
    assert untimed(one) == untimed(two) and one["seed"] == 5


# ---------------------------------------------------------------- bad input


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["analyse", "1 C1378S57M24T789 1 T2,T4,T6/M3,M2"], ["error: history:", "does not beat"]),
        (["analyse", "1 C1378S57M24T789 1"], ["error: view:", "4 fields"]),
        (["analyse", "4 C1378S57M24T789 1 -"], ["error: seat:"]),
        (["analyse", "C1378S57M24Q789", "--seat", "0"], ["error: hand:"]),
        (["analyse", LOW], ["error: seat:", "--seat"]),
        (["analyse", LOW, "--seat", "3"], ["error: seat:"]),
        (["analyse", "C1378S57M24T78", "--seat", "0"], ["error: hand:", "12 cards"]),
        (["analyse", CALLER_LEADS, "--seat", "1"], ["error: seat:"]),
        (["analyse", CALLER_LEADS, "--samples", "0"], ["error: samples:"]),
        (["analyse", CALLER_LEADS, "--jobs", "0"], ["error: jobs:"]),
        (["analyse", CALLER_LEADS, "--max-nodes", "-1"], ["error: max-nodes:"]),
        (["analyse", CALLER_LEADS, "--time", "0"], ["error: time:"]),
        (["analyse", CALLER_LEADS, "--solve-time", "0"], ["error: solve-time:"]),
        (["advise", LOW, "--seat", "0", "--time", "-1"], ["error: time:"]),
        (["analyse", LOW, "--seat", "0", "--lead-samples", "-1"], ["error: lead-samples:"]),
        (["advise", "C1378S57M24T78", "--seat", "0"], ["error: hand:", "12 cards"]),
        (["advise", "C1378S57M24T78X", "--seat", "0"], ["error: hand:"]),
        (["advise", "C1378S57M24T78C8", "--seat", "0"], ["error: hand:"]),
        (["advise", LOW], ["error: seat:"]),
        (["advise", LOW, "--seat", "5"], ["error: seat:"]),
        (["advise", LOW, "--seat", "0", "--samples", "0"], ["error: samples:"]),
    ],
)
def test_bad_input(args: list[str], needles: list[str]) -> None:
    assert_bad_input(run(*args), *needles)


# ---------------------------------------------------------------- progress bar


@pytest.mark.slow
def test_no_progress_bar_when_stderr_is_not_a_terminal() -> None:
    """A real process with stderr piped: nothing on stderr (the in-process tests check the same)."""
    proc = subprocess.run(
        [LUKFU, "analyse", NONCALLER, *FAST], capture_output=True, text=True, timeout=300, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "" and "Recommendation:" in proc.stdout


def test_progress_bar_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with progress.progress_callbacks() as bar:
        assert bar("x") is None
    monkeypatch.setattr(sys, "stderr", Tty())
    with progress.progress_callbacks() as bar:
        update = bar("x")
        assert update is not None
        update(1, 2)
