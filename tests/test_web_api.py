"""The table's API through the ASGI test client: the door (token, host, origin, body), a game
played through the API, refusals that change nothing, jobs, records kept and resumed, the live
games bounded, a killed worker survived, the page's messages from the catalogues."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from lukfu_solver.record import GameRecord
from lukfu_web.app import Config, create_app

PORT = 8799
TOKEN = "t0ken" * 8
BASE = f"http://127.0.0.1:{PORT}"
AUTH = {"X-Lukfu-Token": TOKEN}


def client(data: Path, **config: object) -> TestClient:
    """A test client of a fresh app on ``data`` (one worker: the machine is shared)."""
    options = {"workers": 1, **config}
    return TestClient(create_app(Config(data, TOKEN, PORT, **options)), base_url=BASE)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client(tmp_path_factory.mktemp("data")) as c:
        yield c


def new_game(api: TestClient, **body: object) -> dict:
    r = api.post("/api/games", json={"seed": 2, "seat": 0, **body}, headers=AUTH)
    assert r.status_code == 201, r.text
    return r.json()


def finish_job(api: TestClient, job: dict) -> dict:
    deadline = time.monotonic() + 120
    while job["state"] not in ("done", "failed", "cancelled"):
        assert time.monotonic() < deadline
        job = api.get(f"/api/jobs/{job['id']}?wait=5", headers=AUTH).json()
    return job


def engines(api: TestClient, game: dict) -> dict:
    """Let the engines move until it is the person's turn (or the end)."""
    while game["waiting_for_engine"]:
        r = api.post(f"/api/games/{game['id']}/engine?wait=10", headers=AUTH)
        assert r.status_code == (200 if r.json()["state"] == "done" else 202)
        job = finish_job(api, r.json())
        assert job["state"] == "done", job
        game = job["state_of_game"]
    return game


def one_line_error(r: object, status: int, field: str) -> str:
    assert r.status_code == status, r.text  # type: ignore[attr-defined]
    message = r.json()["error"]  # type: ignore[attr-defined]
    assert message.startswith(field + ":") and "\n" not in message
    return message


# ---------------------------------------------------------------- the door


def test_no_token_no_answer(api: TestClient) -> None:
    one_line_error(api.get("/api/info"), 401, "token")
    one_line_error(api.get("/api/info", headers={"X-Lukfu-Token": "nope"}), 403, "token")
    one_line_error(api.get("/?token=nope"), 403, "token")
    assert api.get("/api/info", headers=AUTH).status_code == 200
    assert api.get(f"/api/info?token={TOKEN}").status_code == 200


def test_the_page_holds_no_token_and_no_cookie_is_set_or_read(api: TestClient) -> None:
    """The page and its files are served without the token and carry none; the page takes the
    token from its address into the tab's sessionStorage. No answer sets a cookie, and a cookie
    holding the token opens nothing (cookies reach every port of the host)."""
    for path in ("/", f"/?token={TOKEN}", "/static/css/base.css", "/static/js/api.js"):
        r = api.get(path)
        assert r.status_code == 200, path
        assert TOKEN not in r.text and "set-cookie" not in r.headers, path
    r = api.get(f"/?token={TOKEN}")
    assert "<script type=\"module\"" in r.text and "default-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["referrer-policy"] == "no-referrer"
    assert "sessionStorage" in api.get("/static/js/api.js").text
    one_line_error(api.get("/api/info", headers={"Cookie": f"lukfu_token_{PORT}={TOKEN}"}), 401, "token")


def test_another_host_or_origin_is_refused(api: TestClient) -> None:
    one_line_error(api.get("/api/info", headers={**AUTH, "Host": f"evil.example:{PORT}"}), 403, "host")
    one_line_error(api.get("/api/info", headers={**AUTH, "Host": "127.0.0.1:9"}), 403, "host")
    one_line_error(api.get("/api/info", headers={**AUTH, "Origin": "http://evil.example"}), 403, "origin")
    one_line_error(api.get("/api/info", headers={**AUTH, "Sec-Fetch-Site": "cross-site"}), 403, "origin")
    ok = api.get("/api/info", headers={**AUTH, "Origin": BASE, "Host": f"localhost:{PORT}"})
    assert ok.status_code == 403  # the Origin must be the Host's own
    assert api.get("/api/info", headers={**AUTH, "Origin": BASE}).status_code == 200


