"""Engine moves while reviews run: the latency of a player's engine move on ``lukfu serve``, idle
and while two long reviews hold the workers, with the worker kept for engine moves and hints and
(the comparison, in the same run) without it.

The server is the table's app on two workers, started in its own process as ``lukfu serve``
starts it (the same app, protocol and pool; ``--reserved 0`` is the only difference of the
comparison). Two finished deals are resumed from their records and reviewed with
``{"samples": 10000, "max_nodes": 0, "time": 600}`` (what once kept an engine move waiting over
50 s). An engine move is timed from its request to the answer with the move made
(``POST /api/games/ID/engine?wait=20``, then long polls), through whole deals (the person
calls to play and plays its first legal move): ``easy`` (the rule player) and ``medium`` (PIMC
at level 3). A move not made within
``--give-up`` seconds is counted as given up.

    python -m bench.serve_priority [--moves 60] [--medium 20] [--out bench/results/serve-priority.json]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import RESULTS_DIR, ratio, save_json, summary

LONG_REVIEW = {"samples": 10_000, "max_nodes": 0, "time": 600}
TOKEN = "b" * 48


def serve(data: str, port: int, reserved: int) -> None:
    """Run the table's server in this process (the bench's server process)."""
    import uvicorn

    from lukfu_web.app import Config, create_app
    from lukfu_web.connections import protocol

    app = create_app(Config(Path(data), TOKEN, port, workers=2, reserved=reserved))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", access_log=False, http=protocol())


class Api:
    """A keep-alive client of the server."""

    def __init__(self, port: int, client: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.headers = {"X-Lukfu-Token": TOKEN, "Content-Type": "application/json", "X-Lukfu-Client": client}

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        self.conn.request(method, path, body=None if body is None else json.dumps(body), headers=self.headers)
        r = self.conn.getresponse()
        raw = r.read()
        return r.status, json.loads(raw) if raw else None


def finished_record(seed: int) -> dict[str, Any]:
    """A deal played to its end in this process (the person takes the first choice)."""
    from lukfu_solver.session import GameSession, engine_answer

    s = GameSession.new(seed, 0, ["rule"])
    while s.phase != "over":
        if s.waiting_for_engine:
            s.apply_engine(s.engine_task(), engine_answer(s.engine_task()))
        else:
            s.apply("claim" if "claim" in s.choices() else s.choices()[0])
    return s.record.to_json()


def engine_moves(api: Api, opponents: str, count: int, seed: int, give_up: float) -> tuple[list[float], int]:
    """``count`` engine moves timed (ms) through whole deals (the person calls to play and then
    plays its first legal move, never claiming, so the engines' plays are most of the moves);
    and how many were given up (not made within ``give_up`` seconds: then the rest are not tried)."""
    times: list[float] = []
    while len(times) < count:
        status, g = api.call("POST", "/api/games", {"seed": seed, "seat": 2, "opponents": [opponents], "level": 3})
        assert status == 201, g
        seed += 1
        while g["phase"] != "over" and len(times) < count:
            if not g["waiting_for_engine"]:
                choices = [c for c in g["choices"] if c != "claim"] or g["choices"]
                move = "play" if "play" in choices else choices[0]
                status, g = api.call("POST", f"/api/games/{g['id']}/move", {"move": move})
                assert status == 200, g
                continue
            t0 = time.perf_counter()
            status, job = api.call("POST", f"/api/games/{g['id']}/engine?wait=20")
            while status < 400 and job["state"] in ("queued", "running"):
                if time.perf_counter() - t0 > give_up:
                    api.call("DELETE", f"/api/jobs/{job['id']}")
                    return times, 1
                status, job = api.call("GET", f"/api/jobs/{job['id']}?wait=5")
            assert status < 400 and job["state"] == "done", job
            times.append(1000 * (time.perf_counter() - t0))
            g = job["state_of_game"]
    return times, 0


def run_variant(reserved: int, args: argparse.Namespace) -> dict[str, Any]:
    """One server: idle moves (with the kept worker only), then moves while two reviews run."""
    data = tempfile.mkdtemp(prefix="lukfu-serve-priority-")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "bench.serve_priority", "--serve", data, str(port), str(reserved)]
    proc = subprocess.Popen(cmd, cwd=Path(__file__).resolve().parent.parent)
    out: dict[str, Any] = {"reserved_workers": reserved}
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                api = Api(port, "bench")
                if api.call("GET", "/api/info")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.5)
        time.sleep(3.0)  # the workers start and load the solver
        for kind in ("easy", "medium"):  # and answer their first moves (not timed)
            engine_moves(api, kind, 4, 900, args.give_up)
        if reserved:
            for kind, n in (("easy", args.moves), ("medium", args.medium)):
                times, _given_up = engine_moves(api, kind, n, 1000, args.give_up)
                out[f"idle_{kind}_ms"] = summary(times, 1)
        games = [api.call("POST", "/api/games", {"record": finished_record(seed)})[1]["id"] for seed in (2, 3)]
        reviews = [Api(port, f"reviewer{i}").call("POST", f"/api/games/{g}/review", LONG_REVIEW)[1] for i, g in enumerate(games)]
        deadline = time.monotonic() + 60
        while not any(api.call("GET", f"/api/jobs/{r['id']}")[1]["state"] == "running" for r in reviews):
            assert time.monotonic() < deadline
            time.sleep(0.2)
        time.sleep(1.0)
        out["review_states"] = [api.call("GET", f"/api/jobs/{r['id']}")[1]["state"] for r in reviews]
        for kind, n in (("easy", args.moves), ("medium", args.medium)):
            times, given_up = engine_moves(api, kind, n if reserved else 3, 5000, args.give_up)
            out[f"two_reviews_{kind}_ms"] = {**summary(times, 1), "given_up": given_up}
            if given_up:
                break
        out["review_states_after"] = [api.call("GET", f"/api/jobs/{r['id']}")[1]["state"] for r in reviews]
        for r in reviews:
            api.call("DELETE", f"/api/jobs/{r['id']}")
    finally:
        proc.terminate()
        proc.wait(60)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=60, help="easy engine moves timed a phase")
    parser.add_argument("--medium", type=int, default=20, help="medium engine moves timed a phase")
    parser.add_argument("--give-up", type=float, default=30.0, help="seconds after which a move is given up")
    parser.add_argument("--serve", nargs=3, metavar=("DATA", "PORT", "RESERVED"), help=argparse.SUPPRESS)
    parser.add_argument("--out", default=str(RESULTS_DIR / "serve-priority.json"))
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]), int(args.serve[2]))
        return 0
    load_before = os.getloadavg()
    kept = run_variant(1, args)
    plain = run_variant(0, args)
    load_after = os.getloadavg()
    result = {
        "what": "an engine move's latency on lukfu serve (2 workers), idle and while two long reviews run, "
        "with one worker kept for engine moves and hints and without",
        "review": LONG_REVIEW,
        "machine_load": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in load_after]},
        "kept_worker": kept,
        "no_kept_worker": plain,
        "p95_two_reviews_over_idle": {
            kind: ratio(kept[f"two_reviews_{kind}_ms"]["p95"], kept[f"idle_{kind}_ms"]["p95"], 2) for kind in ("easy", "medium")
        },
    }
    save_json(result, Path(args.out))
    print(json.dumps({k: result[k] for k in ("kept_worker", "no_kept_worker", "p95_two_reviews_over_idle")}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
