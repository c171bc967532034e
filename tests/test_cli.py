"""The ``lukfu`` command line: every command runs, JSON parses, bad input gives one line and exit 2."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from cli_checks import assert_bad_input
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_cli.render import points_text
from lukfu_solver.game import play_deal, start_position
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.plays import Play
from lukfu_solver.position import Position
from lukfu_solver.record import GameRecord
from lukfu_solver.view import SeatView

runner = CliRunner()

START = "C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T6 0 1 0,0,0 - -"
"""NOTATION.md's example: the Master to lead, seat 1 called."""
MID = "C69S246M567T135/C1378S57M24T789/C245S1389M1389T6 2 1 0,0,0 - T2,T4"
"""The same deal, seat 2 to follow T2, T4."""
VIEW = "1 C1378S57M24T789 1 T2,T4,T6/M3,M5"
"""NOTATION.md's example view: seat 1 to play in the second trick."""
COMMANDS = ["deal", "legal", "apply", "show", "replay", "rules"]


def run(*args: str, input: str | None = None):
    """Invoke ``lukfu`` with ``args`` in-process."""
    return runner.invoke(app, list(args), input=input)


def ok(*args: str, input: str | None = None):
    """Invoke ``lukfu`` and require exit 0 with nothing on stderr."""
    result = run(*args, input=input)
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def play_out(pos: Position, seed: int) -> list[Play]:
    """Random legal moves (seeded) from ``pos`` until the deal ends; ``pos`` is left at the end."""
    rng = random.Random(seed)
    moves = []
    while not pos.is_over:
        move = rng.choice(sorted(pos.legal_moves(), key=Play.sort_key))
        pos.push(move)
        moves.append(move)
    return moves


def won_line(how: str) -> tuple[list[Play], Position]:
    """A random line of play from START to a win ``how`` ("claim" or "end"), and the final position."""
    for seed in range(200):
        pos = Position.parse(START)
        moves = play_out(pos, seed)
        if pos.outcome.winner is not None and pos.outcome.how == how:
            return moves, pos
    raise AssertionError(f"no deal won by {how} in 200 random lines")


@pytest.fixture(scope="module")
def finished() -> tuple[list[Play], Position]:
    """A line of play from START until the hands run out with a winner (R15)."""
    return won_line("end")


@pytest.fixture(scope="module")
def claimed() -> tuple[list[Play], Position]:
    """A line of play from START ending with a claim (R14)."""
    return won_line("claim")


# ---------------------------------------------------------------- help and start-up


@pytest.mark.slow
def test_help_everywhere() -> None:
    result = ok("--help")
    for name in COMMANDS:
        assert name in result.stdout
        assert "Usage" in ok(name, "--help").stdout


def test_no_args_shows_help() -> None:
    result = run()
    assert "Usage" in result.stdout + result.stderr


