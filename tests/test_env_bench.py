"""The research environments' benchmark and example run and write what the docs cite."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_env_speed_quick_run_measures_every_interface(tmp_path: Path) -> None:
    out = tmp_path / "env-speed.json"
    cmd = [sys.executable, "-m", "bench.env_speed", "--quick", "--runs", "1", "--out", str(out)]
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, timeout=300)
    data = json.loads(out.read_text())
    interfaces = data["interfaces"]
    assert set(interfaces) == {"plain_playout", "play_deal", "pettingzoo", "gymnasium", "openspiel"}
    assert interfaces["plain_playout"]["deals_per_s_vs_plain_playout"] == 1.0
    assert all(v["median_run"]["deals"] == 60 and v["steps_per_s_median"] > 0 for v in interfaces.values())


@pytest.mark.slow
def test_the_research_example_trains_and_measures(tmp_path: Path) -> None:
    out = tmp_path / "agent.json"
    cmd = [sys.executable, "examples/research_agent.py", "--quick", "--out", str(out)]
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, timeout=300)
    data = json.loads(out.read_text())
    table = data["evaluation_points_a_deal"]["against two rule"]
    assert set(table) == {"agent", "rule", "random", "agent_minus_rule", "agent_minus_random"}
    lo, hi = table["agent"]["ci95"]
    assert lo <= table["agent"]["mean"] <= hi
    assert data["imitation"]["agreement"] > 0.5  # it learned the teacher's actions more often than not


def test_the_recorded_results_hold_what_the_doc_cites() -> None:
    """docs/research.md quotes these files: the example beat random, and each interface was measured."""
    agent = json.loads((ROOT / "bench/results/research-agent.json").read_text())
    vs_random = agent["evaluation_points_a_deal"]["against two rule"]["agent_minus_random"]
    assert vs_random["ci95"][0] > 0
    speed = json.loads((ROOT / "bench/results/env-speed.json").read_text())
    assert {"pettingzoo", "gymnasium", "openspiel"} <= set(speed["interfaces"])
