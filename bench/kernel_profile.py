"""Where the compiled kernel spends its CPU, by function: a sampling profile of full-deal solves.

numba's compiled functions carry no symbols that ``perf report`` can read, but gdb names them
through numba's JIT interface. So the solves run twice with address randomisation off
(``setarch -R``), so that both runs lay the code out at the same addresses: the first under
``perf record`` at ``--freq`` samples a second (enabled by the child around its solves only,
through perf's control FIFO, so that the process's start is not counted), the second paused at
its end while gdb names every sampled address. The samples are then summed by function and by phase of a node (keys and
``push``, the table, the bounds, the moves and their order, the node loop, numba's reference
counting calls, and what is not the kernel). Needs Linux ``perf``, ``gdb`` and ``setarch``
(util-linux); without them it says so and exits 2.

``python -m bench.kernel_profile [--only c/5:1,9:0] [--repeat 2] [--freq 4000] [--out FILE]``; the
default positions are the twelve hardest of sets b, c and d and ten of set c's middle ones.
"""

from __future__ import annotations

import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import Case, base_parser, save_json
from bench.solve import FULL, build_set

DEFAULT_ONLY = {
    "b": "36:2,25:0",
    "c": "5:1,9:0,26:0,30:0,28:0,36:2,3:0,5:2,19:1,21:2,25:1,35:0,37:2,42:2,47:0,47:2",
    "d": "1006:0,1024:0,1029:0,1038:2",
}
"""The default positions (seed:caller): the hardest of each set and ten of set c's middle ones."""

PHASES: tuple[tuple[str, str], ...] = (
    ("keys and push", r"kernel::state::"),
    ("table", r"kernel::table::"),
    ("bounds and look-aheads", r"kernel::(bounds|claims|discards)::|kernel::layout::can_beat"),
    ("moves and ordering", r"kernel::(moves|ordering)::|kernel::alphabeta::(known_move|wake|flush)"),
    ("node loop (with the inlined table probe)", r"kernel::alphabeta::search"),
    ("numba reference counting calls", r"^NRT_"),
    ("the system (Linux: page faults, system calls)", r"^\[Linux\]$"),
)
"""The phases of a node, by the function's module (the rest is 'not the kernel')."""

TOOLS = ("perf", "gdb", "setarch")
LINUX = 0xFFFF800000000000
"""Addresses from here up are the Linux kernel's (x86-64's upper half), which gdb cannot name."""


def perf_says(ctl: Path, command: str) -> None:
    """Tell the ``perf record`` this process runs under to ``enable`` or ``disable`` its events
    (its ``--control`` FIFOs ``ctl`` and ``ctl.ack``), and wait until it has."""
    with open(ctl, "w") as out:
        out.write(command + "\n")
    with open(ctl.with_suffix(".ack")) as ack:
        ack.readline()


def child(sets: dict[str, list[tuple[int, int]]], repeat: int, wait: bool, ctl: Path) -> int:
    """Solve the chosen positions ``repeat`` times with fresh solvers, perf's sampling enabled
    around the solves only; with ``wait``, print ``ready PID`` and wait for a line on standard
    input before exiting (while gdb looks)."""
    from lukfu_solver.search import make_solver
    from lukfu_solver.search.compiled import prepare_kernel

    cases = chosen_cases(sets)
    if not cases:
        raise SystemExit("kernel_profile: none of the --only positions is in its bench set")
    prepare_kernel()  # the kernel loaded before the clock
    perf_says(ctl, "enable")
    t0 = time.process_time()
    nodes = 0
    for _ in range(repeat):
        for case in cases:
            nodes += make_solver("compiled").solve(case.position).nodes
    perf_says(ctl, "disable")
    print(
        json.dumps({"positions": len(cases), "nodes": nodes, "cpu_s": round(time.process_time() - t0, 3)}), flush=True
    )
    if wait:
        print(f"ready {os.getpid()}", flush=True)
        sys.stdin.readline()
    return 0


def symbol_of(line: str) -> str:
    """The function's readable name from gdb's ``info symbol`` answer (or ``?``)."""
    if " in section " not in line:
        return "?"
    name = re.sub(r" \+ \d+$", "", line.split(" in section ")[0].strip())
    name = name.split("[abi:")[0]
    return name


def phase_of(name: str) -> str:
    """The phase of a node that a function belongs to."""
    for phase, pattern in PHASES:
        if re.search(pattern, name):
            return phase
    return "not the kernel (Python, numpy)"