def test_bodies_are_capped_and_must_be_json(api: TestClient) -> None:
    big = b'{"seed": 1, "pad": "' + b"x" * (2 << 20) + b'"}'
    one_line_error(api.post("/api/games", content=big, headers={**AUTH, "Content-Type": "application/json"}), 413, "body")
    one_line_error(api.post("/api/games", content=b"seed=1", headers={**AUTH, "Content-Type": "text/plain"}), 415, "body")
    one_line_error(api.post("/api/games", content=b"{bad", headers={**AUTH, "Content-Type": "application/json"}), 400, "body")
    deep = b"[" * 100 + b"]" * 100
    one_line_error(api.post("/api/games", content=deep, headers={**AUTH, "Content-Type": "application/json"}), 400, "body")
    one_line_error(api.post("/api/games", json={"seed": -1}, headers=AUTH), 400, "seed")
    one_line_error(api.post("/api/games", json={"seed": 1, "level": 9}, headers=AUTH), 400, "level")
    one_line_error(api.post("/api/games", json={"opponents": ["stockfish"]}, headers=AUTH), 400, "opponents")
    one_line_error(api.post("/api/games", json={"sneaky": 1}, headers=AUTH), 400, "body")


# ---------------------------------------------------------------- a game


def test_a_game_through_the_api(api: TestClient, tmp_path: Path) -> None:
    g = new_game(api)
    gid = g["id"]
    assert g["phase"] == "call" and g["choices"] == ["play", "pass"] and g["hand"] == "C135S79M359T2459"
    g = api.post(f"/api/games/{gid}/move", json={"move": "play"}, headers=AUTH).json()
    before = api.get(f"/api/games/{gid}", headers=AUTH).json()
    message = one_line_error(api.post(f"/api/games/{gid}/move", json={"move": "C2"}, headers=AUTH), 400, "move")
    assert "C2" in message
    one_line_error(api.post(f"/api/games/{gid}/move", json={"move": ""}, headers=AUTH), 400, "move")
    one_line_error(api.post(f"/api/games/{gid}/engine", headers=AUTH), 409, "engine")
    assert api.get(f"/api/games/{gid}", headers=AUTH).json() == before  # refusals change nothing
    # a hint in play: every weighed move with points, ± and the chance the caller loses
    job = finish_job(api, api.post(f"/api/games/{gid}/hint", headers=AUTH).json())
    assert job["state"] == "done" and job["answers"] == g["answers"]
    hint = job["result"]
    assert hint["kind"] == "play" and hint["best"] in g["choices"]
    assert {"move", "points", "stderr", "caller_loses"} <= set(hint["moves"][0])
    from lukfu_solver.analysis.hint import SHOWN

    # the best few, as lukfu play shows them, and one line on the rest
    assert len(hint["moves"]) == min(SHOWN, hint["weighed"]) and hint["moves"][0]["move"] == hint["best"]
    assert (hint["untold"] is None) == (hint["weighed"] <= SHOWN and len(g["choices"]) == hint["weighed"])
    g = api.post(f"/api/games/{gid}/move", json={"move": "c1"}, headers=AUTH).json()  # any case, canonical
    assert g["tricks"][0]["plays"][0]["play"] == "C1" and g["waiting_for_engine"]
    g = engines(api, g)
    assert any(p["play"] == "x1" for p in g["tricks"][0]["plays"])  # others' discards hidden
    undone = api.post(f"/api/games/{gid}/undo", headers=AUTH).json()
    assert undone["answers"] == 1 and undone["tricks"] == []
    while undone["phase"] != "over":
        if undone["waiting_for_engine"]:
            undone = engines(api, undone)
            continue
        move = "claim" if "claim" in undone["choices"] else undone["choices"][0]
        undone = api.post(f"/api/games/{gid}/move", json={"move": move}, headers=AUTH).json()
    assert undone["hands"] is not None and sum(undone["outcome"]["points"]) == 0
    one_line_error(api.post(f"/api/games/{gid}/undo", headers=AUTH), 409, "undo")
    r = api.get(f"/api/games/{gid}/record", headers=AUTH)
    assert "attachment" in r.headers["content-disposition"]
    rec = GameRecord.loads(r.text)
    assert rec.outcome is not None and rec.replay() and rec.players is not None and "you" in rec.players
    (tmp_path / "game.json").write_text(r.text, encoding="utf-8")
    from typer.testing import CliRunner

    from lukfu_cli.app import app  # the record is the command line's too

    assert CliRunner().invoke(app, ["replay", str(tmp_path / "game.json")]).exit_code == 0
    listed = api.get("/api/games", headers=AUTH).json()["games"]
    assert any(x["id"] == gid and x["finished"] for x in listed)


