"""The benchmarks' front door.

``python -m bench`` lists the benchmarks a maintainer reruns, one line each, then the one-off
studies of ``bench/studies/`` (``bench/README.md`` says more). ``python -m bench --quick`` solves the search's bench sets once (a few minutes on two
cores): it prints the node signature (:mod:`bench.signature`: every position's value and node
count against the record, and the reference against the compiled kernel node for node on set a),
this run's times, and the key figures recorded in ``bench/results/`` that the docs quote. It
saves what it measured to ``bench/results/quick.json`` and exits 1 when a node count differs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bench.common import RESULTS_DIR, fmt, percentile, ratio, save_json

BENCHMARKS: tuple[tuple[str, str, str], ...] = (
    (
        "solve",
        "the exact solver on the fixed sets a-d, beside plain alpha-beta and (--baseline) fbfdd6f in the same run",
        "solve.json",
    ),
    (
        "kernel",
        "the compiled kernel beside the reference search on 6- and 8-card endgames, node for node; its compile",
        "kernel.json",
    ),
    (
        "compile",
        "the kernel's cold compile (wall, CPU, per function), beside another tree in the same run",
        "compile.json",
    ),
    (
        "kernel_profile",
        "where the compiled kernel spends its CPU on full deals, by function and phase (needs perf, gdb)",
        "kernel-profile.json",
    ),
    ("engine", "random full-deal playouts and legal-move generations a second", "engine.json"),
    (
        "env_speed",
        "the research environments' actions a second (PettingZoo, Gymnasium, OpenSpiel) beside a plain playout",
        "env-speed.json",
    ),
    ("sampler", "the uniform deal sampler's draws a second on seat views, beside naive rejection", "sampler.json"),
    (
        "advise",
        "call/pass advice at the defaults: time, samples, agreement with the exact reference, beside fbfdd6f",
        "advise.json",
    ),
    ("strength", "the engine players in rotated matches with 95% intervals; PIMC's call calibration", "strength.json"),
    ("inference", "the opponent model's fit and accuracy; ipimc against pimc in paired games", "inference.json"),
    ("ladder", "every engine's points a deal against two rule players; --pairs: the strength names' matches", "ladder.json"),
    ("calibration", "the call's calibrated values against what the deals brought, by opponent strength", "calibration.json"),
    ("puzzles", "puzzle generation per minute by difficulty, and re-verifying the collection", "puzzles.json"),
    ("cluster", "batches on a local Dask cluster beside the process pool", "cluster.json"),
    (
        "review",
        "the game review of whole deals at the defaults, beside reviewing by hand with 813c82c in the same run",
        "review.json",
    ),
    (
        "hint",
        "the in-game hint in play: its time beside the previous hint's, and how often the review agrees with it",
        "hint.json",
    ),
    (
        "first_use",
        "the first commands after a fresh pip install (install, solve, advise, analyse, play), beside another revision",
        "first-use.json",
    ),
    (
        "serve_load",
        "lukfu serve under 20 clients playing whole deals for 60 s: 5xx, games lost, p95 without engine work, memory",
        "serve-load.json",
    ),
    (
        "serve_priority",
        "lukfu serve's engine moves idle and while two long reviews run, with the kept worker and without",
        "serve-priority.json",
    ),
)
"""(module, what it measures, default result file in bench/results/)."""

STUDIES: tuple[tuple[str, str, str], ...] = (
    (
        "bound_ceiling",
        "how many nodes a bound one step tighter would save, by kind of node (the reference, against exact values)",
        "bound-ceiling.json",
    ),
    (
        "partition_ceiling",
        "how many nodes partition search could save at most, by what its bounds read (the reference, against exact values)",
        "partition-ceiling.json",
    ),
    (
        "advise_levers",
        "two levers of the advice measured before building: a control variate, the descending driver",
        "advise-levers.json",
    ),
    (
        "advise_master",
        "the Master's levers: strata, the pass branch on fewer samples, two-phase sampling, the prior",
        "advise-master.json",
    ),
    ("review_study", "the engine players' own worst decisions, from a reviewed match", "review-study.json"),
)
"""The one-off studies of ``bench/studies/``: (module, what it measured, result file in bench/results/)."""

RECORDED: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "full deals b+c+d, 1 thread: nodes fbfdd6f / now",
        "solve-vs-fbfdd6f.json",
        ("vs_baseline", "node_ratio"),
    ),
    (
        "full deals b+c+d, 1 thread: CPU fbfdd6f / now",
        "solve-vs-fbfdd6f.json",
        ("vs_baseline", "cpu_ratio"),
    ),
    ("b+c wall p95, 1 thread: now (ms)", "solve-vs-fbfdd6f.json", ("p95_goal", "solver_p95_ms")),
    (
        "b+c wall p95, 1 thread: fbfdd6f / now (goal 4.40)",
        "solve-vs-fbfdd6f.json",
        ("p95_goal", "p95_ratio"),
    ),
    (
        "full deals b+c+d, 2 threads: nodes fbfdd6f / now",
        "solve-2threads-vs-fbfdd6f.json",
        ("vs_baseline", "node_ratio"),
    ),
    (
        "full deals b+c+d, 2 threads: CPU fbfdd6f / now",
        "solve-2threads-vs-fbfdd6f.json",
        ("vs_baseline", "cpu_ratio"),
    ),
)
"""The key figures the docs quote from recorded runs: (what, file in bench/results/, JSON keys)."""


def recorded_figure(file: str, keys: tuple[str, ...]) -> Any:
    """A recorded figure: the value at ``keys`` of ``bench/results/<file>``."""
    value: Any = json.loads((RESULTS_DIR / file).read_text(encoding="utf-8"))
    for k in keys:
        value = value[k]
    return value


def list_benchmarks() -> None:
    """One line a benchmark: how to run it, what it measures, where its results go."""
    width = max(len(name) for name, _, _ in STUDIES) + len("python -m bench.studies.")
    print("Benchmarks (bench/README.md says more; each takes --help and --out FILE, most --quick):\n")
    for name, what, out in BENCHMARKS:
        print(f"  {'python -m bench.' + name:<{width}}  {what} (bench/results/{out})")
    print("\nStudies, measured once to decide something (bench/studies/):\n")
    for name, what, out in STUDIES:
        print(f"  {'python -m bench.studies.' + name:<{width}}  {what} (bench/results/{out})")
    print("\n  python -m bench --quick  the node signature of the search's bench sets and the key figures (minutes)")
    print("  (the trainers of the advice and opponent models are in train/: train/README.md)")


def quick(sets: list[str], out: Path, write_record: bool) -> int:
    """Solve the bench sets, compare with the recorded signature, print and save; 1 on a difference."""
    from bench import signature
    from lukfu_solver.search.compiled import prepare_kernel
    from lukfu_solver.search.warmup import kernel_ready

    if not kernel_ready():
        print("compiling the solver's kernel once (not counted below)...", file=sys.stderr)
    prepare_kernel()
    recorded = signature.load_record()
    runs: dict[str, signature.SetRun] = {}
    reports: dict[str, Any] = {}
    identity: dict[str, Any] = {}
    for name in sets:
        run = signature.solve_set(name, "compiled")
        runs[name] = run
        reports[name] = signature.set_report(run, recorded.get(name))
        if name in signature.REFERENCE_SETS:
            ref = signature.solve_set(name, "reference")
            identity[name] = {
                "positions": len(ref.rows),
                "equal": sum(a == b for a, b in zip(ref.rows, run.rows, strict=True)),
                "time_ratio_reference_over_compiled": ratio(sum(ref.ms), sum(run.ms), 1),
                "reference_s": round(sum(ref.ms) / 1000, 2),
                "compiled_s": round(sum(run.ms) / 1000, 2),
            }
    print_quick(reports, identity)
    pooled = [m for n in ("b", "c") if n in runs for m in runs[n].ms]
    data = {
        "bench": "quick",
        "sets": reports,
        "reference_vs_compiled": identity,
        "bc_wall_p95_ms": round(percentile(pooled, 95), 1) if pooled else None,
        "recorded": {what: recorded_figure(file, keys) for what, file, keys in RECORDED},
    }
    print_recorded(data["bc_wall_p95_ms"])
    path = save_json(data, out)
    print(f"\nsaved {path}")
    if write_record:
        print(f"recorded the signature in {signature.record(runs)}")
        return 0
    bad = [n for n, r in reports.items() if r["vs_record"]["recorded"] and r["vs_record"]["differ_count"]]
    bad += [f"{n} (reference)" for n, i in identity.items() if i["equal"] != i["positions"]]
    if bad:
        print(f"NODE SIGNATURE DIFFERS: {', '.join(bad)} (see {path})")
        return 1
    return 0


def print_quick(reports: dict[str, Any], identity: dict[str, Any]) -> None:
    """The signature table, this run's times, and the reference against the compiled kernel."""
    print("Node signature (one thread, a fresh solver each, no limit; record: bench/results/signature.json)\n")
    print(
        f"  {'set':<4}{'positions':>10}{'nodes':>14}  {'digest':<13}{'vs record':<24}{'median':>9}{'p95':>9}{'max':>9}{'CPU':>9}"
    )
    for name, r in reports.items():
        v = r["vs_record"]
        state = "not recorded" if not v["recorded"] else f"{v['equal']}/{r['positions']} equal"
        t = r["time_ms"]
        print(
            f"  {name:<4}{r['positions']:>10}{r['nodes']:>14,}  {r['digest']:<13}{state:<24}"
            f"{fmt(t['median'], ' ms'):>9}{fmt(t['p95'], ' ms'):>9}{fmt(t['max'], ' ms'):>9}{fmt(r['cpu_s'], ' s'):>9}"
        )
        for d in v["differ"]:
            print(f"      differs: {d}")
    for name, i in identity.items():
        print(
            f"\n  reference = compiled, node for node, on set {name}: {i['equal']}/{i['positions']}; "
            f"time {i['reference_s']} s against {i['compiled_s']} s ({i['time_ratio_reference_over_compiled']}x)"
        )


