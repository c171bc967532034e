"""Benchmark of the first use after a fresh install: what a newcomer waits for.

For each revision (``--rev``, by default HEAD; ``--baseline`` another, e.g. 813c82c), each round
clones the repository into a temp folder, makes a new virtual environment and times a
non-editable ``pip install`` of the clone with an empty user cache (``XDG_CACHE_HOME``: pip's and
the kernel's), then times each command below as the very first command of that fresh install:
before each one, every file the previous one left in the environment is removed again and the
user cache is a new empty folder. Commands:

- ``solve``: ``lukfu solve "$(lukfu deal --seed 7 --caller 1)" --json`` (a full deal);
- ``advise``: ``lukfu advise --deal 7 --seat 1``;
- ``analyse``: ``lukfu analyse --deal 7 --seat 1``;
- ``play``: ``lukfu play --seed 7 --seat 1 --opponents pimc``, input piped, timed to its first
  engine answer (the Master's call), then ``quit``.

Each figure is the wall time and the command's user + system CPU time (steadier on a shared
machine), with the 1-minute load average when it started. Standard error is a terminal (a pty),
so the record says whether the compile was announced. The first run of each revision also
times a second ``pip install --force-reinstall --no-deps`` with the same user cache (a rebuild on
a machine that has compiled this kernel). The solve's value and node count are checked equal
across revisions.

Self-contained (standard library only; run with any Python 3.10+):
``python -m bench.first_use [--rev REV] [--baseline REV] [--rounds N] [--baseline-rounds N] [--out FILE]``;
results go to ``bench/results/first-use.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import pty
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "bench" / "results" / "first-use.json"
DEAL = ["deal", "--seed", "7", "--caller", "1"]
COMMANDS: dict[str, list[str]] = {
    "solve": ["solve", "{deal}", "--json"],
    "advise": ["advise", "--deal", "7", "--seat", "1"],
    "analyse": ["analyse", "--deal", "7", "--seat", "1"],
    "play": ["play", "--seed", "7", "--seat", "1", "--opponents", "pimc"],
}
FIRST_ANSWER = re.compile(r"^Seat 0 \(")
"""The play command's first engine answer: the Master's call (seat 1 speaks second)."""
ANNOUNCED = ("Compiling", "compiled in")


def cpu_of_children() -> float:
    """User + system seconds of the waited-for children so far."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_timed(
    argv: list[str], env: dict[str, str], cwd: Path, stdin_text: str | None = None, until: re.Pattern | None = None
) -> dict[str, Any]:
    """Run one command with standard error on a pty; its wall time (to the first stdout line
    matching ``until`` when given, then ``quit`` is sent), its CPU time, its output."""
    master, slave = pty.openpty()
    err: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                return
            if not chunk:
                return
            err.append(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    cpu0 = cpu_of_children()
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        argv, env=env, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=slave, text=True
    )
    os.close(slave)
    assert proc.stdin is not None and proc.stdout is not None
    out_lines: list[str] = []
    answered = None
    if until is not None:
        for line in proc.stdout:
            out_lines.append(line)
            if until.search(line):
                answered = time.perf_counter() - t0
                break
        proc.stdin.write("quit\n")
        proc.stdin.close()
        out_lines.extend(proc.stdout)
    else:
        if stdin_text:
            proc.stdin.write(stdin_text)
        proc.stdin.close()
        out_lines.extend(proc.stdout)
    code = proc.wait()
    wall = time.perf_counter() - t0
    cpu = cpu_of_children() - cpu0
    reader.join(timeout=5)
    os.close(master)
    stderr = b"".join(err).decode(errors="replace")
    return {
        "wall_s": round(answered if until is not None and answered is not None else wall, 2),
        "process_wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "load": round(load, 2),
        "exit": code,
        "answered": until is None or answered is not None,
        "announced": any(a in stderr for a in ANNOUNCED),
        "stdout": "".join(out_lines),
        "stderr": stderr,
    }


def files_under(root: Path) -> set[str]:
    """Every file and folder under ``root``."""
    return {os.path.join(d, n) for d, dirs, files in os.walk(root) for n in dirs + files}


def restore(root: Path, before: set[str]) -> int:
    """Remove what appeared under ``root`` since ``before``; how many paths."""
    new = sorted(files_under(root) - before, key=len, reverse=True)
    for path in new:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        elif os.path.lexists(path):
            os.unlink(path)
    return len(new)


