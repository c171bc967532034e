"""A hostile client at the table's door, through the ASGI app (no sockets; tests/test_web_sockets.py
has those): no credential anywhere a neighbour could read it, every bad request a 4xx with one
line (never a 500), refusals by their class, the data folder unable to break the server, the
request limits of docs/limits.md, and a browser's refusals as pages in its language."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bench.serve_priority import finished_record
from lukfu_solver.inputs import MAX_BODY_BYTES, MAX_NODES, MAX_PAGE, MAX_SAMPLES, MAX_SECONDS
from lukfu_solver.record import GameRecord
from lukfu_web.app import Config, create_app

PORT = 8798
TOKEN = "5ecret" * 8
BASE = f"http://127.0.0.1:{PORT}"
AUTH = {"X-Lukfu-Token": TOKEN}
BAD_ENGINES = (
    "pimc:x", "pimc:", "ipimc:", "pimc: 3", "pimc:1e3", "pimc:9", "ipimc:0", "rule:abc", "ipimc:3:zz", "stockfish", "pimc:3:nan"
)
"""Engine names in a record that no engine answers to (a colon with no level after it included)."""


def app_on(data: Path, **config: Any) -> Any:
    """The guarded app on ``data`` without its worker pool (these requests need no engine)."""
    return create_app(Config(data, TOKEN, PORT, **config), start_pool=False)


@pytest.fixture()
def api(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(app_on(tmp_path), base_url=BASE) as c:
        yield c


def raw_request(app: Any, headers: list[tuple[bytes, bytes]], method: str = "GET", path: str = "/api/info",
                body: bytes = b"", query: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    """One request with headers exactly as given (bytes a client library would refuse to send)."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": query, "headers": headers, "root_path": "",
        "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", PORT),
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    out = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}, out


def refusal(r: Any, status: int, field: str) -> str:
    """The one-line refusal of ``r`` (status and field checked)."""
    assert r.status_code == status, r.text
    message = r.json()["error"]
    assert message.startswith(field + ":") and "\n" not in message, message
    return message


# ---------------------------------------------------------------- no credential a neighbour can read


def test_no_cookie_is_set_read_or_needed(api: TestClient) -> None:
    """Cookies reach every port of 127.0.0.1, so none grants anything: the page is served without
    the token and holds none; a cookie with the token opens no API call."""
    for path in ("/", f"/?token={TOKEN}", "/static/js/api.js", "/static/css/notice.css", "/static/favicon.svg"):
        r = api.get(path)
        assert r.status_code == 200 and "set-cookie" not in r.headers and TOKEN not in r.text, path
    for cookie in (f"lukfu_token_{PORT}={TOKEN}", f"token={TOKEN}", f"lukfu_token={TOKEN}"):
        refusal(api.get("/api/games", headers={"Cookie": cookie}), 401, "token")
    refusal(api.get("/?token=wrong"), 403, "token")
    assert api.get("/api/games", headers=AUTH).status_code == 200


# ---------------------------------------------------------------- the door


@pytest.mark.parametrize("host", [
    b"127.0.0.1:\xb2", b"127.0.0.1:", b":8798", b"[::1", b"127.0.0.1:8798:1", b"", b"a" * 300 + b":8798",
    b"127.0.0.1:0x1f", b"127.0.0.1: 8798", "хост:8798".encode(), b"127.0.0.1:8798\x00", b"127.0.0.1:99999999",
])
def test_a_malformed_host_is_a_400(tmp_path: Path, host: bytes) -> None:
    status, headers, body = raw_request(app_on(tmp_path), [(b"host", host), (b"x-lukfu-token", TOKEN.encode())])
    assert status == 400 and json.loads(body)["error"].startswith("host:")


