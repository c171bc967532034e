"""Load on ``lukfu serve``: concurrent clients play whole deals through the API on loopback.

Starts ``lukfu serve`` as a person does (its own process, its own worker pool, a fresh data
folder) and runs ``--clients`` clients for ``--seconds`` (and at most ``--max-requests`` requests
in all): each deals a game against two ``rule`` engines, calls or passes at random, plays its
first legal move (now and then asks for a hint on it, or takes a move back), lets the engines move
(a job, followed with long polls) and starts a new deal when one ends. Requests are timed by kind:
those that need no engine work (a new game, a move, the state, an undo, the record) and those
that do (an engine's move and its polls, a hint). At the end every game the clients made must be
in the data folder as a record that replays, finished games with their result (no game lost); no
answer may be a 5xx; the server's memory (its process and its workers, sampled every second) must
stop growing (the pool's workers load the solver in their first seconds, and the server keeps the
last 500 jobs: it must level off, within 2% over the last third of the run). The machine's load
(other work on it) is recorded before and after, and so are the CPU seconds the server's own
process (its event loop, where every request is answered) and the clients spent a request: the
figures that do not depend on what else the machine runs. With ``--quiet-load L`` the run waits
(up to ``--quiet-wait`` seconds) until the machine's 1-minute load is below L before it starts.

    python -m bench.serve_load [--clients 20] [--seconds 60] [--out bench/results/serve-load.json]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.common import environment
from lukfu_solver.record import GameRecord

ROOT = Path(__file__).resolve().parent.parent

GOAL_P95_MS = 50.0
"""The goal: the p95 of requests that need no engine work, in milliseconds."""


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values`` by the nearest-rank rule (0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q * len(ordered) + 0.5)) - 1))]


def rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` and its children, KiB (Linux /proc)."""
    total = 0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of process ``pid`` alone (Linux /proc; 0 when unreadable)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for_quiet(limit: float, most: float) -> list[float]:
    """Wait (up to ``most`` seconds) until the 1-minute load is below ``limit``; the loads seen."""
    seen = [round(os.getloadavg()[0], 2)]
    deadline = time.monotonic() + most
    while seen[-1] >= limit and time.monotonic() < deadline:
        time.sleep(15)
        seen.append(round(os.getloadavg()[0], 2))
    return seen


