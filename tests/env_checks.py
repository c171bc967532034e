"""Shared checks of the research environments' tests: an episode's record replays through lukfu
(the library's ``GameRecord.replay`` and the ``lukfu replay`` command) with the episode's result."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_solver.env.episode import Episode
from lukfu_solver.record import GameRecord


def check_replays(ep: Episode) -> GameRecord | None:
    """The episode's record, read back from its JSON, replays with the episode's result and
    points (a truncated episode has no record: None)."""
    if ep.truncated:
        return None
    rec = GameRecord.loads(ep.record().dumps())
    positions = rec.replay()
    assert positions[-1].outcome == ep.outcome
    assert rec.outcome is not None
    assert tuple(rec.outcome.points[ep.seat_of(p)] for p in range(3)) == ep.returns()
    return rec


def check_cli_replays(records: Sequence[GameRecord], folder: Path) -> None:
    """``lukfu replay --json`` accepts each record with its result."""
    runner = CliRunner()
    for i, rec in enumerate(records):
        path = folder / f"episode-{i}.json"
        rec.save(path)
        res = runner.invoke(app, ["replay", "--json", str(path)])
        assert res.exit_code == 0, res.output
        data = json.loads(res.output)
        assert data["points"] == list(rec.outcome.points)
