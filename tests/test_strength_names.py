"""The plain strengths (easy, medium, strong): the engines they name, accepted wherever an engine
spec is (match, play, the table and its API), and what a table calibrates its advice against."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_solver.game import play_deal
from lukfu_solver.match import parse_specs
from lukfu_solver.players import STRENGTHS, PimcPlayer, RulePlayer, against_of, make_player, strength_of
from lukfu_solver.players.ipimc import IpimcPlayer
from lukfu_solver.session import GameSession, parse_opponents

runner = CliRunner()


def test_the_names_map_to_their_specs() -> None:
    assert STRENGTHS == {"easy": "rule", "medium": "pimc:1", "strong": "ipimc"}
    easy, medium, strong = (make_player(name, 5) for name in STRENGTHS)
    assert isinstance(easy, RulePlayer) and easy.threshold == make_player("rule").threshold  # type: ignore[attr-defined]
    assert isinstance(medium, PimcPlayer) and not isinstance(medium, IpimcPlayer)
    assert medium.level == 1 and medium.params == make_player("pimc:1").params
    assert isinstance(strong, IpimcPlayer) and strong.level == 3 and strong.carry and strong.pool == 4
    assert strong.params == make_player("ipimc:3").params and strong.seed == 5  # type: ignore[attr-defined]


def test_a_name_plays_exactly_as_its_engine() -> None:
    """The same seed, the same deal: a name's games are its engine's games."""
    for name, spec in STRENGTHS.items():
        named = play_deal([make_player(name, 3), make_player("rule"), make_player("rule:4")], 21)
        engine = play_deal([make_player(spec, 3), make_player("rule"), make_player("rule:4")], 21)
        assert (named.calls, named.plays, named.outcome) == (engine.calls, engine.plays, engine.outcome), name


def test_the_names_are_valid_wherever_an_engine_spec_is() -> None:
    assert parse_specs("strong,medium,easy") == ("strong", "medium", "easy")
    assert [(o.name, o.engine) for o in parse_opponents("strong", 3)] == [("strong A", "ipimc"), ("strong B", "ipimc")]
    assert GameSession.new(3, 0, ["strong", "medium"]).specs == ("strong", "medium")
    res = runner.invoke(app, ["match", "--players", "strong,medium,easy", "--deals", "1", "--seed", "2", "--json"])
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["specs"] == ["strong", "medium", "easy"] and data["games"] == 6


def test_a_table_calibrates_against_its_opponents() -> None:
    assert [strength_of(s) for s in ("rule", "pimc:3", "ipimc", "strong")] == ["easy", "medium", "strong", "strong"]
    assert against_of(["easy", "easy"]) == "easy"
    assert against_of(["medium", "rule"]) == "medium"  # mixed: the stronger's (the smaller correction)
    assert against_of(["ipimc", "random"]) == "strong"
