"""``lukfu solve`` and the seeded test positions of ``lukfu_solver.endgames``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from cli_checks import assert_bad_input
from typer.testing import CliRunner

from lukfu_cli import solve_cmd
from lukfu_cli.app import app
from lukfu_cli.render import points_text, signed
from lukfu_solver.endgames import full_deal, random_endgame
from lukfu_solver.errors import NotationError
from lukfu_solver.plays import CLAIM, Play
from lukfu_solver.position import Position
from lukfu_solver.search import Solver

runner = CliRunner()

ENDGAME = random_endgame(0, 6)
"""A 6-card endgame with several moves of different values for the side to move."""
SINGLE_KEYS = {"position", "value", "lower", "upper", "complete", "best", "pv", "nodes", "hit_rate", "ms"}
BATCH_KEYS = {"position", "value", "best", "pv", "nodes", "ms"}
LUKFU = str(Path(sys.executable).with_name("lukfu"))


def run(*args: str, input: str | None = None):
    """Invoke ``lukfu`` with ``args`` in-process."""
    return runner.invoke(app, list(args), input=input)


def ok(*args: str, input: str | None = None):
    """Invoke ``lukfu`` and require exit 0 with nothing on stderr."""
    result = run(*args, input=input)
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    assert result.stderr == ""
    return result


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def without_ms(objs: list[dict]) -> list[dict]:
    return [{k: v for k, v in o.items() if k != "ms"} for o in objs]


@pytest.fixture(scope="module")
def solved():
    """The library's answer for ENDGAME, all moves valued."""
    return Solver().solve(ENDGAME, all_moves=True)


# ---------------------------------------------------------------- endgames


def test_endgames_seeded_and_shaped() -> None:
    for seed in range(20):
        for cards in (1, 4, 6, 9):
            pos = random_endgame(seed, cards)
            assert str(pos) == str(random_endgame(seed, cards))
            assert pos.cards_per_hand() == cards and not pos.trick and not pos.is_over
            assert Position.parse(str(pos)) == pos  # a valid position
    assert len({str(random_endgame(s, 6)) for s in range(20)}) == 20
    assert {random_endgame(s, 6).caller for s in range(30)} == {0, 1, 2}
    assert random_endgame(3, 0).is_over


def test_full_deal_callers_share_hands() -> None:
    for seed in range(5):
        drawn = full_deal(seed)
        assert str(drawn) == str(random_endgame(seed, 12))
        deals = [full_deal(seed, c) for c in range(3)]
        assert [p.caller for p in deals] == [0, 1, 2]
        assert all(p.hands == drawn.hands and p.to_move == 0 and p.fu == [0, 0, 0] for p in deals)
        assert all(h.bit_count() == 12 for h in drawn.hands)
    with pytest.raises(NotationError):
        random_endgame(0, 13)
    with pytest.raises(NotationError):
        full_deal(0, 3)


# ---------------------------------------------------------------- one position


def test_solve_plain(solved) -> None:
    text = ok("solve", str(ENDGAME)).stdout
    assert solved.value == Solver().solve(ENDGAME).value
    assert f"Value: {signed(solved.value)}" in text
    assert f"Best move: {solved.best}" in text
    assert "Best line" in text and "trick 1" in text and "result:" in text
    assert "positions searched: " in text and "hit rate" in text and " ms" in text
    assert "stopped" not in text


def test_solve_json(solved) -> None:
    data = json.loads(ok("solve", "--json", str(ENDGAME)).stdout)
    assert set(data) == SINGLE_KEYS
    assert data["position"] == str(ENDGAME)
    assert data["value"] == data["lower"] == data["upper"] == solved.value
    assert data["complete"] is True
    assert data["best"] == str(solved.best) == data["pv"][0]
    assert data["pv"] == [str(m) for m in solved.pv]
    assert data["nodes"] > 0 and 0 <= data["hit_rate"] <= 1 and data["ms"] >= 0
    # the pv replays legally to an end worth the value
    pos = ENDGAME.copy()
    for move in data["pv"]:
        pos.push_checked(Play.parse(move))
    assert pos.is_over and pos.outcome.points[pos.caller] == data["value"]


def test_solve_all_moves_marks_best(solved) -> None:
    expected = {str(m): v for m, v in solved.moves.items()}
    assert len(set(expected.values())) > 1, "ENDGAME should have moves of different values"
    data = json.loads(ok("solve", "--json", "--all-moves", str(ENDGAME)).stdout)
    assert set(data) == SINGLE_KEYS | {"moves"}
    assert data["moves"] == expected
    assert list(data["moves"]) == [str(m) for m in sorted(solved.moves, key=Play.sort_key)]
    assert data["moves"][data["best"]] == data["value"]
    mover_is_caller = ENDGAME.to_move == ENDGAME.caller
    assert data["value"] == (max if mover_is_caller else min)(expected.values())
    text = ok("solve", "--all-moves", str(ENDGAME)).stdout
    marked = [line for line in text.splitlines() if "◀ best" in line]
    assert len(marked) == 1 and marked[0].split()[:2] == [data["best"], signed(data["value"])]
    for move, value in expected.items():
        assert any(line.split()[:2] == [move, signed(value)] for line in text.splitlines()), move