def print_recorded(bc_p95: float | None) -> None:
    """The key figures of recorded runs (ratios measured side by side in one run: those count)."""
    if bc_p95 is not None:
        print(f"\n  this run: sets b+c wall p95 {fmt(bc_p95, ' ms')} (one machine's time; compare ratios, not ms)")
    print("\nKey figures recorded (bench/results/; docs/search.md quotes them):\n")
    for what, file, keys in RECORDED:
        print(f"  {what:<52} {recorded_figure(file, keys)!s:>9}   {file}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the node signature and the key figures (minutes)")
    parser.add_argument("--sets", default="a,b,c,d", help="with --quick: the sets to solve (a,b,c,d)")
    parser.add_argument("--record", action="store_true", help="with --quick: write the run as the new signature")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "quick.json", help="where --quick saves its run")
    args = parser.parse_args(argv)
    if not args.quick:
        if args.record:
            parser.error("--record needs --quick")
        list_benchmarks()
        return 0
    from bench.signature import SETS

    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    bad = [s for s in sets if s not in SETS]
    if bad or not sets:
        parser.error(f"--sets: unknown set(s) {','.join(bad) or '(none)'}; choose among {','.join(SETS)}")
    return quick(sets, args.out, args.record)


if __name__ == "__main__":
    sys.exit(main())
