"""R3 inside a session of deals: deal k of a session from SEED is the game of SEED + k - 1, and
when all three pass in it, its next deal is dealt by that deal's own redeal seed,
``deal_seed(SEED + k - 1, r)`` after ``r`` deals passed out (its Master drawn from that seed,
R2), never by another deal's seed. The record keeps the redeal's seed (``game_seed`` of it gives
back SEED + k - 1), the session counts the deal as deal k, and the terminal
(``lukfu play --deals N``) and the browser's evening deal it alike."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from test_series import played
from test_session import pass_until_redealt
from test_web_api import AUTH, client, engines
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_solver.cards import format_cards
from lukfu_solver.game import deal_from_seed, deal_seed, first_master, game_seed
from lukfu_solver.record import GameRecord
from lukfu_solver.series import DealResult, DealSeries
from lukfu_solver.session import YOU, GameSession

runner = CliRunner()


def redealt_session() -> int:
    """The first seed from 74 whose session's deal 2 (easy opponents, seat 0) is passed out when
    the person passes at its call: found by the library, so the test stays true to the engines."""
    for seed in range(74, 574):
        if pass_until_redealt(DealSeries.new(seed=seed, deals=2, seat=0, opponents=["easy"]).game(2)).passed_out:
            return seed
    raise AssertionError("no session from 74 to 573 had its second deal passed out")


SEED = redealt_session()


def check_redeal(rec: GameRecord, series_seed: int) -> None:
    """``rec``, a deal of a session whose seed is ``series_seed``, played after deals passed out:
    each of its deals dealt by ``deal_seed(series_seed, r)``, its record keeping the last."""
    r = len(rec.passed_out)
    assert r >= 1
    assert rec.passed_out[0] == deal_from_seed(series_seed)  # the deal's own seed deals it first
    assert rec.passed_out == tuple(deal_from_seed(deal_seed(series_seed, i)) for i in range(r))
    assert rec.seed == deal_seed(series_seed, r) and rec.hands == deal_from_seed(rec.seed)
    assert rec.seed not in (series_seed - 1, series_seed + 1)  # not another deal of the session
    assert game_seed(rec.seed, r) == series_seed
    assert rec.version == 3


def test_r3_a_redeal_inside_deal_k_is_dealt_by_deal_seed_of_deal_k_s_seed() -> None:
    series = DealSeries.new(seed=SEED, deals=2, seat=0, opponents=["easy"])
    first = DealResult.of(played(series.game(1)).record)
    assert first is not None
    series.add(first)
    game = pass_until_redealt(series.game(2))
    assert game.seed == SEED + 1 and len(game.passed_out) == 1
    assert game.game.deal_seed == deal_seed(SEED + 1, 1)
    assert game.game.master == first_master(deal_seed(SEED + 1, 1))  # its Master drawn from its seed (R2)
    assert game.names == series.names  # the same people, in the same places round the table
    rec = played(game).record
    check_redeal(rec, SEED + 1)
    back = GameSession.from_record(GameRecord.loads(rec.dumps()))  # resumed: the session's seed again
    assert back.seed == SEED + 1 and back.names == series.names and back.record == rec
    result = DealResult.of(rec)
    assert result is not None and result.seed == rec.seed
    series.add(result)
    rows = series.rows()
    assert [row["seed"] for row in rows] == [SEED, deal_seed(SEED + 1, len(rec.passed_out))]
    assert sum(series.totals()) == 0 and series.totals()[series.human] == sum(row["points"][0] for row in rows)


def _prompts(out: str) -> int:
    """How many answers the terminal read (each one after its prompt)."""
    return len(re.findall(r"(call \(play/pass\)|your move)> ", out))


def test_r3_the_terminal_redeals_deal_k_by_its_own_seed_and_names_its_file_for_deal_k(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = runner.invoke(app, ["play", "--seed", str(SEED), "--seat", "0", "--record", str(tmp_path / "one.json")], input="1\n" * 200)
    assert alone.exit_code == 0, alone.stdout[-2000:]
    first = _prompts(alone.stdout)  # deal 1 of the session is the deal of SEED played alone
    monkeypatch.chdir(tmp_path)
    answers = "1\n" * first + "\n" + "pass\n" + "1\n" * 200  # deal 1 as alone; Enter; a pass at deal 2's call
    res = runner.invoke(app, ["play", "--seed", str(SEED), "--seat", "0", "--deals", "2"], input=answers)
    assert res.exit_code == 0, (res.stdout[-3000:], res.stderr)
    one, two = GameRecord.load(tmp_path / f"lukfu-{SEED}.json"), GameRecord.load(tmp_path / f"lukfu-{SEED + 1}.json")
    assert one == GameRecord.load(tmp_path / "one.json")  # deal 1 of a session can be played alone
    check_redeal(two, SEED + 1)
    second = res.stdout.split("Deal 2 of 2")[1]
    assert f"New deal, seed {SEED + 1}:" in second and f"New deal, seed {two.seed}:" in second
    assert second.index(f"seed {SEED + 1}:") < second.index("All three passed") < second.index(f"seed {two.seed}:")
    assert not (tmp_path / f"lukfu-{two.seed}.json").exists()  # the file is named for the deal of the session


@pytest.mark.slow
def test_r3_the_browser_s_evening_redeals_deal_k_by_its_own_seed(tmp_path: Path) -> None:
    def answer(api: TestClient, game: dict, move: str) -> dict:
        r = api.post(f"/api/games/{game['id']}/move", json={"move": move}, headers=AUTH)
        assert r.status_code == 200, r.text
        return engines(api, r.json())

    with client(tmp_path) as api:
        r = api.post("/api/sessions", json={"deals": 2, "seed": SEED, "seat": 0, "opponents": ["easy"]}, headers=AUTH)
        assert r.status_code == 201, r.text
        sid, game = r.json()["session"]["id"], engines(api, r.json()["game"])
        while game["phase"] != "over":
            game = answer(api, game, "claim" if "claim" in game["choices"] else game["choices"][0])
        r = api.post(f"/api/sessions/{sid}/deal", json={"deal": 2}, headers=AUTH)
        assert r.status_code == 201, r.text
        game = engines(api, r.json())
        assert game["seed"] == SEED + 1 and game["deal"] == 1
        while game["deal"] == 1:
            game = answer(api, game, "pass")
        assert game["deal"] == 2 and game["seed"] == SEED + 1  # the game is still deal 2 of the session
        redeal = deal_seed(SEED + 1, 1)
        assert game["deal_seed"] == redeal and game["hand"] == format_cards(deal_from_seed(redeal)[game["seat"]])
        seat, players = game["seat"], game["players"]
        assert players.index(YOU) == seat and game["master"] == 0
        assert (players[(seat + 1) % 3], players[(seat + 2) % 3]) == ("easy A", "easy B")  # A after you, B before
        while game["phase"] != "over":
            game = answer(api, game, "claim" if "claim" in game["choices"] else game["choices"][0])
        rec = GameRecord.load(tmp_path / "games" / f"{game['id']}.json")
        check_redeal(rec, SEED + 1)
        summary = api.get(f"/api/sessions/{sid}", headers=AUTH).json()
        assert summary["over"] and [row["seed"] for row in summary["rows"]] == [SEED, rec.seed]
    with client(tmp_path) as api:  # a restart: the deal resumed from its record is the session's deal 2
        again = api.get(f"/api/games/{game['id']}", headers=AUTH).json()
        assert again["seed"] == SEED + 1 and again["deal_seed"] == rec.seed and again["series"] == {"id": sid, "deal": 2}