def test_solve_narrates_tricks_and_claim() -> None:
    # an endgame whose best line ends with a claim, and the same one inside a trick
    pos = next(p for p in (random_endgame(s, 5) for s in range(50)) if Solver().solve(p).pv[-1].kind == CLAIM)
    res = Solver().solve(pos)
    lines = solve_cmd.narrate_pv(pos, res.pv)
    assert lines[-2].startswith("claim: seat ") and "Old cards" in lines[-2] and "= a total of " in lines[-2]
    end = pos.copy()
    for m in res.pv:
        end.push(m)
    assert lines[-1].startswith("result: ") and points_text(end.outcome.points) in lines[-1]
    assert sum(line.startswith("trick ") for line in lines) == len(lines) - 2
    assert all(" leads " in line and " wins " in line for line in lines[:-2])
    mid = ENDGAME.copy()
    mid.push(next(m for m in mid.legal_moves() if m.kind != CLAIM))
    assert mid.trick
    mid_lines = solve_cmd.narrate_pv(mid, Solver().solve(mid).pv)
    assert mid_lines[0].startswith(f"trick 1: so far seat {mid.leader} led {mid.trick[0]}; seat {mid.to_move} ")
    assert "so far" in ok("solve", str(mid)).stdout


def test_solve_finished_position() -> None:
    pos = random_endgame(2, 1)
    while not pos.is_over:
        pos.push(next(pos.legal_moves()))
    data = json.loads(ok("solve", "--json", str(pos)).stdout)
    assert data["value"] == pos.outcome.points[pos.caller] and data["pv"] == [] and data["best"] is None
    assert "The deal has ended" in ok("solve", str(pos)).stdout


def test_solve_limit_reports_bounds() -> None:
    deal = str(full_deal(0))
    result = ok("solve", deal, "--max-nodes", "10")
    assert "stopped at a limit" in result.stdout and "--max-nodes 10" in result.stdout
    assert "Bounds: [" in result.stdout and "Value:" not in result.stdout
    data = json.loads(ok("solve", deal, "--max-nodes", "10", "--json").stdout)
    assert data["complete"] is False and data["value"] is None and data["best"] is None
    assert -14 <= data["lower"] <= data["upper"] <= 14
    data = json.loads(ok("solve", deal, "--time", "0.001", "--json").stdout)
    assert data["complete"] is False


# ---------------------------------------------------------------- batches


def batch_file(tmp_path: Path) -> Path:
    """Five endgames with a bad line in the middle (line 4) and a blank line (line 3)."""
    lines = [str(random_endgame(s, 5)) for s in range(2)] + ["", "C1 0 0 0,0,0 - -"]
    lines += [str(random_endgame(s, 5)) for s in range(2, 5)]
    path = tmp_path / "positions.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_batch_goes_on_after_bad_line(tmp_path: Path) -> None:
    path = batch_file(tmp_path)
    out = json_lines(ok("solve", "--batch", str(path)).stdout)
    assert len(out) == 6
    assert out[2] == {"line": 4, "error": out[2]["error"]} and out[2]["error"].startswith("hands")
    good = out[:2] + out[3:]
    assert all(set(o) == BATCH_KEYS for o in good)
    for o, seed in zip(good, range(5), strict=True):
        res = Solver().solve(random_endgame(seed, 5))
        assert o["position"] == str(random_endgame(seed, 5))
        assert (o["value"], o["best"], o["pv"]) == (res.value, str(res.best), [str(m) for m in res.pv])
    stdin = ok("solve", "--batch", "-", "--all-moves", input=path.read_text()).stdout
    assert all(set(o) == BATCH_KEYS | {"moves"} for o in json_lines(stdin) if "error" not in o)


@pytest.mark.slow
def test_batch_jobs_same_as_one_job(tmp_path: Path) -> None:
    path = batch_file(tmp_path)
    one = json_lines(ok("solve", "--batch", str(path), "--all-moves", "--json").stdout)
    two = json_lines(ok("solve", "--batch", str(path), "--all-moves", "--jobs", "2").stdout)
    assert without_ms(one) == without_ms(two) and len(two) == 6


def test_batch_limit_keeps_bounds(tmp_path: Path) -> None:
    path = tmp_path / "deals.txt"
    path.write_text(f"{full_deal(1)}\n")
    (o,) = json_lines(ok("solve", "--batch", str(path), "--max-nodes", "10").stdout)
    assert o["value"] is None and o["complete"] is False and o["lower"] <= o["upper"]