@pytest.mark.slow
def test_python_m_lukfu_cli_help() -> None:
    proc = subprocess.run([sys.executable, "-m", "lukfu_cli", "--help"], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert "replay" in proc.stdout and "legal" in proc.stdout


def test_cli_import_stays_light() -> None:
    code = "import sys, lukfu_cli.app; print(sorted(m for m in ('ortools', 'numba', 'numpy') if m in sys.modules))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


# ---------------------------------------------------------------- deal


def test_deal_seed_reproducible() -> None:
    first = ok("deal", "--seed", "42").stdout
    assert first == ok("deal", "--seed", "42").stdout == str(start_position(42, 0)) + "\n"
    assert first != ok("deal", "--seed", "43").stdout
    pos = Position.parse(first)
    assert pos.to_move == 0 and pos.caller == 0 and all(h.bit_count() == 12 for h in pos.hands)
    data = json.loads(ok("deal", "--seed", "42", "--caller", "2", "--json").stdout)
    assert data == {"seed": 42, "caller": 2, "position": str(start_position(42, 2))}


def test_deal_random_seed_is_shown() -> None:
    result = run("deal", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert result.stderr.strip() == f"seed {data['seed']}"
    assert ok("deal", "--seed", str(data["seed"])).stdout.strip() == data["position"]


# ---------------------------------------------------------------- legal


def test_legal_sorted_and_equal_to_library() -> None:
    pos = Position.parse(START)
    expected = [str(m) for m in sorted(pos.legal_moves(), key=Play.sort_key)]
    result = ok("legal", START)
    assert result.stdout.splitlines() == expected
    assert expected == ["T2", "T3", "T5", "C6S6M6", "M567", "T123"]
    data = json.loads(ok("legal", "--json", START).stdout)
    assert data == {"position": START, "legal": expected}


def test_legal_canonicalises_and_follows() -> None:
    messy = MID.replace("C69", "c96")
    data = json.loads(ok("legal", messy, "--json").stdout)
    assert data["position"] == MID
    pos = Position.parse(MID)
    assert data["legal"] == [str(m) for m in sorted(pos.legal_moves(), key=Play.sort_key)]
    assert data["legal"] == sorted(data["legal"], key=lambda t: Play.parse(t).sort_key())


def test_legal_batch_goes_on_after_bad_line(tmp_path: Path) -> None:
    batch = tmp_path / "positions.txt"
    batch.write_text(f"{START}\nnot a position\n\n{MID}\n")
    result = ok("legal", "--batch", str(batch))
    out = json_lines(result.stdout)
    assert len(out) == 3
    assert out[0]["position"] == START and out[0]["legal"][0] == "T2"
    assert out[1]["line"] == 2 and set(out[1]) == {"line", "error"}
    assert out[1]["error"].startswith("position: ")
    assert out[2]["position"] == MID
    assert result.stderr == ""


def test_legal_batch_stdin_keeps_file_line_numbers() -> None:
    result = ok("legal", "--batch", "-", input=f"\n{START}\n\nC1 0 0 0,0,0 - -\n")
    out = json_lines(result.stdout)
    assert [set(o) for o in out] == [{"position", "legal"}, {"line", "error"}]
    assert out[1]["line"] == 4
    assert "\n" not in out[1]["error"]


# ---------------------------------------------------------------- apply


def test_apply_plain_and_json() -> None:
    result = ok("apply", START, "t2", "T4")
    assert result.stdout == MID + "\n"
    data = json.loads(ok("apply", "--json", START, "T2", "T4", "T6").stdout)
    assert data["position"] == START and data["moves"] == ["T2", "T4", "T6"]
    assert data["result"] == str(Position.parse(data["result"]))
    assert data["result"].split()[1:4] == ["2", "1", "0,0,1"]
    assert data["points"] is None and data["outcome"] is None


def test_apply_to_the_end(finished) -> None:
    moves, final = finished
    texts = [str(m) for m in moves]
    result = ok("apply", START, *texts)
    line = result.stdout.strip()
    assert line.startswith("result: ") and f"seat {final.outcome.winner} wins" in line
    data = json.loads(ok("apply", "--json", START, *texts).stdout)
    assert data["result"] is None
    assert data["points"] == list(final.outcome.points) and sum(data["points"]) == 0
    assert data["outcome"] == {"winner": final.outcome.winner, "total": final.outcome.total, "how": final.outcome.how}
    # a move after the end is illegal
    assert_bad_input(run("apply", START, *texts, "C5"), "C5", "ended")


def test_apply_claim(claimed) -> None:
    moves, final = claimed
    assert str(moves[-1]) == "claim"
    data = json.loads(ok("apply", "--json", START, *map(str, moves)).stdout)
    assert data["result"] is None and data["outcome"]["how"] == "claim"
    assert data["points"] == list(final.outcome.points) and sum(data["points"]) == 0
    assert "by claim" in ok("apply", START, *map(str, moves)).stdout


def test_apply_illegal_move_named() -> None:
    line = assert_bad_input(run("apply", START, "T2", "T3"), "move 2", "T3")
    assert "does not hold" in line
    assert_bad_input(run("apply", START, "S2"), "move", "S2", "R7")
    assert_bad_input(run("apply", START, "S2S3"), "move")


def test_apply_batch(tmp_path: Path, finished) -> None:
    moves, final = finished
    before = Position.parse(START)
    for m in moves[:-1]:
        before.push(m)
    batch = tmp_path / "requests.tsv"
    batch.write_text(f"{START}\tT2\n{START}\tT9\n{START}\n{before}\t{moves[-1]}\n")
    out = json_lines(ok("apply", "--batch", str(batch)).stdout)
    assert len(out) == 4
    assert out[0] == {
        "position": START,
        "move": "T2",
        "result": "C69S246M567T135/C1378S57M24T4789/C245S1389M1389T6 1 1 0,0,0 - T2",
        "points": None,
    }
    assert out[1]["line"] == 2 and "T9" in out[1]["error"]
    assert out[2]["line"] == 3 and "TAB" in out[2]["error"]
    assert out[3]["result"] is None and out[3]["points"] == list(final.outcome.points)
    assert sum(out[3]["points"]) == 0


# ---------------------------------------------------------------- show


def test_show_position() -> None:
    result = ok("show", MID)
    text = result.stdout
    for needle in ("Master", "caller", "Old", "T2", "T4", "best", "seat 2, to follow", "led by seat 0"):
        assert needle in text, needle
    assert "7*" in text  # seat 1's T789 are Old for it
    data = json.loads(ok("show", "--json", MID).stdout)
    assert data["position"] == MID and data["to_move"] == 2 and data["caller"] == 1
    assert data["trick"]["best"] == {"seat": 1, "play": "T4"}
    assert data["old"][1] == "C1T789"


def test_show_finished(finished) -> None:
    _, final = finished
    text = ok("show", str(final)).stdout
    assert "Deal over" in text and "Net points" in text
    data = json.loads(ok("show", "--json", str(final)).stdout)
    assert data["to_move"] is None and sum(data["points"]) == 0


def test_show_position_starting_with_dash(finished) -> None:
    _, final = finished
    text = str(final)
    assert text.startswith("-/-/-")
    assert json.loads(ok("show", text, "--json").stdout)["position"] == text
    assert json.loads(ok("legal", text, "--json").stdout)["legal"] == []
    assert run("legal", "--jsn", text).exit_code == 2  # an unknown option is still a usage error


def test_show_view() -> None:
    view = SeatView.parse(VIEW)
    expected = [str(m) for m in sorted(view.legal_moves(), key=Play.sort_key)]
    text = ok("show", "--view", VIEW).stdout
    for needle in ("Seat 1's view", "Tricks", "T6", "M5", "Legal moves (11)", "xC1", "(you)"):
        assert needle in text, needle
    data = json.loads(ok("show", "--json", "--view", VIEW).stdout)
    assert data["view"] == VIEW and data["legal"] == expected
    assert data["hand_sizes"] == [10, 11, 10] and data["fu"] == [0, 0, 1] and data["to_move"] == 1
    assert data["tricks"][0] == {"number": 1, "leader": 0, "plays": ["T2", "T4", "T6"], "winner": 2, "fu_won": 1}
    assert data["trick"]["best"] == {"seat": 0, "play": "M5"}


def test_show_view_hidden_discards(record: GameRecord) -> None:
    # the first point in the record where a seat sees another seat's hidden discard
    for n in range(1, len(record.plays)):
        view = record.view(0, n)
        if any(view.hidden_discards) and view.to_move != 0:
            break
    else:
        raise AssertionError("no hidden discard in the record")
    text = ok("show", "--view", str(view)).stdout
    assert "▒" in text and "Legal moves" not in text
    data = json.loads(ok("show", "--json", "--view", str(view)).stdout)
    assert data["hidden_discards"] == list(view.hidden_discards) and data["legal"] == []


def test_show_view_calling_phase() -> None:
    text = ok("show", "--view", "2 C245S1389M1389T6 - pass,pass").stdout
    assert "To call: seat 2" in text and "seat 1 pass" in text


# ---------------------------------------------------------------- replay


@pytest.fixture(scope="module")
def record() -> GameRecord:
    """A deal played by three random players, with discards."""
    return play_deal([RandomPlayer(1), RandomPlayer(2), RandomPlayer(3)], seed=7)


def test_replay(tmp_path: Path, record: GameRecord) -> None:
    path = tmp_path / "deal.json"
    record.save(path)
    text = ok("replay", str(path)).stdout
    tricks = record.tricks()
    assert "Tricks" in text and "Result" in text and "Net points" in text
    for t in tricks:
        assert str(t.plays[0]) in text
    data = json.loads(ok("replay", "--json", str(path)).stdout)
    assert len(data["tricks"]) == len(tricks)
    assert [t["winner"] for t in data["tricks"]] == [t.winner for t in tricks]
    assert [t["fu_won"] for t in data["tricks"]] == [t.fu_won for t in tricks]
    assert data["hands"] == record.to_json()["hands"] and data["caller"] == record.caller
    assert data["points"] == list(record.outcome.points) and sum(data["points"]) == 0
    assert data["outcome"]["how"] == record.outcome.how


def test_replay_deal_without_claim(tmp_path: Path) -> None:
    rec = play_deal([RandomPlayer(1), RandomPlayer(2), RandomPlayer(3)], seed=16)  # ends when the hands run out
    path = tmp_path / "deal8.json"
    rec.save(path)
    data = json.loads(ok("replay", "--json", str(path)).stdout)
    assert data["claim"] is None and data["outcome"]["how"] == rec.outcome.how != "claim"
    # the view at the end of the deal shows the result too
    text = ok("show", "--view", str(rec.view(0))).stdout
    assert "Deal over" in text and points_text(rec.outcome.points) in text


def test_replay_tampered(tmp_path: Path, record: GameRecord) -> None:
    data = record.to_json()
    # play 2 (seat 1 following the lead) becomes a card seat 1 does not hold
    held = Position.parse(f"{'/'.join(data['hands'])} 0 {record.caller} 0,0,0 - -").hands[1]
    data["plays"][1] = next(c for c in ("C1", "C2", "S1", "S2", "M1", "T9") if not Play.parse(c).cards & held)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    line = assert_bad_input(run("replay", str(path)), "play 2")
    assert data["plays"][1] in line
    path.write_text("{not json")
    assert_bad_input(run("replay", str(path)), "file", "JSON")


# ---------------------------------------------------------------- rules


def test_rules_plain_text() -> None:
    result = ok("rules")
    assert "R17" in result.stdout and "Luk Fu" in result.stdout
    assert "\x1b[" not in result.stdout


# ---------------------------------------------------------------- bad input and interrupts


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["legal", "C1 0 0 0,0,0 - -"], ["hands"]),
        (["legal", START.replace("C69", "C6Z")], ["hands: seat 0", "Z"]),
        (["legal", START.replace("0,0,0", "0,0")], ["fu"]),
        (["legal"], ["POSITION"]),
        (["legal", START, "--batch", "-"], ["POSITION"]),
        (["legal", "--batch", "/nonexistent/positions.txt"], ["file", "positions.txt"]),
        (["apply", START], ["move"]),
        (["apply", START, "Q7"], ["move", "Q"]),
        (["show", "x y"], ["position"]),
        (["show"], ["POSITION"]),
        (["show", "--view", "5 C1 0 -"], ["seat"]),
        (["deal", "--caller", "3"], ["caller"]),
        (["replay", "/nonexistent/record.json"], ["file"]),
    ],
)
def test_bad_input_one_line_exit_2(args: list[str], needles: list[str]) -> None:
    assert_bad_input(run(*args), *needles)


