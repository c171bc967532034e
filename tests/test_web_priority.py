"""Engine moves first: a player's engine move or hint never waits behind reviews (a worker is kept
for them), and the jobs that may wait are bounded, in all, for one client and for long work
(429 past a bound, nothing queued). Through the ASGI app with a real worker pool of two."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_web_hostile import AUTH, BASE, PORT, TOKEN, refusal

from bench.serve_priority import finished_record
from lukfu_web.app import Config, create_app
from lukfu_web.jobs import Caps

LONG = {"samples": 10_000, "max_nodes": 0, "time": 600}
"""A review the API accepts that holds a worker for hours (the case that once starved engine moves)."""


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    config = Config(tmp_path_factory.mktemp("data"), TOKEN, PORT, workers=2)
    with TestClient(create_app(config), base_url=BASE) as c:
        yield c


def as_client(name: str) -> dict[str, str]:
    return {**AUTH, "X-Lukfu-Client": name}


def finished_games(api: TestClient, n: int) -> list[str]:
    return [api.post("/api/games", json={"record": finished_record(seed)}, headers=AUTH).json()["id"] for seed in range(2, 2 + n)]


def cancel_all(api: TestClient, jobs: list[dict[str, Any]]) -> None:
    for job in jobs:
        api.delete(f"/api/jobs/{job['id']}", headers=AUTH)


@pytest.mark.slow
def test_engine_moves_and_hints_do_not_wait_for_two_long_reviews(api: TestClient) -> None:
    a, b = finished_games(api, 2)
    reviews = [api.post(f"/api/games/{g}/review", json=LONG, headers=as_client(f"r{g}")).json() for g in (a, b)]
    try:
        deadline = time.monotonic() + 60
        states: list[str] = []
        while "running" not in states:
            assert time.monotonic() < deadline
            states = [api.get(f"/api/jobs/{r['id']}", headers=AUTH).json()["state"] for r in reviews]
            time.sleep(0.1)
        time.sleep(0.5)
        states = [api.get(f"/api/jobs/{r['id']}", headers=AUTH).json()["state"] for r in reviews]
        assert sorted(states) == ["queued", "running"]  # one worker for long work, one kept
        g = api.post("/api/games", json={"seed": 7, "seat": 2, "opponents": ["rule"]}, headers=AUTH).json()
        assert g["waiting_for_engine"]
        t0 = time.monotonic()
        job = api.post(f"/api/games/{g['id']}/engine?wait=20", headers=AUTH).json()
        assert job["state"] == "done" and time.monotonic() - t0 < 10, job
        mine = api.post("/api/games", json={"seed": 11, "seat": 1, "level": 1}, headers=AUTH).json()
        while mine["waiting_for_engine"]:
            mine = api.post(f"/api/games/{mine['id']}/engine?wait=20", headers=AUTH).json()["state_of_game"]
        t0 = time.monotonic()
        hint = api.post(f"/api/games/{mine['id']}/hint", headers=AUTH).json()
        hint = api.get(f"/api/jobs/{hint['id']}?wait=20", headers=AUTH).json()
        assert hint["state"] == "done" and time.monotonic() - t0 < 20, hint
        assert [api.get(f"/api/jobs/{r['id']}", headers=AUTH).json()["state"] for r in reviews] == states
    finally:
        cancel_all(api, reviews)


@pytest.mark.slow
def test_pending_jobs_are_capped_for_a_client_for_long_work_and_in_all(api: TestClient) -> None:
    jobs = api.app.app.state.table.jobs  # type: ignore[attr-defined]
    games = finished_games(api, 5)
    made: list[dict[str, Any]] = []

    def review(game: str, client: str) -> Any:
        r = api.post(f"/api/games/{game}/review", json=LONG, headers=as_client(client))
        if r.status_code == 202:
            made.append(r.json())
        return r

    try:
        jobs.caps = Caps(total=3, client=2, long=10)
        assert review(games[0], "a").status_code == 202 and review(games[1], "a").status_code == 202
        r = review(games[2], "a")
        message = refusal(r, 429, "jobs")
        assert r.headers["retry-after"] == "2" and "2 jobs" in message
        assert review(games[2], "b").status_code == 202  # another client may
        refusal(review(games[3], "c"), 429, "jobs")  # three wait in all
        cancel_all(api, made[:1])
        assert review(games[3], "c").status_code == 202  # a cancelled job frees its place
        cancel_all(api, made)
        jobs.caps = Caps(total=10, client=10, long=1)
        assert review(games[4], "d").status_code == 202
        message = refusal(review(games[0], "e"), 429, "jobs")
        assert "1 review" in message
    finally:
        jobs.caps = Caps()
        cancel_all(api, made)
    assert not jobs.pending
