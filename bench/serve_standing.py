"""Your record and the lists on a folder of 10,000 records: how long ``lukfu serve`` takes to answer
``GET /api/standing`` (every finished deal's points against each strength), the games' and the
sessions' lists and a session's summary, beside the cheapest request (``GET /api/info``) in the
same run.

The folder holds ``--records`` finished records (copies of ``--distinct`` deals played to their
end here, seeds 1, 2 …, under ids of their own) and ``--sessions`` sessions of ten of them. The
server is the table's app in its own process, as ``lukfu serve`` starts it. Timed: the first
``/api/standing`` on a folder never indexed (every record read and replayed once), the same again
(``--repeat`` times: nothing changed), after a restart (the folder's index read, no record), and
after one record is added (that record alone read); the first page of ``/api/games`` (200),
``/api/sessions?limit=8`` (the record page's last sessions), ``/api/sessions?finished=false&limit=1``
(what a tab opened without a game asks) and one session's summary.

    python -m bench.serve_standing [--records 10000] [--distinct 100] [--sessions 100] [--out bench/results/serve-standing.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import RESULTS_DIR, ratio, save_json, summary
from bench.serve_priority import Api, finished_record


def keep(path: Path, text: str) -> None:
    """A file of the folder as the server keeps it: readable by its owner alone."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


def make_folder(data: Path, records: int, distinct: int, sessions: int) -> list[str]:
    """The data folder: the records and the sessions; the sessions' ids."""
    folder = data / "games"
    folder.mkdir(parents=True, mode=0o700)
    deals = [json.dumps(finished_record(seed)) + "\n" for seed in range(1, distinct + 1)]
    ids = [f"{i:016x}" for i in range(1, records + 1)]
    for i, gid in enumerate(ids):
        keep(folder / f"{gid}.json", deals[i % distinct])
    names = json.loads(deals[0])["players"]
    made = []
    for k in range(sessions):
        sid = f"{0x5E55 << 48 | k:016x}"
        games = ids[10 * k : 10 * k + 10]
        session = {"format": "lukfu-session/1", "seed": 1, "deals": 10, "level": 3, "names": names, "games": games, "created": 0}
        keep(folder / f"{sid}.session.json", json.dumps(session) + "\n")
        made.append(sid)
    return made


def timed(api: Api, path: str, repeat: int) -> tuple[list[float], Any]:
    """``repeat`` requests of ``path`` (ms each) and the last answer."""
    times, body = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        status, body = api.call("GET", path)
        times.append(1000 * (time.perf_counter() - t0))
        assert status == 200, body
    return times, body


class Server:
    """The table's server on ``data`` in its own process."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Api:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        cmd = [sys.executable, "-m", "bench.serve_priority", "--serve", str(self.data), str(port), "1"]
        self.proc = subprocess.Popen(cmd, cwd=Path(__file__).resolve().parent.parent)
        deadline = time.monotonic() + 120
        while True:
            try:
                api = Api(port, "bench")
                if api.call("GET", "/api/info")[0] == 200:
                    return api
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.3)

    def stop(self) -> None:
        assert self.proc is not None
        self.proc.terminate()
        self.proc.wait(60)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=10_000, help="finished records in the folder")
    parser.add_argument("--distinct", type=int, default=100, help="distinct deals among them")
    parser.add_argument("--sessions", type=int, default=100, help="sessions of ten deals")
    parser.add_argument("--repeat", type=int, default=40, help="requests timed a kind")
    parser.add_argument("--out", default=str(RESULTS_DIR / "serve-standing.json"))
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="lukfu-serve-standing-"))
    load_before = os.getloadavg()
    sessions = make_folder(data, args.records, args.distinct, args.sessions)
    server = Server(data)
    out: dict[str, Any] = {}
    try:
        api = server.start()
        time.sleep(3.0)  # the workers start (they take no part here)
        t0 = time.perf_counter()
        status, first = api.call("GET", "/api/standing")
        out["standing_first_s"] = round(time.perf_counter() - t0, 3)
        assert status == 200 and first["deals"] == args.records, first
        out["standing_ms"] = summary(timed(api, "/api/standing", args.repeat)[0], 2)
        out["info_ms"] = summary(timed(api, "/api/info", args.repeat)[0], 2)
        out["games_page_ms"] = summary(timed(api, "/api/games?limit=200", args.repeat)[0], 2)
        out["sessions_page_ms"] = summary(timed(api, "/api/sessions?limit=8", args.repeat)[0], 2)
        out["resume_sessions_ms"] = summary(timed(api, "/api/sessions?finished=false&limit=1", args.repeat)[0], 2)
        out["session_ms"] = summary(timed(api, f"/api/sessions/{sessions[0]}", args.repeat)[0], 2)
        server.stop()
        api = server.start()
        time.sleep(3.0)
        t0 = time.perf_counter()
        status, again = api.call("GET", "/api/standing")
        out["standing_after_restart_s"] = round(time.perf_counter() - t0, 3)
        assert again == first, "the index gave another record"
        out["standing_after_restart_ms"] = summary(timed(api, "/api/standing", args.repeat)[0], 2)
        shutil.copy(data / "games" / f"{1:016x}.json", data / "games" / f"{args.records + 1:016x}.json")
        t0 = time.perf_counter()
        status, grown = api.call("GET", "/api/standing")
        out["standing_one_new_record_ms"] = round(1000 * (time.perf_counter() - t0), 2)
        assert grown["deals"] == args.records + 1
        out["index_bytes"] = (data / "games" / "index.json").stat().st_size
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.stop()
        shutil.rmtree(data, ignore_errors=True)
    load_after = os.getloadavg()
    out["standing_p95_over_info_p95"] = ratio(out["standing_ms"]["p95"], out["info_ms"]["p95"])
    result = {
        "what": "GET /api/standing, the lists and a session's summary on a folder of finished records, "
        "beside GET /api/info in the same run; the first standing reads every record, later ones none",
        "records": args.records,
        "distinct_deals": args.distinct,
        "sessions": args.sessions,
        "machine_load": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in load_after]},
        **out,
    }
    path = save_json(result, Path(args.out))
    print(json.dumps(result, indent=1))
    print(f"saved {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
