"""The search's node signature: the exact value and node count of every position of the solver's
bench sets, solved one thread, a fresh solver each, no limit. The tree the search walks is a
function of the position alone, so these numbers change only with a change meant to change the
search: a speed-up that leaves them all equal left the search as it was (``docs/search.md``,
"Changing the search safely").

The recorded signature is ``bench/results/signature.json``. ``python -m bench --quick`` solves
the sets again with the compiled solver, set a with the reference search too (the two must agree
node for node), and compares every position with the record; ``--record`` writes a new record
after a change that means to alter the tree (say so in its commit, with the totals before and
after).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import RESULTS_DIR, Case, Timer, progress, summary
from bench.solve import FULL, build_set
from lukfu_solver.search import make_solver

SIGNATURE_FILE = RESULTS_DIR / "signature.json"
SETS = ("a", "b", "c", "d")
REFERENCE_SETS = ("a",)
"""The sets the reference search solves too (pure Python: the six-card endgames take seconds,
a full deal minutes)."""


@dataclass
class SetRun:
    """One set solved by one solver: a ``[seed, caller, value, nodes]`` row a position, and
    the wall and CPU milliseconds of each solve."""

    name: str
    kind: str
    rows: list[list[int | None]]
    ms: list[float]
    cpu_ms: list[float]

    @property
    def nodes(self) -> int:
        return sum(int(r[3] or 0) for r in self.rows)

    def digest(self) -> str:
        """The first 12 hex digits of a SHA-256 of the rows: one word for the whole set."""
        return digest(self.rows)


def digest(rows: list[list[int | None]]) -> str:
    """A short hash of a set's rows (seed, caller, value, nodes), in order."""
    text = "\n".join(":".join(str(x) for x in r) for r in rows)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def solve_set(name: str, kind: str, cases: list[Case] | None = None) -> SetRun:
    """Solve every position of set ``name`` (all of it: ``FULL`` counts) with a fresh solver of
    ``kind`` each, one thread, no limit."""
    cases = build_set(name, FULL[name]) if cases is None else cases
    run = SetRun(name, kind, [], [], [])
    for case in progress(cases, f"set {name} ({kind})"):
        solver = make_solver(kind)
        c0 = time.process_time()
        with Timer() as t:
            res = solver.solve(case.position)
        run.cpu_ms.append((time.process_time() - c0) * 1000)
        run.ms.append(t.ms)
        run.rows.append([case.seed, case.caller, res.value, res.nodes])
    return run


def load_record(path: Path = SIGNATURE_FILE) -> dict[str, list[list[int | None]]]:
    """The recorded rows of each set (empty when there is no record)."""
    if not path.exists():
        return {}
    return {k: [list(r) for r in v] for k, v in json.loads(path.read_text(encoding="utf-8"))["sets"].items()}


def compare(run: SetRun, recorded: list[list[int | None]] | None) -> dict[str, Any]:
    """How a run's rows stand against the record: positions equal, the first few that differ."""
    if recorded is None:
        return {"recorded": False, "equal": None, "differ": []}
    differ = [
        {"seed": a[0], "caller": a[1], "now": a[2:], "recorded": b[2:]}
        for a, b in zip(run.rows, recorded, strict=False)
        if a != b
    ]
    if len(run.rows) != len(recorded):
        differ.append({"positions_now": len(run.rows), "positions_recorded": len(recorded)})
    return {"recorded": True, "equal": len(run.rows) - len(differ), "differ": differ[:5], "differ_count": len(differ)}


def set_report(run: SetRun, recorded: list[list[int | None]] | None) -> dict[str, Any]:
    """A set's signature line and its times, as saved and printed."""
    return {
        "solver": run.kind,
        "positions": len(run.rows),
        "nodes": run.nodes,
        "digest": run.digest(),
        "vs_record": compare(run, recorded),
        "time_ms": summary(run.ms),
        "cpu_s": round(sum(run.cpu_ms) / 1000, 2),
        "rows": run.rows,
    }


def record(runs: dict[str, SetRun], path: Path = SIGNATURE_FILE) -> Path:
    """Write the compiled solver's rows of the sets run as the new record of those sets (the
    record's other sets are kept as they were)."""
    from bench.common import save_json

    sets = load_record(path)
    sets.update({name: run.rows for name, run in runs.items() if run.kind == "compiled"})
    data = {
        "bench": "signature",
        "what": (
            "The search's node signature: [seed, caller, value, nodes] of every position of the sets of "
            "bench/solve.py (a: 200 six-card endgames, b: 50 full deals, c: those 50 for every caller, d: 50 "
            "further deals), one thread, a fresh solver each, no limit. Checked by python -m bench --quick."
        ),
        "sets": {name: sets[name] for name in SETS if name in sets},
        "digests": {name: digest(sets[name]) for name in SETS if name in sets},
    }
    return save_json(data, path)