@pytest.mark.parametrize("name", [b"host", b"x-lukfu-token", b"origin", b"sec-fetch-site", b"content-type"])
def test_a_deciding_header_given_twice_is_a_400(tmp_path: Path, name: bytes) -> None:
    """RFC 9112 wants a 400 for two Host headers: the door must not check one and the app use the other."""
    values = {b"host": (b"evil.example:8798", f"127.0.0.1:{PORT}".encode()), b"x-lukfu-token": (b"x", TOKEN.encode())}
    first, second = values.get(name, (b"same-origin", b"same-origin"))
    headers = [(b"host", f"127.0.0.1:{PORT}".encode()), (b"x-lukfu-token", TOKEN.encode())]
    headers = [h for h in headers if h[0] != name] + [(name, first), (name, second)]
    status, _headers, body = raw_request(app_on(tmp_path), headers, path="/api/info/")
    assert status == 400 and "more than once" in json.loads(body)["error"]


@pytest.mark.parametrize("site", ["cross-site", "Cross-Site", "SAME-SITE", " same-site "])
def test_another_site_is_refused_whatever_the_case(api: TestClient, site: str) -> None:
    refusal(api.get("/api/info", headers={**AUTH, "Sec-Fetch-Site": site}), 403, "origin")
    refusal(api.post("/api/games", json={}, headers={**AUTH, "Sec-Fetch-Site": site}), 403, "origin")


def test_own_site_requests_and_links_to_the_page_pass(api: TestClient) -> None:
    for site in ("same-origin", "none", "Same-Origin"):
        assert api.get("/api/info", headers={**AUTH, "Sec-Fetch-Site": site}).status_code == 200
    # a link from another page may open the page itself (it holds nothing); its calls are refused
    assert api.get("/", headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}).status_code == 200
    refusal(api.get("/api/info", headers={**AUTH, "Origin": "HTTP://127.0.0.1:9999"}), 403, "origin")
    assert api.get("/api/info", headers={**AUTH, "Origin": BASE.upper()}).status_code == 200


