"""Shared helpers of the benchmarks in ``bench/``: fixed seeded position sets, summary
statistics (median, p95, max), a Rich progress bar on stderr and JSON results saved under a
fixed, timestamp-free name (``bench/results/<bench>.json``) that only the bench overwrites.

Benchmarks are scripts, not tests: ``python -m bench.<name> [--quick] [--out FILE]`` (``python -m bench``
lists them).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from lukfu_solver.endgames import full_deal, random_endgame
from lukfu_solver.position import Position

BENCH_DIR = Path(__file__).resolve().parent
RESULTS_DIR = BENCH_DIR / "results"
REPO_DIR = BENCH_DIR.parent
BASELINE_COMMIT = "fbfdd6f"
"""The build every speed-up of this turn is measured against, side by side in the same run."""

T = TypeVar("T")


def baseline_tree(path: Path | None, rev: str = BASELINE_COMMIT) -> Path:
    """A directory holding the ``lukfu_solver`` package of git revision ``rev`` (by default
    :data:`BASELINE_COMMIT`): ``path`` if given; else extracted once by ``git archive`` into the
    system's temp directory (named by the revision's hash), where numba also caches its compiled
    kernel. A revision git does not know raises ``ValueError``."""
    if path is not None:
        return path
    found = subprocess.run(
        ["git", "-C", str(REPO_DIR), "rev-parse", "--short=12", "--verify", "--quiet", f"{rev}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if found.returncode != 0:
        raise ValueError(f"baseline revision {rev!r}: git knows no such commit")
    tree = Path(tempfile.gettempdir()) / f"lukfu-baseline-{found.stdout.strip()}"
    marker = tree / ".extracted"
    if not marker.exists():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(REPO_DIR), "archive", rev, "lukfu_solver"],
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        marker.touch()
    return tree


# ---------------------------------------------------------------- position sets


@dataclass(frozen=True)
class Case:
    """One benchmark position: where it comes from (``seed``, ``caller``) and the position."""

    seed: int
    caller: int
    position: Position

    @property
    def label(self) -> str:
        """``seed 12, caller 1``: enough to rebuild the position."""
        return f"seed {self.seed}, caller {self.caller}"


def endgame_cases(count: int, cards: int, first_seed: int = 0) -> list[Case]:
    """``count`` endgames with ``cards`` cards a hand, seeds ``first_seed`` … (caller drawn by seed)."""
    cases = []
    for seed in range(first_seed, first_seed + count):
        pos = random_endgame(seed, cards)
        cases.append(Case(seed, pos.caller, pos))
    return cases


def deal_cases(count: int, callers: Sequence[int] | None = None, first_seed: int = 0) -> list[Case]:
    """Full 12-card deals of seeds ``first_seed`` …: the caller drawn by the seed (``callers``
    None), or each deal once for every caller in ``callers``."""
    cases = []
    for seed in range(first_seed, first_seed + count):
        if callers is None:
            pos = full_deal(seed)
            cases.append(Case(seed, pos.caller, pos))
        else:
            cases.extend(Case(seed, c, full_deal(seed, c)) for c in callers)
    return cases


# ---------------------------------------------------------------- statistics


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) by linear interpolation between closest ranks."""
    if not values:
        return math.nan
    xs = sorted(values)
    k = (len(xs) - 1) * q / 100
    lo = math.floor(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def summary(values: Iterable[float], digits: int = 3) -> dict[str, float | int | None]:
    """``{"n", "median", "p95", "max", "mean"}`` of ``values`` (None when there are none)."""
    xs = [float(v) for v in values]
    if not xs:
        return {"n": 0, "median": None, "p95": None, "max": None, "mean": None}
    return {
        "n": len(xs),
        "median": round(statistics.median(xs), digits),
        "p95": round(percentile(xs, 95), digits),
        "max": round(max(xs), digits),
        "mean": round(statistics.fmean(xs), digits),
    }


def ratio(numerator: float, denominator: float, digits: int = 4) -> float | None:
    """``numerator / denominator`` rounded, or None when the denominator is 0."""
    return round(numerator / denominator, digits) if denominator else None


def fmt(value: float | int | None, unit: str = "", digits: int = 1) -> str:
    """A number for a table cell: thousands separators, no decimals from 100 up, ``-`` for None."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, int) or abs(value) >= 100:
        return f"{value:,.0f}{unit}"
    return f"{value:,.{digits}f}{unit}"


def make_console() -> Any:
    """A Rich console on stdout, wide enough for the tables when stdout is not a terminal."""
    from rich.console import Console

    return Console(highlight=False, width=None if sys.stdout.isatty() else 160)


# ---------------------------------------------------------------- running


class Timer:
    """A context manager measuring wall time in milliseconds (``.ms``)."""

    def __enter__(self) -> Timer:
        self._t0 = time.perf_counter()
        self.ms = 0.0
        return self

    def __exit__(self, *exc: object) -> None:
        self.ms = (time.perf_counter() - self._t0) * 1000


def progress(items: Sequence[T], description: str) -> Iterator[T]:
    """Yield ``items`` while a Rich progress bar on stderr advances (stdout stays clean)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with bar:
        task = bar.add_task(description, total=len(items))
        for item in items:
            yield item
            bar.advance(task)


def base_parser(description: str, default_out: str) -> argparse.ArgumentParser:
    """An argument parser with the options every bench has: ``--quick`` and ``--out``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help="small sets, for a fast check")
    parser.add_argument(
        "--out",
        type=Path,
        default=RESULTS_DIR / default_out,
        help=f"where to save the JSON results (default: bench/results/{default_out})",
    )
    return parser


# ---------------------------------------------------------------- saving


def environment() -> dict[str, Any]:
    """Where the numbers come from: interpreter, machine, CPU count and git revision."""
    try:
        rev = subprocess.run(
            ["git", "-C", str(REPO_DIR), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(REPO_DIR), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        rev, dirty = "", ""
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "git": (rev + ("+dirty" if dirty else "")) or None,
        "argv": sys.argv[1:],
        "run_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def save_json(data: dict[str, Any], path: Path) -> Path:
    """Write ``data`` (with an ``environment`` block) as indented JSON to ``path``, atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {"environment": environment(), **data}
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path
