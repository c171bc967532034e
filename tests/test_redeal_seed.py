"""R3: a deal all three pass is dealt again, with a new Master drawn at random, from its own seed
(``game.deal_seed``); the record of the deal played keeps that seed (``lukfu-record/3``), so
``lukfu deal --seed`` of it shows the hand played and ``lukfu play --seed`` of it plays it, and
the game is resumed from it, back into the deals passed out. Older records (``lukfu-record/2``,
whose seed was the first deal's and whose redeals came from the same generator) still load,
resume and are written back as they were."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_solver.env.actions import CALL_PASS
from lukfu_solver.env.episode import Episode
from lukfu_solver.game import REDEAL_STEP, Game, deal_from_seed, deal_hands, deal_seed, first_master, game_seed
from lukfu_solver.inputs import MAX_SEED
from lukfu_solver.position import Position
from lukfu_solver.record import GameRecord

runner = CliRunner()
SEEDS = (0, 7, 216307930, MAX_SEED)


def passed_out(seed: int, times: int = 1, chained: bool = False) -> Game:
    """The game of ``seed`` after all three passed ``times`` times (R3)."""
    game = Game(seed, ("ann", "bob", "cy"), chained=chained)
    for _ in range(3 * times):
        game.push("pass")
    return game


@pytest.mark.parametrize("seed", SEEDS)
def test_r3_each_redeal_is_dealt_by_its_own_seed_which_its_record_keeps(seed: int) -> None:
    game = passed_out(seed, times=2)
    rec = game.record
    assert rec.version == 3 and rec.seed == deal_seed(seed, 2) == (seed + 2 * REDEAL_STEP) % (MAX_SEED + 1)
    assert deal_from_seed(rec.seed) == rec.hands == game.hands  # `lukfu deal --seed` of it: the hand played
    assert rec.passed_out == (deal_from_seed(seed), deal_from_seed(deal_seed(seed, 1)))
    again = Game(rec.seed, ("ann", "bob", "cy"))  # `lukfu play --seed` of it: the same deal, the same Master
    assert again.hands == game.hands and again.master == game.master == first_master(rec.seed)
    assert [game.passed_out_record(k).seed for k in (0, 1)] == [seed, deal_seed(seed, 1)]
    assert game_seed(rec.seed, 2) == seed


def test_the_seed_a_deal_printed_deals_the_hand_played(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    res = runner.invoke(app, ["play", "--seed", "5", "--seat", "0", "--record", str(path)], input="2\n" + "1\n" * 80)
    assert res.exit_code == 0, res.stdout[-2000:]
    rec = GameRecord.load(path)
    assert rec.passed_out and rec.seed == deal_seed(5, len(rec.passed_out))
    assert "New deal, seed 5: you are seat 0." in res.stdout
    assert f"New deal, seed {rec.seed}:" in res.stdout and f"seed {rec.seed};" in res.stdout  # and in the replay
    shown = runner.invoke(app, ["deal", "--seed", str(rec.seed), "--json"])
    assert shown.exit_code == 0
    assert tuple(Position.parse(json.loads(shown.stdout)["position"]).hands) == rec.hands


def test_a_redealt_game_resumes_from_its_record_and_goes_back_into_the_deal_passed_out() -> None:
    game = passed_out(7)
    game.push("play")
    for _ in range(4):
        game.push(game.legal_answers()[0])
    back = Game.from_record(GameRecord.loads(game.record.dumps()))
    assert back.seed == 7 and back.answers == game.answers and back.record == game.record
    back.rewind(2)  # two passes of the first deal: its cards again
    assert back.passed_out == [] and back.hands == deal_from_seed(7) and back.record.seed == 7


def test_an_older_record_of_a_redeal_still_loads_resumes_and_is_written_back_as_it_was() -> None:
    old = passed_out(7, chained=True)
    old.push("play")
    rng = random.Random(7)  # the older rule: the redeal drawn from the first deal's generator
    deal_hands(rng), rng.randrange(3)
    assert old.hands == deal_hands(rng) and old.master == rng.randrange(3)
    text = old.record.dumps()
    assert json.loads(text)["format"] == "lukfu-record/2" and json.loads(text)["seed"] == 7
    rec = GameRecord.loads(text)
    assert rec.version == 2 and rec.replay()
    back = Game.from_record(rec)
    assert back.chained and back.record == rec and back.record.dumps() == text
    back.push(back.legal_answers()[0])
    assert back.record.version == 2 and back.record.seed == 7


def test_a_version_2_record_without_a_redeal_means_what_version_3_does() -> None:
    game = Game(11, ("ann", "bob", "cy"))
    game.push("play")
    data = json.loads(game.record.dumps())
    data["format"] = "lukfu-record/2"
    back = Game.from_record(GameRecord.from_json(data))
    assert not back.chained and back.record == game.record and back.record.version == 3


def test_the_research_episodes_redeal_as_the_game_does() -> None:
    for seed in SEEDS[:3]:
        ep, game = Episode.from_seed(seed), passed_out(seed)
        for _ in range(3):
            ep.apply(CALL_PASS)
        assert ep.hands == game.hands and ep.master == game.master
        assert ep.record().seed == game.record.seed == deal_seed(seed, 1)