def test_ctrl_c_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(Position, "parse", interrupted)
    result = run("legal", START)
    assert result.exit_code == 130
    assert result.stderr.strip() == "interrupted" and result.stdout == ""


# ---------------------------------------------------------------- shared rendering: signed, progress bars


def test_signed_serves_whole_and_expected_points() -> None:
    from lukfu_cli.render import signed

    assert [signed(n) for n in (4, -2, 0, 12)] == ["+4", "-2", "0", "+12"]
    assert [signed(x, 2) for x in (1.25, -0.5, 0.0)] == ["+1.25", "-0.50", "+0.00"]
    assert signed(0.1234, 3) == "+0.123"


def test_progress_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    from lukfu_cli import progress

    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    items = [1, 2, 3]
    assert progress.progress_bar() is None
    assert progress.with_progress(items, 3, "x") is items  # untouched: nothing is drawn
    with progress.progress_callbacks() as bars:
        assert bars("x") is None and bars("y", 5) is None
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    bar = progress.progress_bar("{task.fields[tried]} deals")
    assert bar is not None and bar.live.transient and bar.console.stderr
    assert len(bar.columns) == 5  # description, bar, done/total, the extra field, time elapsed
    assert list(progress.with_progress(iter(items), 3, "x")) == items
    with progress.progress_callbacks(show=False) as bars:
        assert bars("x") is None  # --json: no bar even on a terminal
    with progress.progress_callbacks() as bars:
        update = bars("x", 4)
        assert update is not None
        update(2, 4)