def test_the_body_cap_is_exactly_one_mebibyte(api: TestClient) -> None:
    json_type = {**AUTH, "Content-Type": "application/json"}
    at_cap = b'{"pad": "' + b"x" * (MAX_BODY_BYTES - 11) + b'"}'
    assert len(at_cap) == MAX_BODY_BYTES == 1_048_576
    refusal(api.post("/api/games", content=at_cap, headers=json_type), 400, "body")  # let in, then read
    refusal(api.post("/api/games", content=at_cap + b" ", headers=json_type), 413, "body")

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while read
        for _ in range(MAX_BODY_BYTES // 65536 + 1):
            yield b" " * 65536

    refusal(api.post("/api/games", content=chunks(), headers=json_type), 413, "body")
    refusal(api.post("/api/games", content=b"{}", headers={**json_type, "Content-Length": "1e3"}), 413, "body")


# ---------------------------------------------------------------- refusals by class


def test_each_refusal_has_its_class_and_the_class_its_status(api: TestClient) -> None:
    from lukfu_web import errors

    app = api.app.app  # type: ignore[attr-defined]
    for cls, status in errors.STATUS.items():
        assert app.exception_handlers[cls] is not None
        assert errors.status_of(cls.__new__(cls)) == status
    g = api.post("/api/games", json={"seed": 2, "seat": 0}, headers=AUTH).json()
    refusal(api.post(f"/api/games/{g['id']}/engine", headers=AUTH), 409, "engine")  # the person's turn
    refusal(api.post(f"/api/games/{g['id']}/undo", headers=AUTH), 409, "undo")  # nothing yet
    refusal(api.post(f"/api/games/{g['id']}/review", json={}, headers=AUTH), 409, "review")
    refusal(api.get("/api/games/0123456789abcdef", headers=AUTH), 404, "game")
    refusal(api.post(f"/api/games/{g['id']}/move", json={"move": "x" * 201}, headers=AUTH), 400, "move")


def test_a_hint_out_of_turn_is_a_conflict_of_its_own_class(tmp_path: Path) -> None:
    with TestClient(create_app(Config(tmp_path, TOKEN, PORT, workers=1)), base_url=BASE) as c:
        g = c.post("/api/games", json={"seed": 7, "seat": 2, "opponents": ["rule"]}, headers=AUTH).json()
        assert g["waiting_for_engine"]
        refusal(c.post(f"/api/games/{g['id']}/hint", headers=AUTH), 409, "hint")
        refusal(c.get("/api/jobs/0123456789abcdef", headers=AUTH), 404, "job")


@pytest.mark.parametrize(("options", "field"), [
    ({"samples": MAX_SAMPLES + 1}, "samples"), ({"samples": 0}, "samples"), ({"samples": 1.5}, "samples"),
    ({"max_nodes": MAX_NODES + 1}, "max_nodes"), ({"max_nodes": -1}, "max_nodes"),
    ({"time": MAX_SECONDS + 1}, "time"), ({"time": 0}, "time"), ({"time": "600"}, "time"), ({"time": True}, "time"),
    ({"depth": 3}, "body"),
])
def test_review_options_have_the_command_line_s_bounds(api: TestClient, options: dict[str, Any], field: str) -> None:
    g = api.post("/api/games", json={"record": finished_record(2)}, headers=AUTH).json()
    assert g["phase"] == "over"
    refusal(api.post(f"/api/games/{g['id']}/review", json=options, headers=AUTH), 400, field)


@pytest.mark.parametrize("query", ["wait=nan", "wait=inf", "wait=abc", "wait=" + "9" * 500])
def test_a_bad_wait_is_a_400(api: TestClient, query: str) -> None:
    g = api.post("/api/games", json={"seed": 2, "seat": 0}, headers=AUTH).json()
    r = api.post(f"/api/games/{g['id']}/engine?{query}", headers=AUTH)
    assert r.status_code in (400, 409) and "\n" not in r.json()["error"]


# ---------------------------------------------------------------- engine names in records


@pytest.mark.parametrize("engine", BAD_ENGINES)
def test_a_record_naming_no_engine_is_refused_and_on_disk_is_damaged(api: TestClient, tmp_path: Path, engine: str) -> None:
    record = finished_record(3)
    record["players"] = [engine if p != "you" else p for p in record["players"]]
    refusal(api.post("/api/games", json={"record": record}, headers=AUTH), 400, "record")
    gid = "d" * 16
    (tmp_path / "games" / f"{gid}.json").write_text(json.dumps(record), encoding="utf-8")
    message = refusal(api.get(f"/api/games/{gid}", headers=AUTH), 422, "game")
    assert "players" in message
    listed = api.get("/api/games", headers=AUTH).json()
    assert [d["id"] for d in listed["damaged"]] == [gid] and "players" in listed["damaged"][0]["reason"]


# ---------------------------------------------------------------- the data folder


def odd_files(folder: Path) -> dict[str, str]:
    """Files named like records that are none, by id: what each is."""
    made = {
        "a" * 16: "a FIFO", "b" * 16: "a symbolic link", "c" * 16: "a directory", "d" * 16: "empty",
        "e" * 16: "garbage", "f" * 16: "truncated", "0" * 16: "oversize", "1" * 16: "a symbolic link",
    }
    os.mkfifo(folder / f"{'a' * 16}.json")
    (folder / f"{'b' * 16}.json").symlink_to(folder / "nowhere.json")  # dangling
    (folder / f"{'c' * 16}.json").mkdir()
    (folder / f"{'d' * 16}.json").write_bytes(b"")
    (folder / f"{'e' * 16}.json").write_bytes(b"\xff\xfe garbage")
    (folder / f"{'f' * 16}.json").write_text(json.dumps(finished_record(2))[:200], encoding="utf-8")
    (folder / f"{'0' * 16}.json").write_bytes(b" " * ((1 << 20) + 1))
    (folder / f"{'1' * 16}.json").symlink_to("/dev/zero")
    return made


def test_odd_files_in_the_games_folder_are_listed_as_damaged_logged_once_and_kept(
    api: TestClient, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "games"
    good = api.post("/api/games", json={"seed": 2, "seat": 0}, headers=AUTH).json()["id"]
    made = odd_files(folder)
    before = sorted(os.listdir(folder))
    with caplog.at_level(logging.WARNING, logger="lukfu_web"):
        for _ in range(3):
            listed = api.get("/api/games", headers=AUTH).json()
            assert [g["id"] for g in listed["games"]] == [good]
            assert {d["id"] for d in listed["damaged"]} == set(made)
    reasons = {d["id"]: d["reason"] for d in listed["damaged"]}
    for gid, what in made.items():
        if what.startswith("a "):
            assert what in reasons[gid], (what, reasons[gid])
    assert "1,048,576" in reasons["0" * 16]
    logged = [r.getMessage() for r in caplog.records if r.name == "lukfu_web"]
    assert len(logged) == len(made) and all("kept as it is" in line for line in logged)  # once each
    assert sorted(os.listdir(folder)) == before  # nothing deleted or renamed
    for gid in made:
        refusal(api.get(f"/api/games/{gid}", headers=AUTH), 422, "game")  # never a 404 or a hang


def test_a_fifo_cannot_hold_the_server(api: TestClient, tmp_path: Path) -> None:
    """Six requests for a FIFO's game at once used up the thread pool; now each is refused at once."""
    os.mkfifo(tmp_path / "games" / f"{'a' * 16}.json")
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(12) as pool:
        gets = [pool.submit(api.get, f"/api/games/{'a' * 16}", headers=AUTH) for _ in range(12)]
        statuses = [f.result(timeout=20).status_code for f in gets]
    assert statuses == [422] * 12
    assert api.post("/api/games", json={"seed": 1}, headers=AUTH).status_code == 201
    assert api.get("/api/games", headers=AUTH).status_code == 200


def test_a_record_deleted_while_the_list_is_read_is_left_out(api: TestClient, tmp_path: Path) -> None:
    ids = [api.post("/api/games", json={"seed": s}, headers=AUTH).json()["id"] for s in (1, 2, 3)]
    listing = api.app.app.state.table.listing  # type: ignore[attr-defined]
    scan = listing._scan

    def scan_then_delete() -> list[Any]:
        found = scan()
        (tmp_path / "games" / f"{ids[1]}.json").unlink()
        return found

    listing.entries.clear()
    listing._scan = scan_then_delete
    listed = api.get("/api/games", headers=AUTH).json()
    assert {g["id"] for g in listed["games"]} == {ids[0], ids[2]} and listed["damaged"] == []


def test_records_are_private_and_a_folder_open_to_others_is_tightened(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir(mode=0o755)
    os.chmod(tmp_path / "games", 0o755)
    with TestClient(app_on(tmp_path), base_url=BASE) as c:
        gid = c.post("/api/games", json={"seed": 2, "seat": 0}, headers=AUTH).json()["id"]
        c.post(f"/api/games/{gid}/move", json={"move": "play"}, headers=AUTH)
    assert stat.S_IMODE((tmp_path / "games").stat().st_mode) == 0o700
    for name in (f"{gid}.json", f"{gid}.settings.json"):
        assert stat.S_IMODE((tmp_path / "games" / name).stat().st_mode) == 0o600, name


def test_max_disk_stops_new_games_with_a_clear_message_and_lets_games_go_on(tmp_path: Path) -> None:
    with TestClient(app_on(tmp_path, max_disk=6000), base_url=BASE) as c:
        first = c.post("/api/games", json={"seed": 2, "seat": 0}, headers=AUTH)
        assert first.status_code == 201
        statuses = [c.post("/api/games", json={"seed": s}, headers=AUTH).status_code for s in range(3, 40)]
        assert 507 in statuses and statuses.index(507) > 0 and set(statuses[statuses.index(507):]) == {507}
        message = c.post("/api/games", json={"seed": 99}, headers=AUTH).json()["error"]
        assert message.startswith("data:") and "--max-disk" in message and str(tmp_path) in message
        moved = c.post(f"/api/games/{first.json()['id']}/move", json={"move": "play"}, headers=AUTH)
        assert moved.status_code == 200  # a game under way is still saved


def test_the_games_list_pages(api: TestClient) -> None:
    ids = []
    for seed in range(7):
        g = api.post("/api/games", json={"seed": seed, "seat": 0}, headers=AUTH).json()
        ids.append(g["id"])
    done = api.post("/api/games", json={"record": finished_record(5)}, headers=AUTH).json()["id"]
    seen: list[str] = []
    cursor = None
    while True:
        page = api.get("/api/games?limit=3" + (f"&before={cursor}" if cursor else ""), headers=AUTH).json()
        assert len(page["games"]) <= 3
        seen += [g["id"] for g in page["games"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert sorted(seen) == sorted([*ids, done]) and len(seen) == len(set(seen))
    everything = api.get("/api/games", headers=AUTH).json()["games"]
    assert [g["id"] for g in everything] == seen  # pages in the list's order: most recent first
    unfinished = api.get("/api/games?finished=false&limit=1", headers=AUTH).json()["games"]
    assert [g["id"] for g in unfinished] == [ids[-1]]
    assert [g["id"] for g in api.get("/api/games?finished=true", headers=AUTH).json()["games"]] == [done]
    for query, field in (("limit=0", "limit"), (f"limit={MAX_PAGE + 1}", "limit"), ("limit=x", "limit"),
                         ("before=zz", "before"), ("finished=maybe", "finished")):
        refusal(api.get(f"/api/games?{query}", headers=AUTH), 400, field)


# ---------------------------------------------------------------- a browser's refusals, as pages


@pytest.mark.parametrize(("lang", "word"), [("ru", "стол"), ("es", "mesa"), ("hi", "मेज़")])
def test_a_browser_gets_a_page_in_its_language_for_every_refusal(api: TestClient, lang: str, word: str) -> None:
    browser = {"Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8", "Accept-Language": f"{lang},en;q=0.5"}
    for path, status in (("/api/games", 401), ("/?token=wrong", 403), (f"/nowhere?token={TOKEN}", 404),
                         (f"/api/games/0123456789abcdef?token={TOKEN}", 404)):
        r = api.get(path, headers=browser)
        assert r.status_code == status and r.headers["content-type"].startswith("text/html"), path
        assert f'<html lang="{lang}">' in r.text and word in r.text.lower() and "\\u2026" not in r.text, path
        assert TOKEN not in r.text
    r = api.get("/api/games", headers={"Host": "evil.example:8798", **browser})
    assert r.status_code == 403 and "text/html" in r.headers["content-type"]


def test_api_clients_keep_json_without_escapes(api: TestClient) -> None:
    r = api.get("/api/games", headers={"Accept": "*/*"})
    assert r.status_code == 401 and r.headers["content-type"] == "application/json"
    assert "…" in r.text and "\\u2026" not in r.text
    r = api.get(f"/nowhere?token={TOKEN}", headers={"Accept": "application/json"})
    assert r.status_code == 404 and r.json()["error"].startswith("path:")


def test_the_kept_token_outlives_a_restart_and_new_token_replaces_it(tmp_path: Path) -> None:
    from lukfu_web.token_file import server_token

    first, note = server_token(tmp_path)
    assert note is None and stat.S_IMODE((tmp_path / "token").stat().st_mode) == 0o600
    assert server_token(tmp_path) == (first, None)
    second, note = server_token(tmp_path, renew=True)
    assert second != first and note is not None and server_token(tmp_path) == (second, None)
    os.chmod(tmp_path / "token", 0o644)  # others could read it: no secret any more
    third, note = server_token(tmp_path)
    assert third != second and note is not None and "other users" in note
    (tmp_path / "token").write_text("not a token\n", encoding="utf-8")
    os.chmod(tmp_path / "token", 0o600)
    fourth, note = server_token(tmp_path)
    assert fourth not in (third, "not a token") and note is not None


def test_a_damaged_settings_file_leaves_the_record_alone(api: TestClient, tmp_path: Path) -> None:
    gid = api.post("/api/games", json={"seed": 2, "seat": 0}, headers=AUTH).json()["id"]
    api.app.app.state.table.store.live.clear()  # type: ignore[attr-defined]
    (tmp_path / "games" / f"{gid}.settings.json").write_text("[" * 5000, encoding="utf-8")
    assert api.get(f"/api/games/{gid}", headers=AUTH).status_code == 200
    assert GameRecord.load(tmp_path / "games" / f"{gid}.json").seed == 2
