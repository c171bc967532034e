"""The benchmarks' baseline solver tree (``bench/common.py``, ``baseline_tree``): any git revision
is extracted once into a directory named by its hash, a revision git does not know is refused with
``ValueError`` (``python -m bench.solve --baseline-rev`` turns it into a one-line usage error), and a
directory given on disk is used as it is."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench import common, solve

REPO = Path(__file__).resolve().parents[1]


def test_a_revision_is_extracted_once_by_its_hash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common.tempfile, "gettempdir", lambda: str(tmp_path))
    head = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    tree = common.baseline_tree(None, "HEAD")
    assert tree == tmp_path / f"lukfu-baseline-{head}"
    assert (tree / "lukfu_solver" / "__init__.py").is_file()
    assert (tree / ".extracted").is_file()
    (tree / "lukfu_solver" / "mark").write_text("kept")
    assert common.baseline_tree(None, head) == tree  # the same commit by another name: not extracted again
    assert (tree / "lukfu_solver" / "mark").read_text() == "kept"


def test_an_unknown_revision_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common.tempfile, "gettempdir", lambda: str(tmp_path))
    with pytest.raises(ValueError, match="no such commit"):
        common.baseline_tree(None, "no-such-revision-0000")
    assert not list(tmp_path.iterdir())


def test_a_tree_on_disk_is_used_as_it_is(tmp_path: Path) -> None:
    assert common.baseline_tree(tmp_path, "no-such-revision-0000") == tmp_path


def test_solve_bench_refuses_an_unknown_revision_in_one_line() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "bench.solve", "--solver", "fast", "--sets", "b", "--quick"]
        + ["--no-plain", "--no-drivers", "--baseline", "--baseline-rev", "no-such-revision-0000"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
    )
    assert out.returncode == 2, out.stderr
    assert "--baseline-rev" in out.stderr and "no such commit" in out.stderr
    assert "Traceback" not in out.stderr


def _records(ms: list[float]) -> list[dict[str, float]]:
    return [{"ms": m, "cpu_ms": m} for m in ms]


def test_the_p95_goal_is_judged_by_the_ratio_to_the_baseline_of_the_same_run() -> None:
    base = _records([100.0] * 180 + [4400.0] * 20)  # p95 4400 ms: twice the bench machine's 2200
    slow = solve.p95_goal(_records([50.0] * 180 + [1000.0] * 20), base)
    assert slow["p95_ratio"] == 4.4 and slow["ratio_needed"] == 4.4
    assert slow["bench_machine_p95_ms"] == 500.0 and not slow["met"]  # exactly 0.5 s is not under it
    fast = solve.p95_goal(_records([50.0] * 180 + [900.0] * 20), base)
    assert fast["bench_machine_p95_ms"] == 450.0 and fast["met"]
    assert "x4.89" in solve.p95_goal_line(fast) and ": met" in solve.p95_goal_line(fast)
    assert solve.bc_goal({"b": {}, "c": {}}, threads=2) is None  # the goal is one thread's