def ping(port: int, token: str, stop_at: float, out: list[float]) -> None:
    """The cheapest request, every 50 ms until ``stop_at``: what the machine's load alone costs."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    while time.monotonic() < stop_at:
        t0 = time.perf_counter()
        conn.request("GET", "/api/info", headers={"X-Lukfu-Token": token})
        conn.getresponse().read()
        out.append(1000 * (time.perf_counter() - t0))
        time.sleep(0.05)


class Client(threading.Thread):
    """One player: plays deals through the API until the time or the request budget is spent."""

    def __init__(self, n: int, port: int, token: str, stop_at: float, budget: Any, seed: int) -> None:
        super().__init__(daemon=True)
        self.n = n
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = {"X-Lukfu-Token": token, "Content-Type": "application/json"}
        self.stop_at = stop_at
        self.budget = budget
        self.rng = random.Random(seed)
        self.plain: list[float] = []
        self.engine: list[float] = []
        self.by_kind: dict[str, list[float]] = {}
        self.statuses: dict[int, int] = {}
        self.games: list[str] = []
        self.finished: list[str] = []
        self.errors: list[str] = []

    def request(self, method: str, path: str, body: Any = None, engine: bool = False, kind: str = "") -> tuple[int, Any]:
        with self.budget["lock"]:
            self.budget["left"] -= 1
        data = None if body is None else json.dumps(body)
        t0 = time.perf_counter()
        self.conn.request(method, path, body=data, headers=self.headers)
        response = self.conn.getresponse()
        raw = response.read()
        ms = 1000 * (time.perf_counter() - t0)
        (self.engine if engine else self.plain).append(ms)
        if kind:
            self.by_kind.setdefault(kind, []).append(ms)
        self.statuses[response.status] = self.statuses.get(response.status, 0) + 1
        return response.status, json.loads(raw) if raw else None

    def out_of_time(self) -> bool:
        return time.monotonic() >= self.stop_at or self.budget["left"] <= 0

    def run(self) -> None:
        try:
            while not self.out_of_time():
                self.deal()
        except Exception as err:  # recorded: a client that fails is a finding
            self.errors.append(f"{type(err).__name__}: {err}")

    def deal(self) -> None:
        status, g = self.request("POST", "/api/games", {"opponents": ["rule"], "level": 1}, kind="new game")
        if status != 201:
            self.errors.append(f"new game: {status} {g}")
            return
        gid = g["id"]
        self.games.append(gid)
        while g["phase"] != "over" and not self.out_of_time():
            if g["waiting_for_engine"]:
                status, job = self.request("POST", f"/api/games/{gid}/engine?wait=2", engine=True)
                while status < 400 and job["state"] not in ("done", "failed", "cancelled"):
                    status, job = self.request("GET", f"/api/jobs/{job['id']}?wait=2", engine=True)
                if status >= 400 or job["state"] != "done":
                    self.errors.append(f"engine: {status} {job}")
                    return
                g = job["state_of_game"]
                continue
            roll = self.rng.random()
            if roll < 0.03 and g["phase"] == "play":
                status, job = self.request("POST", f"/api/games/{gid}/hint", engine=True)
                while status < 400 and job["state"] not in ("done", "failed", "cancelled"):
                    status, job = self.request("GET", f"/api/jobs/{job['id']}?wait=2", engine=True)
            if roll > 0.97 and g["can_undo"]:
                status, g = self.request("POST", f"/api/games/{gid}/undo", kind="undo")
                continue
            if roll < 0.1:
                status, g = self.request("GET", f"/api/games/{gid}", kind="state")
            choices = g["choices"]
            move = self.rng.choice(choices) if g["phase"] == "call" else ("claim" if "claim" in choices else choices[0])
            status, g = self.request("POST", f"/api/games/{gid}/move", {"move": move}, kind="move")
            if status != 200:
                self.errors.append(f"move {move}: {status} {g}")
                return
        if g["phase"] == "over":
            self.finished.append(gid)
            self.request("GET", f"/api/games/{gid}/record", kind="record")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--max-requests", type=int, default=200_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--max-games",
        type=int,
        default=32,
        help="live games held: more than the clients play at once, far fewer than the games made (unloading is exercised)",
    )
    parser.add_argument("--quiet-load", type=float, default=None, help="start only once the 1-minute load is below this")
    parser.add_argument("--quiet-wait", type=float, default=900.0, help="the longest wait for --quiet-load, seconds")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "serve-load.json"))
    args = parser.parse_args()

    loads_seen = wait_for_quiet(args.quiet_load, args.quiet_wait) if args.quiet_load is not None else []
    data = Path(tempfile.mkdtemp(prefix="lukfu-serve-load-"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "lukfu_cli", "serve", "--data", str(data), "--port", str(port)]
    cmd += ["--workers", str(args.workers), "--max-games", str(args.max_games)]
    load_before = os.getloadavg()
    server = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        token = url.split("token=", 1)[1]
        time.sleep(2.0)  # the workers start
        budget = {"left": args.max_requests, "lock": threading.Lock()}
        start = time.monotonic()
        clients = [Client(i, port, token, start + args.seconds, budget, 1000 + i) for i in range(args.clients)]
        memory: list[tuple[float, int]] = []
        floor: list[float] = []
        pinger = threading.Thread(target=ping, args=(port, token, start + args.seconds, floor), daemon=True)
        pinger.start()
        server_cpu0, client_cpu0 = cpu_seconds(server.pid), time.process_time()
        for c in clients:
            c.start()
        while any(c.is_alive() for c in clients):
            memory.append((round(time.monotonic() - start, 1), rss_kib(server.pid)))
            time.sleep(1.0)
        for c in clients:
            c.join()
        pinger.join()
        elapsed = time.monotonic() - start
        server_cpu, client_cpu = cpu_seconds(server.pid) - server_cpu0, time.process_time() - client_cpu0
        memory.append((round(elapsed, 1), rss_kib(server.pid)))
        load_after = os.getloadavg()
    finally:
        server.terminate()
        server.wait(30)

    plain = [ms for c in clients for ms in c.plain]
    engine = [ms for c in clients for ms in c.engine]
    by_kind: dict[str, list[float]] = {}
    for c in clients:
        for k, v in c.by_kind.items():
            by_kind.setdefault(k, []).extend(v)
    statuses: dict[int, int] = {}
    for c in clients:
        for k, v in c.statuses.items():
            statuses[k] = statuses.get(k, 0) + v
    made = [g for c in clients for g in c.games]
    finished = [g for c in clients for g in c.finished]
    lost = []
    for gid in made:
        path = data / "games" / f"{gid}.json"
        try:
            rec = GameRecord.load(path)
            rec.replay()
            if gid in finished and rec.outcome is None:
                lost.append(f"{gid}: finished but saved unfinished")
        except Exception as err:
            lost.append(f"{gid}: {err}")
    third = max(1, len(memory) // 3)
    middle = statistics.mean(m for _t, m in memory[third : 2 * third]) if len(memory) >= 3 else memory[-1][1]
    last = statistics.mean(m for _t, m in memory[2 * third :]) if len(memory) >= 3 else memory[-1][1]
    growth = (last - middle) / middle if middle else 0.0
    tail = memory[2 * third :] or memory[-1:]
    tail_growth = (tail[-1][1] - tail[0][1]) / tail[0][1] if tail[0][1] else 0.0
    result = {
        "what": "lukfu serve under load: clients play whole deals against two rule engines through the API on loopback",
        "clients": args.clients,
        "seconds": round(elapsed, 1),
        "workers": args.workers,
        "max_live_games": args.max_games,
        "http": http_implementation(),
        "machine": {
            "cores": os.cpu_count(),
            "load_before": [round(x, 2) for x in load_before],
            "load_after": [round(x, 2) for x in load_after],
            "loads_while_waiting_for_quiet": loads_seen,
        },
        "cpu_ms_a_request": {
            "what": "CPU of the server's own process (its event loop) and of the clients' process, over every request",
            "server": round(1000 * server_cpu / max(1, len(plain) + len(engine)), 3),
            "clients": round(1000 * client_cpu / max(1, len(plain) + len(engine)), 3),
        },
        "requests": {"plain": len(plain), "engine": len(engine), "statuses": {str(k): v for k, v in sorted(statuses.items())}},
        "plain_ms": {"p50": round(percentile(plain, 0.5), 2), "p95": round(percentile(plain, 0.95), 2), "p99": round(percentile(plain, 0.99), 2), "max": round(max(plain, default=0), 2)},
        "plain_ms_by_kind": {
            k: {"n": len(v), "p50": round(percentile(v, 0.5), 2), "p95": round(percentile(v, 0.95), 2)}
            for k, v in sorted(by_kind.items())
        },
        "floor_ms": {"what": "GET /api/info (the cheapest request) every 50 ms beside the clients: the machine's own delay", "p50": round(percentile(floor, 0.5), 2), "p95": round(percentile(floor, 0.95), 2)},
        "engine_ms": {"p50": round(percentile(engine, 0.5), 2), "p95": round(percentile(engine, 0.95), 2)},
        "games": {"made": len(made), "finished": len(finished), "lost": lost},
        "client_errors": [e for c in clients for e in c.errors][:20],
        "memory_kib": {
            "samples": memory[:: max(1, len(memory) // 30)],
            "middle_third_mean": round(middle),
            "last_third_mean": round(last),
            "growth_middle_to_last_third": round(growth, 4),
            "growth_within_last_third": round(tail_growth, 4),
        },
        "goals": {
            "no_5xx": not any(k >= 500 for k in statuses),
            "no_game_lost": not lost,
            "plain_p95_ms_at_most_50": percentile(plain, 0.95) <= GOAL_P95_MS,
            "memory_stops_growing (within 2% over the last third of the run)": tail_growth < 0.02,
        },
    }
    result = {"environment": environment(), **result}
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    shown = ("requests", "plain_ms", "plain_ms_by_kind", "floor_ms", "engine_ms", "cpu_ms_a_request", "games", "goals")
    print(json.dumps({k: result[k] for k in shown}, indent=1))
    print(f"memory: middle {middle / 1024:.0f} MiB, last {last / 1024:.0f} MiB ({growth:+.1%}; {tail_growth:+.1%} over the last third); load {load_before[0]:.2f} -> {load_after[0]:.2f} on {os.cpu_count()} cores")
    return 0 if all(result["goals"].values()) else 1


def http_implementation() -> str:
    """The HTTP parser uvicorn uses here: httptools when installed, else h11 (pure Python)."""
    try:
        import httptools  # noqa: F401
    except ImportError:
        return "h11"
    return "httptools"


if __name__ == "__main__":
    sys.exit(main())
