"""``lukfu sample``: sampled deals as JSON lines that parse with the library and replay."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from cli_checks import assert_bad_input
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_solver.cards import ALL_CARDS, parse_cards
from lukfu_solver.position import Position
from lukfu_solver.view import SeatView, parse_history

runner = CliRunner()

VIEW = "0 C9S156M249T249 0 T1,x1,x1/S2,S9,x1"
"""Seat 0 after two tricks, both other seats having discarded."""
MID_TRICK = "2 C7M1 2 C5M5T5,x3,C8S8T8/T2,T6,T9/T4,xC3,T7/M6,M8,xC4/M4,xS1,M9/M2,x1,xT3/S4,S5,S7/S6"
"""Seat 2 to follow S6, with R7 leads and a set discard: 1,500 consistent deals."""
IMPOSSIBLE = "0 C123456789S12 0 S5,x1,x1"
"""Both followers discarded against S5 at the first trick, yet one of them holds S6-S9."""


def run(*args: str):
    return runner.invoke(app, list(args))


def check_sample(view: SeatView, data: dict) -> None:
    """The deal, history and position of one JSON line parse with the library and replay."""
    assert set(data) == {"deal", "history", "position"}
    hands = [parse_cards(h) for h in data["deal"].split("/")]
    assert len(hands) == 3 and all(h.bit_count() == 12 for h in hands)
    assert hands[0] | hands[1] | hands[2] == ALL_CARDS
    tricks = parse_history(data["history"], reveal=True, caller=view.caller)
    pos = Position.start(hands, view.caller)
    plays = []
    for tr in tricks:
        for p in tr:
            pos.push_checked(p)
            plays.append(p)
    assert pos == Position.parse(data["position"])
    assert pos.hands[view.seat] == view.hand
    assert str(SeatView.from_deal(view.seat, hands[view.seat], view.caller, plays)) == str(view)


def test_json_lines_parse_and_replay() -> None:
    for text in (VIEW, MID_TRICK):
        result = run("sample", text, "--count", "20", "--seed", "3", "--json")
        assert result.exit_code == 0, (result.stdout, result.stderr)
        assert result.stderr == ""
        lines = result.stdout.splitlines()
        assert len(lines) == 20
        view = SeatView.parse(text)
        for line in lines:
            check_sample(view, json.loads(line))


@pytest.mark.slow
def test_seed_reproduces_the_samples() -> None:
    first = run("sample", MID_TRICK, "-n", "8", "--seed", "11", "--json").stdout
    assert first == run("sample", MID_TRICK, "-n", "8", "--seed", "11", "--json").stdout
    assert first != run("sample", MID_TRICK, "-n", "8", "--seed", "12", "--json").stdout
    proc = subprocess.run(
        [sys.executable, "-m", "lukfu_cli", "sample", MID_TRICK, "-n", "8", "--seed", "11", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == first


def test_random_seed_is_shown() -> None:
    result = run("sample", VIEW, "-n", "2", "--json")
    assert result.exit_code == 0
    note = result.stderr.strip()
    assert note.startswith("seed ")
    again = run("sample", VIEW, "-n", "2", "--json", "--seed", note.split()[1])
    assert again.stdout == result.stdout


def test_plain_output() -> None:
    result = run("sample", MID_TRICK, "-n", "3", "--seed", "1")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 9
    assert lines[0].startswith("deal 1: ") and lines[1].startswith("  history   ")
    assert lines[2].startswith("  position  ")
    data = json.loads(run("sample", MID_TRICK, "-n", "1", "--seed", "1", "--json").stdout)
    assert lines[0] == f"deal 1: {data['deal']}" and lines[2].split()[1] == data["position"].split()[0]
    assert "rejection sampling" in result.stderr and "acceptance" in result.stderr and "deals/s" in result.stderr
    exact = run("sample", VIEW, "-n", "1", "--seed", "1")
    assert "exact sampling (1,963,217,256 consistent deals)" in exact.stderr


def test_calling_phase_view() -> None:
    result = run("sample", "1 C1378S57M24T4789 - pass", "-n", "2", "--seed", "5", "--json")
    assert result.exit_code == 0, result.stderr
    for line in result.stdout.splitlines():
        data = json.loads(line)
        assert data["history"] == "-" and data["position"] is None
        assert data["deal"].split("/")[1] == "C1378S57M24T4789"


@pytest.mark.slow
def test_impossible_view_names_the_play() -> None:
    assert_bad_input(run("sample", IMPOSSIBLE, "--seed", "1"), "error: view: ", "trick 1, play 3", "S5")


def test_bad_input() -> None:
    assert_bad_input(run("sample", "0 C9 0 -", "--seed", "1"), "hand")
    assert_bad_input(run("sample", "not a view"), "view")
    assert_bad_input(run("sample", VIEW, "--count", "0"), "count")
    assert_bad_input(run("sample", "0 C9S156M249T249 0 T1,x1,xC2/S2,S9,x1"), "history")