def test_a_dealt_hand_by_seed_and_seat() -> None:
    from lukfu_cli.options import hand_text
    from lukfu_solver.errors import NotationError

    assert hand_text(None, 7, 1) == "C1378S57M24T4789"
    assert hand_text("C19S345M2789T189", None, 0) == "C19S345M2789T189"
    for args in [(None, None, 1), ("C1", 7, 1), (None, 7, None), (None, 7, 3)]:
        with pytest.raises(NotationError):
            hand_text(*args)


def test_deal_seat_shows_the_hand_and_what_to_try() -> None:
    res = runner.invoke(app, ["deal", "--seed", "7", "--seat", "1"])
    assert res.exit_code == 0
    assert "C Coins" in res.stdout and "lukfu advise --deal 7 --seat 1" in res.stdout
    res = runner.invoke(app, ["deal", "--seed", "7", "--seat", "1", "--json"])
    data = json.loads(res.stdout)
    assert data["hand"] == "C1378S57M24T4789" and data["old"] == "C1T789" and data["seat"] == 1
    res = runner.invoke(app, ["deal", "--seed", "7", "--show"])  # as dealt: the calling decides the caller
    assert res.exit_code == 0 and "caller" not in res.stdout.split("\n")[3] and "The calling decides" in res.stdout
    assert "Caller: seat 0" not in res.stdout and "1* 3 7 8" in res.stdout
    res = runner.invoke(app, ["deal", "--seed", "7", "--show", "--caller", "0"])
    assert res.exit_code == 0 and "To move: seat 0, to lead" in res.stdout and "Caller: seat 0" in res.stdout


