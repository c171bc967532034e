"""Sessions of several deals and your record of play through the table's API: a session's deals
made one after another as ``lukfu play --deals N`` deals them (the seeds, the Master of each deal,
the same people), its score read from its deals' records, surviving a restart; its file kept as
the folder keeps every file (0600 in a 0700 folder, regular files only, a damaged one listed and
refused with its reason, never fatal); your record against each strength from every finished
record, kept in the folder's index so that a restarted server reads only what changed."""

from __future__ import annotations

import json
import logging
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_web_api import AUTH, client, engines
from test_web_hostile import AUTH as DOOR
from test_web_hostile import BASE, app_on, refusal

from bench.serve_priority import finished_record
from lukfu_solver.series import DealSeries
from lukfu_web.folder import write_private


def play(api: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    """Play a deal to its end through the API (a claim when you may, else your first choice)."""
    while game["phase"] != "over":
        game = engines(api, game)
        if game["phase"] == "over":
            break
        move = "claim" if "claim" in game["choices"] else game["choices"][0]
        r = api.post(f"/api/games/{game['id']}/move", json={"move": move}, headers=AUTH)
        assert r.status_code == 200, r.text
        game = r.json()
    return game


def session(api: TestClient, sid: str) -> dict[str, Any]:
    r = api.get(f"/api/sessions/{sid}", headers=AUTH)
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.slow
def test_a_session_of_two_deals_as_the_terminal_deals_them_and_a_restart_in_the_middle(tmp_path: Path) -> None:
    want = DealSeries.new(seed=74, deals=2, seat=0, opponents=["easy"])
    with client(tmp_path) as api:
        r = api.post("/api/sessions", json={"deals": 2, "seed": 74, "seat": 0, "opponents": ["easy"]}, headers=AUTH)
        assert r.status_code == 201, r.text
        made, first = r.json()["session"], r.json()["game"]
        sid = made["id"]
        assert first["series"] == {"id": sid, "deal": 1} and first["seed"] == 74 and first["seat"] == 0
        assert made["names"] == ["you", "easy A", "easy B"] and made["played"] == 0 and not made["over"]
        refusal(api.post(f"/api/sessions/{sid}/deal", json={"deal": 2}, headers=AUTH), 409, "deal")  # deal 1 goes on
        first = play(api, first)
        after_one = session(api, sid)
        mine = first["outcome"]["points"][first["seat"]]
        assert after_one["played"] == 1 and after_one["totals"][0] == mine and after_one["rows"][0]["game"] == first["id"]
        r = api.post(f"/api/sessions/{sid}/deal", json={"deal": 2}, headers=AUTH)
        assert r.status_code == 201, r.text
        second = r.json()
        again = api.post(f"/api/sessions/{sid}/deal", json={"deal": 2}, headers=AUTH)  # a second tab asking
        assert again.status_code == 200 and again.json()["id"] == second["id"]
        refusal(api.post(f"/api/sessions/{sid}/deal", json={"deal": 3}, headers=AUTH), 409, "deal")
        # deal 2: its own seed, its Master drawn from it (R2), the same people under the same names
        g2 = want.game(2)
        assert second["seed"] == 75 and second["seat"] == g2.human_seat and second["players"] == list(g2.seat_names)
        assert second["series"] == {"id": sid, "deal": 2}
    with client(tmp_path) as api:  # the server restarted in the middle of the session
        assert session(api, sid) == after_one | {"games": [first["id"], second["id"]], "current": second["id"], "dealt": 2}
        going = api.get("/api/sessions?finished=false", headers=AUTH).json()["sessions"]
        assert [s["id"] for s in going] == [sid] and going[0]["current"] == second["id"]
        resumed = api.get(f"/api/games/{second['id']}", headers=AUTH).json()
        assert resumed["series"] == {"id": sid, "deal": 2} and resumed["answers"] == second["answers"]
        second = play(api, resumed)
        done = session(api, sid)
        points = [first["outcome"]["points"][first["seat"]], second["outcome"]["points"][second["seat"]]]
        assert done["over"] and done["played"] == 2 and [r["points"][0] for r in done["rows"]] == points
        assert done["totals"][0] == sum(points) and sum(done["totals"]) == 0
        assert [r["seat"] for r in done["rows"]] == [0, g2.human_seat]
        assert api.get("/api/sessions?finished=false", headers=AUTH).json()["sessions"] == []
        assert [s["id"] for s in api.get("/api/sessions?finished=true", headers=AUTH).json()["sessions"]] == [sid]
        record = api.get("/api/standing", headers=AUTH).json()
        assert record["deals"] == 2 and record["points"] == sum(points)
        assert record["against"][0]["opponents"] == ["easy"] and record["against"][0]["ci95"] is None
    folder = tmp_path / "games"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for name in (f"{sid}.session.json", "index.json", f"{second['id']}.settings.json"):
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, name


def test_a_new_session_s_bad_input_is_one_line(tmp_path: Path) -> None:
    with TestClient(app_on(tmp_path), base_url=BASE) as api:
        for body, field in (({}, "deals"), ({"deals": 1}, "deals"), ({"deals": 101}, "deals"), ({"deals": "3"}, "deals"),
                            ({"deals": 2, "seed": 2**63 - 1}, "seed"), ({"deals": 2, "colour": 1}, "body"),
                            ({"deals": 2, "opponents": ["hard"]}, "opponents"), ({"deals": 2, "seat": 3}, "seat")):
            refusal(api.post("/api/sessions", json=body, headers=DOOR), 400, field)
        refusal(api.get(f"/api/sessions/{'9' * 16}", headers=DOOR), 404, "session")
        refusal(api.get("/api/sessions/nonsense", headers=DOOR), 404, "session")
        refusal(api.get("/api/sessions?before=x", headers=DOOR), 400, "before")
        sid = api.post("/api/sessions", json={"deals": 3, "seed": 5}, headers=DOOR).json()["session"]["id"]
        refusal(api.post(f"/api/sessions/{sid}/deal", json={"deal": "2"}, headers=DOOR), 400, "deal")
        refusal(api.post(f"/api/sessions/{sid}/deal", json={"deal": 2, "x": 1}, headers=DOOR), 400, "body")
        refusal(api.post(f"/api/sessions/{sid}/deal", json={"deal": 4}, headers=DOOR), 409, "deal")
        assert api.post(f"/api/sessions/{sid}/deal", json={"deal": 1}, headers=DOOR).status_code == 200


def test_odd_session_files_are_listed_as_damaged_refused_logged_once_and_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with TestClient(app_on(tmp_path), base_url=BASE) as api:
        good = api.post("/api/sessions", json={"deals": 2, "seed": 9}, headers=DOOR).json()["session"]
        folder = tmp_path / "games"
        text = (folder / f"{good['id']}.session.json").read_text(encoding="utf-8")
        data = json.loads(text)
        made = {
            "a" * 16: "a FIFO", "b" * 16: "a symbolic link", "c" * 16: "a directory", "d" * 16: "UTF-8",
            "e" * 16: "format", "f" * 16: "names", "0" * 16: "games", "1" * 16: "1,048,576",
        }
        os.mkfifo(folder / f"{'a' * 16}.session.json")
        (folder / f"{'b' * 16}.session.json").symlink_to(folder / f"{good['id']}.session.json")
        (folder / f"{'c' * 16}.session.json").mkdir()
        (folder / f"{'d' * 16}.session.json").write_bytes(b"\xff not json")
        (folder / f"{'e' * 16}.session.json").write_text(json.dumps({**data, "format": "other"}), encoding="utf-8")
        (folder / f"{'f' * 16}.session.json").write_text(json.dumps({**data, "names": ["a", "b", "c"]}), encoding="utf-8")
        (folder / f"{'0' * 16}.session.json").write_text(json.dumps({**data, "games": ["../x"]}), encoding="utf-8")
        (folder / f"{'1' * 16}.session.json").write_bytes(b" " * (1 << 20))
        made["1" * 16] = "16,384"  # the largest session file read
        before = sorted(os.listdir(folder))
        with caplog.at_level(logging.WARNING, logger="lukfu_web"):
            for _ in range(3):
                listed = api.get("/api/sessions", headers=DOOR).json()
                assert [s["id"] for s in listed["sessions"]] == [good["id"]]
                assert {d["id"] for d in listed["damaged"]} == set(made)
        reasons = {d["id"]: d["reason"] for d in listed["damaged"]}
        for sid, what in made.items():
            assert what in reasons[sid], (what, reasons[sid])
            refusal(api.get(f"/api/sessions/{sid}", headers=DOOR), 422, "session")
        logged = [r.getMessage() for r in caplog.records if r.name == "lukfu_web"]
        assert len(logged) == len(made) and all("kept as it is" in line for line in logged)  # once each
        assert sorted(os.listdir(folder)) == before  # nothing deleted or renamed
        assert api.get("/api/sessions?finished=false", headers=DOOR).json()["damaged"] == []  # a filter lists sessions only
        # a game whose settings name a session that is not there still opens, as a game alone would
        gid = good["games"][0]
        (folder / f"{good['id']}.session.json").unlink()
        api.app.app.state.table.store.live.clear()  # type: ignore[attr-defined]
        opened = api.get(f"/api/games/{gid}", headers=DOOR).json()
        assert opened["series"] == {"id": good["id"], "deal": 1} and opened["phase"] == "call"
        refusal(api.get(f"/api/sessions/{good['id']}", headers=DOOR), 404, "session")


def keep_records(folder: Path, seeds: range) -> list[str]:
    """Finished records written into the games folder as the server writes them, by id."""
    ids = []
    for seed in seeds:
        gid = f"{seed:016x}"
        write_private(folder / f"{gid}.json", json.dumps(finished_record(seed)) + "\n")
        ids.append(gid)
    return ids


def test_your_record_is_read_from_the_records_and_kept_in_the_folder_s_index(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir(mode=0o700)
    ids = keep_records(folder, range(1, 13))
    (folder / f"{'e' * 16}.json").write_bytes(b"garbage")
    reads: list[int] = []

    def counting(api: TestClient) -> None:
        listing = api.app.app.state.table.listing  # type: ignore[attr-defined]
        files = listing._files

        def read(wanted: list[Any]) -> list[Any]:
            reads.append(len(wanted))
            return files(wanted)

        listing._files = read

    with TestClient(app_on(tmp_path), base_url=BASE) as api:
        counting(api)
        first = api.get("/api/standing", headers=DOOR).json()
        assert first["deals"] == 12 and first["damaged"] == 1 and sum(reads) == 13
        mine = [finished_record(s)["result"]["points"][0] for s in range(1, 13)]  # you are seat 0 in each
        assert first["points"] == sum(mine) and first["against"][0]["opponents"] == ["rule"]
        assert first["against"][0]["ci95"] is not None and first["min_deals"] == 10
        assert api.get("/api/standing", headers=DOOR).json() == first and sum(reads) == 13  # nothing read again
    assert stat.S_IMODE((folder / "index.json").stat().st_mode) == 0o600
    reads.clear()
    with TestClient(app_on(tmp_path), base_url=BASE) as api:  # restarted: the index is used
        counting(api)
        assert api.get("/api/standing", headers=DOOR).json() == first
        assert sum(reads) == 1  # only the damaged record, which the index does not keep
        (folder / f"{ids[0]}.json").unlink()
        again = api.get("/api/standing", headers=DOOR).json()
        assert again["deals"] == 11 and again["points"] == sum(mine[1:])
    (folder / "index.json").write_bytes(b"{not json")
    reads.clear()
    with TestClient(app_on(tmp_path), base_url=BASE) as api:  # a damaged index costs a re-read, never a fault
        counting(api)
        assert api.get("/api/standing", headers=DOOR).json()["deals"] == 11 and sum(reads) == 12