def clean_env(venv: Path, cache: Path) -> dict[str, str]:
    """The environment of a newcomer's shell with the venv activated and an empty user cache."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH", "PYTHONHOME")}
    env.update(
        VIRTUAL_ENV=str(venv),
        PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}",
        XDG_CACHE_HOME=str(cache),
        COLUMNS="100",
    )
    return env


def one_round(rev: str, work: Path, reinstall: bool, log: Any) -> dict[str, Any]:
    """Clone ``rev``, install it fresh, and time each command as the first of that install."""
    src, venv = work / "src", work / "venv"
    subprocess.run(["git", "clone", "-q", str(REPO), str(src)], check=True)
    subprocess.run(["git", "-C", str(src), "checkout", "-q", rev], check=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    install_env = clean_env(venv, work / "cache-install")
    log(f"  pip install {rev} (load {os.getloadavg()[0]:.1f})")
    cpu0, t0 = cpu_of_children(), time.perf_counter()
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(src)], env=install_env, check=True)
    record: dict[str, Any] = {
        "install": {"wall_s": round(time.perf_counter() - t0, 1), "cpu_s": round(cpu_of_children() - cpu0, 1)}
    }
    fresh = files_under(venv)
    ready = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "from lukfu_solver.search.warmup import kernel_ready; print(kernel_ready())",
        ],
        env=clean_env(venv, work / "cache-ready"),
        cwd=work,
        capture_output=True,
        text=True,
        check=True,
    )
    record["kernel_ready_after_install"] = ready.stdout.strip() == "True"
    restore(venv, fresh)
    deal = subprocess.run(
        [str(venv / "bin" / "lukfu"), *DEAL], env=clean_env(venv, work / "cache-deal"), capture_output=True, text=True
    )
    position = deal.stdout.strip()
    restore(venv, fresh)
    record["commands"] = {}
    for name, args in COMMANDS.items():
        cwd = work / f"cwd-{name}"
        cwd.mkdir()
        argv = [str(venv / "bin" / "lukfu"), *[a.replace("{deal}", position) for a in args]]
        res = run_timed(
            argv, clean_env(venv, work / f"cache-{name}"), cwd, until=FIRST_ANSWER if name == "play" else None
        )
        left = restore(venv, fresh)
        log(
            f"  {name}: {res['wall_s']} s wall, {res['cpu_s']} s CPU, load {res['load']}, "
            f"announced {res['announced']}, exit {res['exit']} ({left} files it left removed)"
        )
        if name == "solve" and res["exit"] == 0:
            answer = json.loads(res["stdout"])
            res["value"], res["nodes"] = answer.get("value"), answer.get("nodes")
        res["stdout_head"] = res.pop("stdout").strip().splitlines()[:3]
        res["stderr"] = res["stderr"].strip()[-300:]
        record["commands"][name] = res
    if reinstall:
        cpu0, t0 = cpu_of_children(), time.perf_counter()
        subprocess.run(
            [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", str(src)],
            env=install_env,
            check=True,
        )
        record["reinstall"] = {
            "wall_s": round(time.perf_counter() - t0, 1),
            "cpu_s": round(cpu_of_children() - cpu0, 1),
        }
        log(f"  reinstall: {record['reinstall']}")
    return record


def summary(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """Median, min and max of each figure over the rounds."""

    def stats(values: list[float]) -> dict[str, float]:
        return {"median": round(statistics.median(values), 2), "min": min(values), "max": max(values)}

    out: dict[str, Any] = {
        "install_wall_s": stats([r["install"]["wall_s"] for r in rounds]),
        "install_cpu_s": stats([r["install"]["cpu_s"] for r in rounds]),
    }
    for name in COMMANDS:
        runs = [r["commands"][name] for r in rounds]
        out[name] = {
            "wall_s": stats([c["wall_s"] for c in runs]),
            "cpu_s": stats([c["cpu_s"] for c in runs]),
            "load": stats([c["load"] for c in runs]),
            "announced": sorted({c["announced"] for c in runs}),
            "all_answered": all(c["exit"] == 0 and c["answered"] for c in runs),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    """Measure each revision's fresh installs and first commands, print and save them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="HEAD", help="the revision measured (HEAD)")
    parser.add_argument("--baseline", default=None, help="a revision to measure the same way, e.g. 813c82c")
    parser.add_argument("--rounds", type=int, default=3, help="fresh installs of --rev (3)")
    parser.add_argument("--baseline-rounds", type=int, default=1, help="fresh installs of --baseline (1)")
    parser.add_argument("--out", type=Path, default=OUT, help=f"results file ({OUT.relative_to(REPO)})")
    args = parser.parse_args(argv)

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    revs = {"this": (args.rev, args.rounds)}
    if args.baseline:
        revs["baseline"] = (args.baseline, args.baseline_rounds)
    result: dict[str, Any] = {
        "environment": {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
            "argv": sys.argv[1:] if argv is None else argv,
            "run_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "load_at_start": [round(x, 2) for x in os.getloadavg()],
        },
        "revisions": {},
        "rounds": {},
        "summary": {},
    }
    for name, (rev, n) in revs.items():
        commit = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short=12", rev], capture_output=True, text=True, check=True
        ).stdout.strip()
        result["revisions"][name] = commit
        result["rounds"][name] = []
        for i in range(n):
            log(f"{name} ({commit}), round {i + 1}/{n}")
            with tempfile.TemporaryDirectory(prefix="lukfu-first-use-") as work:
                result["rounds"][name].append(one_round(commit, Path(work), reinstall=i == 0, log=log))
        result["summary"][name] = summary(result["rounds"][name])
    if "baseline" in result["rounds"]:
        solves = [
            (c["commands"]["solve"].get("value"), c["commands"]["solve"].get("nodes"))
            for r in result["rounds"].values()
            for c in r
        ]
        result["solve_value_and_nodes_equal"] = len(set(solves)) == 1
    result["environment"]["load_at_end"] = [round(x, 2) for x in os.getloadavg()]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    for name, s in result["summary"].items():
        log(
            f"{name} ({result['revisions'][name]}): install {s['install_wall_s']['median']} s "
            f"(CPU {s['install_cpu_s']['median']} s)"
        )
        for cmd in COMMANDS:
            log(
                f"  {cmd}: wall {s[cmd]['wall_s']['median']} s, CPU {s[cmd]['cpu_s']['median']} s, "
                f"announced {s[cmd]['announced']}"
            )
    log(f"saved {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