def test_threads_two_same_value(monkeypatch: pytest.MonkeyPatch, solved) -> None:
    from lukfu_solver.search import compiled

    monkeypatch.setattr(compiled, "HELPER_AFTER", 0.0)  # the helper starts at the first pause
    o = json.loads(ok("solve", str(ENDGAME), "--threads", "2", "--all-moves", "--json").stdout)
    assert o["value"] == solved.value and o["complete"] is True
    assert o["moves"] == {str(m): v for m, v in sorted(solved.moves.items(), key=lambda kv: kv[0].sort_key())}


# ---------------------------------------------------------------- bad input, interrupts, start-up


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["solve", "not a position"], ["position"]),
        (["solve", str(ENDGAME).replace(" 0 ", " 5 ", 1)], ["to-move"]),
        (["solve"], ["POSITION"]),
        (["solve", str(ENDGAME), "--batch", "-"], ["POSITION"]),
        (["solve", str(ENDGAME), "--max-nodes", "0"], ["max-nodes"]),
        (["solve", str(ENDGAME), "--time", "0"], ["time"]),
        (["solve", str(ENDGAME), "--jobs", "2"], ["jobs", "--batch"]),
        (["solve", "--batch", "-", "--jobs", "0"], ["jobs"]),
        (["solve", "--batch", "/nonexistent/positions.txt"], ["file", "positions.txt"]),
        (["solve", str(ENDGAME), "--threads", "3"], ["threads", "1 or 2"]),
        (["solve", str(ENDGAME), "--threads", "2", "--reference"], ["threads", "one thread"]),
    ],
)
def test_bad_input_one_line_exit_2(args: list[str], needles: list[str]) -> None:
    assert_bad_input(run(*args), *needles)


def test_ctrl_c_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(solve_cmd, "run_solver", interrupted)
    result = run("solve", str(ENDGAME))
    assert result.exit_code == 130 and result.stderr.strip() == "interrupted" and result.stdout == ""


@contextmanager
def busy_pool(tmp_path: Path, **popen: Any) -> Iterator[subprocess.Popen[str]]:
    """``lukfu solve --batch --jobs 2`` running on a batch whose first line (a small endgame) is
    answered at once and whose four next ones (among the slowest full deals of bench/solve.py,
    seconds each) keep the pool of two busy: yielded once the first answer is read, killed on the
    way out if still running. ``popen``: more arguments for ``subprocess.Popen``."""
    path = tmp_path / "slow.txt"
    slow = [full_deal(seed, caller) for seed, caller in ((12, 0), (13, 1), (9, 0), (11, 0))]
    path.write_text(f"{random_endgame(0, 3)}\n" + "".join(f"{p}\n" for p in slow))
    proc = subprocess.Popen(
        [LUKFU, "solve", "--batch", str(path), "--jobs", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **popen,
    )
    try:
        assert proc.stdout is not None
        first = json.loads(proc.stdout.readline())  # the pool is running
        assert first["position"] == str(random_endgame(0, 3))
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(LUKFU), reason="the lukfu script is not installed next to python")
def test_ctrl_c_stops_a_pool(tmp_path: Path) -> None:
    # a shell starts background jobs with Ctrl-C ignored, and Python keeps an ignored SIGINT:
    # give the command the disposition a terminal would
    terminal = {"start_new_session": True, "preexec_fn": lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)}
    with busy_pool(tmp_path, **terminal) as proc:
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert err == "interrupted\n" and out == ""


def _spawned_workers(pid: int) -> list[int]:
    """The multiprocessing workers among the children of ``pid`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:  # not a process, or one that just ended
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and b"spawn_main" in cmdline:
            found.append(int(entry.name))
    return found


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(LUKFU) or not os.path.isdir("/proc"), reason="needs the lukfu script and /proc")
def test_a_killed_worker_ends_the_batch_with_one_line(tmp_path: Path) -> None:
    # a worker killed mid-batch (the system out of memory, say): the command must not wait for ever
    with busy_pool(tmp_path) as proc:
        workers = _spawned_workers(proc.pid)
        assert len(workers) == 2
        os.kill(workers[0], signal.SIGKILL)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1
    assert err == "error: a worker process stopped unexpectedly; the results already written stand\n"
    assert "Traceback" not in out


@pytest.mark.slow
def test_help_does_not_import_search() -> None:
    searches = ("lukfu_solver.search.reference", "lukfu_solver.search.compiled", "numba")
    code = f"import sys, lukfu_cli.app; print(any(m in sys.modules for m in {searches!r}))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"
    assert "solve" in ok("--help").stdout and "--jobs" in ok("solve", "--help").stdout