def play_out(api: TestClient, g: dict) -> dict:
    """Play the game to its end: the person takes the first legal choice (claims when it may)."""
    while g["phase"] != "over":
        if g["waiting_for_engine"]:
            g = engines(api, g)
            continue
        move = "claim" if "claim" in g["choices"] else g["choices"][0]
        g = api.post(f"/api/games/{g['id']}/move", json={"move": move}, headers=AUTH).json()
    return g


@pytest.mark.slow
def test_the_review_of_a_finished_deal_is_lukfu_review_s(api: TestClient) -> None:
    """The review job runs the library's review of the person's seat with the options given (as
    ``lukfu review --seat S --samples N --max-nodes M``): the same decisions and numbers, the
    graph from the seat's view and exact, progress while it runs; refused before the end and
    with a bad option, in one line."""
    from lukfu_solver.analysis.review_work import ReviewSettings, review_record

    g = new_game(api, seed=2, seat=0)
    gid = g["id"]
    g = api.post(f"/api/games/{gid}/move", json={"move": "play"}, headers=AUTH).json()
    one_line_error(api.post(f"/api/games/{gid}/review", json={}, headers=AUTH), 409, "review")
    g = play_out(api, g)
    one_line_error(api.post(f"/api/games/{gid}/review", json={"samples": 0}, headers=AUTH), 400, "samples")
    one_line_error(api.post(f"/api/games/{gid}/review", json={"depth": 3}, headers=AUTH), 400, "body")
    options = {"samples": 2, "max_nodes": 2000}
    job = api.post(f"/api/games/{gid}/review", json=options, headers=AUTH).json()
    assert job["kind"] == "review"
    seen = []
    while job["state"] not in ("done", "failed", "cancelled"):
        job = api.get(f"/api/jobs/{job['id']}?wait=0.2", headers=AUTH).json()
        seen.append(job["progress"])
    assert job["state"] == "done", job
    assert any(p and 0 < p["done"] <= p["total"] for p in seen)  # progress told while it ran
    screen = job["result"]
    record = GameRecord.loads(api.get(f"/api/games/{gid}/record", headers=AUTH).text)
    want = review_record(record, ReviewSettings(samples=2, max_nodes=2000, seats=(g["seat"],))).to_json()
    mine = [d for d in want["decisions"] if d["seat"] == g["seat"]]
    assert [(d["index"], d["played"], d["loss"], d["verdict"], d["cost"]) for d in screen["decisions"]] == [
        (d["index"], d["played"], d["loss"], d["verdict"], d["cost"]) for d in mine
    ]
    assert screen["decisions"][0]["call"] and screen["decisions"][0]["played"] == "play"
    points = want["summary"]["chart"]["points"]
    assert [(p["view"], p["exact"]) for p in screen["graph"]] == [(p["seat_view"], p["exact"]) for p in points]
    assert any(p["exact"] is not None for p in screen["graph"]) and any(p["view"] is not None for p in screen["graph"])
    assert screen["command"] == f"lukfu review RECORD.json --seat {g['seat']} --samples 2 --max-nodes 2000"
    # made once: asked again (in memory, or after a restart from the data folder) it is done at once
    again = api.post(f"/api/games/{gid}/review", json=options, headers=AUTH)
    assert again.status_code == 200 and again.json()["state"] == "done" and again.json()["result"] == screen
    table = api.app.app.state.table  # type: ignore[attr-defined]
    table.store.live.clear()
    again = api.post(f"/api/games/{gid}/review", json=options, headers=AUTH)
    assert again.status_code == 200 and again.json()["result"] == screen