def test_version() -> None:
    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0 and res.stdout.startswith("lukfu ")


@pytest.mark.slow
def test_one_metavar_style() -> None:
    for command in (["deal"], ["play"], ["match"], ["solve"]):
        text = runner.invoke(app, [*command, "--help"]).stdout
        assert "<int>" not in text and "<bool>" not in text, command


@pytest.mark.slow
def test_advise_and_analyse_take_a_deal_and_a_seat() -> None:
    """``--deal SEED --seat SEAT`` analyses the hand `lukfu deal --seed SEED --seat SEAT` shows,
    with the same numbers as the hand typed."""
    fixed = ["--seat", "1", "--samples", "2", "--max-nodes", "2000", "--json"]
    by_deal = json.loads(runner.invoke(app, ["advise", "--deal", "7", *fixed]).stdout)
    typed = json.loads(runner.invoke(app, ["advise", "C1378S57M24T4789", *fixed]).stdout)
    by_deal.pop("seconds"), typed.pop("seconds")
    assert by_deal == typed
    res = runner.invoke(app, ["analyse", "--deal", "7", *fixed, "--lead-samples", "0"])
    assert res.exit_code == 0 and json.loads(res.stdout)["hand"] == "C1378S57M24T4789"
    res = runner.invoke(app, ["analyse"])
    assert res.exit_code == 2 and "give VIEW|HAND, or --deal SEED" in res.stderr