def profile(only: str, repeat: int, freq: int) -> dict[str, Any]:
    """Run the two passes and sum the samples by function and by phase."""
    from lukfu_solver.search.compiled import prepare_kernel

    prepare_kernel()
    arch = os.uname().machine
    with tempfile.TemporaryDirectory() as tmp:
        ctl = Path(tmp) / "ctl.fifo"
        os.mkfifo(ctl)
        os.mkfifo(ctl.with_suffix(".ack"))
        cmd = [sys.executable, "-m", "bench.kernel_profile", "--child", "--only", only, "--repeat", str(repeat)]
        cmd += ["--ctl", str(ctl)]
        # sampling starts disabled (-D -1): the child enables it around its solves only
        # both passes under the same prefix, so that they lay the code out alike
        perf = ["setarch", arch, "-R", "perf", "record", "-q", "-D", "-1"]
        perf += ["--control", f"fifo:{ctl},{ctl.with_suffix('.ack')}"]
        data = Path(tmp) / "perf.data"
        run = subprocess.run(
            [*perf, "-F", str(freq), "-o", str(data), "--", *cmd],
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            raise SystemExit(f"perf record failed: {run.stderr.strip().splitlines()[-1:]}")
        solved = json.loads(run.stdout.strip().splitlines()[0])
        ips = subprocess.run(
            ["perf", "script", "-i", str(data), "-F", "ip"], capture_output=True, text=True, check=True
        ).stdout.split()
        counts = collections.Counter(int(x, 16) for x in ips)
        # the second pass: the same layout, paused at its end while gdb names the addresses
        proc = subprocess.Popen(
            [*perf, "-F", "1", "-o", str(Path(tmp) / "p2.data"), "--", *cmd, "--wait"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert proc.stdin is not None and proc.stdout is not None
        pid = 0
        for line in proc.stdout:
            if line.startswith("ready "):
                pid = int(line.split()[1])
                break
        addrs = sorted(counts)
        cmds = Path(tmp) / "gdb.txt"
        cmds.write_text("".join(f"info symbol {a:#x}\n" for a in addrs))
        named = subprocess.run(
            ["gdb", "-q", "-p", str(pid), "-batch", "-x", str(cmds)], capture_output=True, text=True
        ).stdout.splitlines()
        proc.stdin.write("\n")
        proc.stdin.close()
        proc.wait()
    answers = [x for x in named if " in section " in x or x.startswith("No symbol")]
    if len(answers) != len(addrs):
        raise SystemExit(f"gdb named {len(answers)} of {len(addrs)} addresses: run again")
    by_fn: collections.Counter[str] = collections.Counter()
    for addr, answer in zip(addrs, answers, strict=True):
        by_fn["[Linux]" if addr >= LINUX else symbol_of(answer)] += counts[addr]
    total = sum(counts.values())
    by_phase: collections.Counter[str] = collections.Counter()
    for fn, n in by_fn.items():
        by_phase[phase_of(fn)] += n
    return {
        "solved": solved,
        "samples": total,
        "phases": {k: round(100 * v / total, 1) for k, v in by_phase.most_common()},
        "functions": {k: round(100 * v / total, 2) for k, v in by_fn.most_common(40)},
    }


def main(argv: list[str] | None = None) -> int:
    parser = base_parser(__doc__.splitlines()[0], "kernel-profile.json")
    parser.add_argument(
        "--only",
        default=",".join(f"{s}/{v}" for s, v in DEFAULT_ONLY.items()),
        help="positions as SET/SEED:CALLER,... groups joined by commas (default: 22 of b, c, d)",
    )
    parser.add_argument("--repeat", type=int, default=2, help="solves of each position (2)")
    parser.add_argument("--freq", type=int, default=4000, help="samples a second (4000)")
    parser.add_argument("--child", action="store_true", help=argparse_hidden())
    parser.add_argument("--wait", action="store_true", help=argparse_hidden())
    parser.add_argument("--ctl", type=Path, help=argparse_hidden())
    args = parser.parse_args(argv)
    if args.quick:
        args.only, args.repeat = "c/5:1,9:0", 1
    try:
        sets = parse_only(args.only)
    except ValueError as exc:
        parser.error(f"--only: {exc}")
    if args.child:
        return child(sets, args.repeat, args.wait, args.ctl)
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        print(
            f"kernel_profile: needs {', '.join(missing)} (Debian: apt-get install linux-perf gdb util-linux)",
            file=sys.stderr,
        )
        return 2
    res = profile(args.only, args.repeat, args.freq)
    res = {"bench": "kernel_profile", "what": __doc__.splitlines()[0], "positions": args.only, **res}
    print(
        f"{res['solved']['positions']} positions x {args.repeat}: {res['solved']['nodes']:,} nodes, "
        f"{res['solved']['cpu_s']} s CPU ({1e6 * res['solved']['cpu_s'] / res['solved']['nodes']:.2f} us a node); "
        f"{res['samples']:,} samples"
    )
    print("\nby phase of a node:")
    for k, v in res["phases"].items():
        print(f"  {v:5.1f}%  {k}")
    print("\nby function (top 25):")
    for k, v in list(res["functions"].items())[:25]:
        print(f"  {v:5.2f}%  {k.replace('lukfu_solver::search::', '')}")
    save_json(res, args.out)
    return 0


def argparse_hidden() -> str:
    """argparse's marker for an option left out of --help."""
    import argparse

    return argparse.SUPPRESS


def parse_only(text: str) -> dict[str, list[tuple[int, int]]]:
    """``b/36:2,25:0,c/5:1`` -> {"b": [(36, 2), (25, 0)], "c": [(5, 1)]} (positions without a set
    are set c's); ValueError naming the part at fault."""
    sets: dict[str, list[tuple[int, int]]] = {}
    current = "c"
    for part in text.split(","):
        if "/" in part:
            current, part = part.split("/", 1)
        if current not in FULL:
            raise ValueError(f"no bench set {current!r} (sets: {', '.join(FULL)})")
        seed, sep, caller = part.partition(":")
        if not (sep and seed.isdigit() and caller in ("0", "1", "2")):
            raise ValueError(f"{part!r} is not SEED:CALLER (a seed and a caller 0-2)")
        sets.setdefault(current, []).append((int(seed), int(caller)))
    return sets


def chosen_cases(sets: dict[str, list[tuple[int, int]]]) -> list[Case]:
    """The bench sets' positions that :func:`parse_only`'s ``sets`` name, in the sets' order (a
    position its set does not hold is left out)."""
    return [c for name, want in sets.items() for c in build_set(name, FULL[name]) if (c.seed, c.caller) in want]


if __name__ == "__main__":
    raise SystemExit(main())