@pytest.mark.slow
def test_the_call_hint_is_the_advice_with_its_chart(api: TestClient) -> None:
    g = new_game(api, seed=7, level=1)
    job = api.post(f"/api/games/{g['id']}/hint", headers=AUTH).json()
    assert job["kind"] == "hint"
    job = finish_job(api, job)
    advice = job["result"]
    assert advice["kind"] == "call" and advice["recommendation"] in ("play", "pass")
    assert sum(advice["outcomes"].values()) == advice["samples"] and advice["command"].startswith("lukfu advise")
    assert len(advice["said"]["reasons"]) == len(advice["reasons"]) and advice["limits"]["max_nodes"] > 0


def test_a_hint_can_be_cancelled(api: TestClient) -> None:
    g = new_game(api, seed=7, level=5)
    job = api.post(f"/api/games/{g['id']}/hint", headers=AUTH).json()
    cancelled = api.delete(f"/api/jobs/{job['id']}", headers=AUTH).json()
    assert cancelled["state"] == "cancelled"
    assert api.get(f"/api/jobs/{job['id']}", headers=AUTH).json()["state"] == "cancelled"
    one_line_error(api.get("/api/jobs/0123456789abcdef", headers=AUTH), 404, "job")


def test_unknown_games_and_bad_ids(api: TestClient) -> None:
    one_line_error(api.get("/api/games/0123456789abcdef", headers=AUTH), 404, "game")
    one_line_error(api.get("/api/games/..%2f..%2fetc", headers=AUTH), 404, "path")
    one_line_error(api.post("/api/games/zz/move", json={"move": "S7"}, headers=AUTH), 404, "game")


def test_messages_in_the_reader_s_language(api: TestClient) -> None:
    g = new_game(api)
    api.post(f"/api/games/{g['id']}/move", json={"move": "play"}, headers=AUTH)
    r = api.post(f"/api/games/{g['id']}/move", json={"move": "C2"}, headers={**AUTH, "X-Lukfu-Lang": "ru"})
    assert r.status_code == 400 and any("\u0400" <= ch <= "\u04ff" for ch in r.json()["error"])
    ru = api.get("/api/i18n/ru", headers=AUTH).json()
    assert ru["messages"]["Coins"] == "Монеты" and ru["plural"][1] == 0 and ru["plural"][3] == 1 and ru["plural"][5] == 2
    assert len(ru["plural"]) == 200 and ru["messages"]["{n} fu"] == ["{n} фу"] * 3
    one_line_error(api.get("/api/i18n/xx", headers=AUTH), 400, "lang")


def test_replay_lays_a_record_out_and_names_its_fault(api: TestClient) -> None:
    text = (Path(__file__).resolve().parent.parent / "examples" / "deal-175.json").read_text(encoding="utf-8")
    data = api.post("/api/replay", json={"record": json.loads(text)}, headers=AUTH).json()
    rec = GameRecord.loads(text)
    assert len(data["steps"]) == len(rec.plays) + 1 and data["steps"][-1]["outcome"]["points"] == list(rec.outcome.points)
    # each step's trick as the game state has it: the record's leader, best play and winner
    for i, t in enumerate(rec.tricks()):
        done = data["steps"][3 * i + 3]
        assert done["trick"]["winner"] == t.winner and done["trick"]["fu_won"] == t.fu_won
        assert done["trick"]["plays"][done["trick"]["best"]]["seat"] == t.winner
        assert [p["play"] for p in done["trick"]["plays"]] == [str(p) for p in t.plays]
        assert data["steps"][3 * i + 1]["trick"]["winner"] is None and data["steps"][3 * i + 1]["move"]["role"] == "lead"
    last = data["steps"][-1]["move"]
    if last["shape"] == "claim":
        assert last["total"] == rec.outcome.total and last["role"] == "claim"
    bad = json.loads(text)
    bad["plays"][1] = "T1"
    one_line_error(api.post("/api/replay", json={"record": bad}, headers=AUTH), 400, "plays")


# ---------------------------------------------------------------- nothing lost


def test_games_survive_a_restart_and_live_games_are_bounded(tmp_path: Path) -> None:
    with client(tmp_path, max_live=2) as c:
        ids = []
        for seed in (2, 3, 4):
            g = c.post("/api/games", json={"seed": seed, "seat": 0}, headers=AUTH).json()
            c.post(f"/api/games/{g['id']}/move", json={"move": "play"}, headers=AUTH)
            ids.append(g["id"])
        table = c.app.app.state.table  # type: ignore[attr-defined]
        assert len(table.store.live) == 2 and table.store.unloaded >= 1
        first = c.get(f"/api/games/{ids[0]}", headers=AUTH).json()  # loaded again from its record
        assert first["phase"] == "play" and first["answers"] == 1
    with client(tmp_path) as c:  # a new server on the same folder
        again = c.get(f"/api/games/{ids[0]}", headers=AUTH).json()
        assert again == first
        assert {g["id"] for g in c.get("/api/games", headers=AUTH).json()["games"]} == set(ids)


def test_the_store_unloads_finished_games_first_and_loads_a_game_once(tmp_path: Path) -> None:
    """Past the bound the finished games leave memory before an unfinished one; two requests for
    an unloaded game at once get the one live game (a record read twice would make two)."""
    import asyncio

    from lukfu_solver.session import GameSession
    from lukfu_web.store import GameStore

    async def run() -> None:
        store = GameStore(tmp_path, max_live=2)
        playing = await store.create(GameSession.new(2, 0))
        over = GameSession.new(3, 0)
        while over.phase != "over":  # every seat passes or plays its first choice, the engines too
            if over.waiting_for_engine:
                from lukfu_solver.session import engine_answer

                over.apply_engine(over.engine_task(), engine_answer(over.engine_task()))
            else:
                over.apply("claim" if "claim" in over.choices() else over.choices()[0])
        finished = await store.create(over)  # the more recent one: least recently used is `playing`
        await store.create(GameSession.new(4, 0))
        assert playing.id in store.live and finished.id not in store.live
        store.live.clear()
        a, b = await asyncio.gather(store.get(finished.id), store.get(finished.id))
        assert a is b and a.session.phase == "over" and a.session.record == over.record

    asyncio.run(run())


@pytest.mark.slow
def test_a_killed_engine_worker_is_replaced_and_the_move_made(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        g = c.post("/api/games", json={"seed": 7, "seat": 2, "opponents": ["pimc"], "level": 4}, headers=AUTH).json()
        assert g["waiting_for_engine"]
        job = c.post(f"/api/games/{g['id']}/engine", headers=AUTH).json()
        table = c.app.app.state.table  # type: ignore[attr-defined]
        deadline = time.monotonic() + 60
        while not table.pool.running() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
        for pid in table.pool.pids():
            os.kill(pid, signal.SIGKILL)
        job = finish_job(c, job)
        assert job["state"] == "done", job
        assert table.jobs.lost_workers >= 1
        assert job["state_of_game"]["answers"] == 1


# ---------------------------------------------------------------- small parts


def test_the_data_folder_follows_the_xdg_rule() -> None:
    from lukfu_web.store import default_data_dir

    if sys.platform.startswith("linux"):
        assert default_data_dir({"XDG_DATA_HOME": "/data"}) == Path("/data/lukfu")
        assert default_data_dir({"XDG_DATA_HOME": "relative"}) == Path.home() / ".local" / "share" / "lukfu"


def test_host_headers_are_read_with_their_port() -> None:
    from lukfu_web.guard import split_host

    assert split_host("127.0.0.1:8000") == ("127.0.0.1", 8000)
    assert split_host("[::1]:9") == ("::1", 9)
    assert split_host("localhost") == ("localhost", None)
    assert split_host("evil.example:80:80") is None  # no host and port: a 400
    assert split_host("127.0.0.1:\xb2") is None and split_host("127.0.0.1:99999999") is None


def test_the_review_s_json_becomes_the_screen_s() -> None:
    """The table draws the library review's ``to_json()`` (the schema of docs/review.md) through one adapter."""
    from lukfu_web.review import table_review

    review = {
        "decisions": [
            {"call": True, "index": None, "seat": 1, "played": "pass", "best": "play", "loss": 1.5,
             "loss_stderr": 0.4, "verdict": "inaccuracy", "luck": None},
            {"call": False, "index": 4, "seat": 1, "played": "S7", "best": "S9", "loss": 4.2, "loss_stderr": 0.5,
             "verdict": "blunder", "luck": None, "exact_before": 2.0, "exact_after": -2.0, "cost": 2.0,
             "better": {"move": "S9", "line": ["S9", "T1"]}},
            {"call": False, "index": 5, "seat": 2, "played": "T1", "best": "T1", "loss": 0.0, "loss_stderr": 0.0},
        ],
        "summary": {"seats": [{"seat": 1}], "chart": {"seat": 1, "points": [
            {"label": "start", "trick": 0, "exact": 2.0, "seat_view": None},
            {"label": "trick", "trick": 1, "exact": -2.0, "seat_view": -1.25}]}},
        "record": {"caller": 0},
    }
    screen = table_review(review, 1)
    assert [d["index"] for d in screen["decisions"]] == [None, 4]
    assert screen["decisions"][1]["verdict"] == "blunder" and screen["decisions"][1]["error"] == 0.5
    assert screen["decisions"][0]["call"] and screen["decisions"][1]["better"]["move"] == "S9"
    # the graph in the reviewed seat's own points: a non-caller's share is minus half the caller's
    assert screen["graph"] == [
        {"label": "start", "trick": 0, "view": None, "exact": -1.0},
        {"label": "trick", "trick": 1, "view": 0.625, "exact": 1.0},
    ]
    review["record"]["caller"] = 1  # the caller's own points are the caller's result
    assert [p["exact"] for p in table_review(review, 1)["graph"]] == [2.0, -2.0]


def test_a_better_line_is_laid_out_trick_by_trick_as_the_rules_play_it() -> None:
    """From any position of a record, the rest of its plays laid out by trick give the record's
    own tricks (leader, plays, best, winner, fu won, R8-R10) and its claim's total (R16)."""
    from lukfu_web.review import line_tricks

    rec = GameRecord.loads((Path(__file__).resolve().parent.parent / "examples" / "match-deal.json").read_text())
    positions, tricks = rec.replay(), rec.tricks()
    assert rec.plays[-1].kind == 4  # the deal ends in a claim
    for start in (3, 4, 5):  # at a lead, after it, after two plays
        laid = line_tricks(str(positions[start]), [str(p) for p in rec.plays[start:]], start // 3 + 1)
        assert laid["before"] == start % 3
        for t, r in zip(laid["tricks"], tricks[start // 3 :], strict=True):
            assert (t["leader"], t["winner"], t["fu_won"]) == (r.leader, r.winner, r.fu_won)
            assert [p["play"] for p in t["plays"]] == [str(p) for p in r.plays]
            assert t["plays"][t["best"]]["seat"] == r.winner
        assert [t["number"] for t in laid["tricks"]] == list(range(start // 3 + 1, len(tricks) + 1))
        assert laid["claim"]["total"] == rec.outcome.total and laid["claim"]["seat"] == rec.outcome.winner
    open_line = line_tricks(str(positions[3]), [str(p) for p in rec.plays[3:5]], 2)
    assert open_line["tricks"][-1]["winner"] is None and open_line["claim"] is None


def test_serve_refuses_bad_options_in_one_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from lukfu_cli.app import app

    for args, field in ((["--port", "0"], "port"), (["--workers", "99"], "workers"), (["--data", str(tmp_path / "a" / "b" / "\0")], "data")):
        result = CliRunner().invoke(app, ["serve", *args])
        assert result.exit_code == 2, result.output
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith(f"error: {field}:"), result.output
