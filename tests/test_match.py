"""Matches: seatings cover every seat, results reproducible by seed and the same for any --jobs,
records saved without overwriting, and the ``lukfu match`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_solver.errors import NotationError
from lukfu_solver.game import first_master
from lukfu_solver.match import deal_seeds, interval, labels_for, run_match, seatings
from lukfu_solver.record import GameRecord

runner = CliRunner()


def test_seatings_are_the_distinct_permutations() -> None:
    assert len(seatings(["a", "b", "c"])) == 6
    assert len(set(seatings(["a", "b", "c"]))) == 6
    assert len(seatings(["a", "b", "b"])) == len({tuple("abb"[p] for p in s) for s in seatings("abb")}) == 3
    assert seatings(["a", "a", "a"]) == [(0, 1, 2)]
    assert labels_for(["rule", "random", "rule"]) == ["rule#1", "random", "rule#2"]


@pytest.mark.parametrize("specs", [["rule", "random", "rule:4"], ["rule", "random", "random"]])
def test_rotations_cover_every_seat(specs: list[str]) -> None:
    m = run_match(specs, deals=3, seed=4)
    for d, ds in enumerate(deal_seeds(4, 3)):
        games = [g for g in m.games if g.deal == d]
        assert len(games) == len(seatings(specs))
        master = first_master(ds)
        for place in range(3):
            # seat in the first deal: person - master (mod 3), person = where the seating puts the place
            first_seats = {(s.index(place) - master) % 3 for s in m.seatings}
            assert first_seats == {0, 1, 2}
        for g in games:
            if not g.record.passed_out:  # the first deal was played: the seats are those
                assert g.seats == tuple((m.seatings[g.seating_index].index(p) - master) % 3 for p in range(3))
            assert sum(g.points) == 0 and g.record.players is not None
            assert [g.record.players[g.seats[p]] for p in range(3)] == m.labels


def test_match_is_reproducible_by_seed() -> None:
    a = run_match(["rule", "random", "random"], deals=4, seed=9)
    b = run_match(["rule", "random", "random"], deals=4, seed=9)
    c = run_match(["rule", "random", "random"], deals=4, seed=10)
    assert a.to_json() == b.to_json()
    assert [g.record for g in a.games] == [g.record for g in b.games]
    assert a.to_json()["per_deal"] != c.to_json()["per_deal"]


@pytest.mark.slow
def test_match_same_for_jobs_1_and_2() -> None:
    specs = ["rule", "random", "rule:5"]
    one = run_match(specs, deals=3, seed=2, jobs=1)
    two = run_match(specs, deals=3, seed=2, jobs=2)
    assert one.to_json() == two.to_json()
    assert [g.record.dumps() for g in one.games] == [g.record.dumps() for g in two.games]


def test_summaries_points_and_intervals() -> None:
    m = run_match(["rule", "random", "random"], deals=5, seed=1)
    rows = {s.label: s for s in m.summaries()}
    assert set(rows) == {"rule", "random#1", "random#2", "random"}
    assert rows["rule"].deals == 5 and rows["rule"].games == 15
    assert rows["rule"].low <= rows["rule"].mean <= rows["rule"].high
    # zero-sum: the rule player's points per deal are minus the two random players' together
    assert rows["rule"].mean == pytest.approx(-2 * rows["random"].mean)
    mean, low, high = interval([1.0, 3.0])
    assert mean == 2.0 and low < 2.0 < high


def test_records_saved_and_never_overwritten(tmp_path: Path) -> None:
    d = tmp_path / "recs"
    m = run_match(["rule", "random", "random"], deals=2, seed=3, records=d)
    files = sorted(d.iterdir())
    assert [f.name for f in files] == [f"deal{i:04d}-s{k}.json" for i in range(2) for k in range(3)]
    for f, g in zip(files, m.games, strict=True):
        rec = GameRecord.load(f)
        rec.replay()
        assert rec == g.record
    with pytest.raises(NotationError, match="already exists"):
        run_match(["rule", "random", "random"], deals=2, seed=3, records=d)


def test_bad_match_arguments() -> None:
    with pytest.raises(NotationError):
        run_match(["rule", "random"], deals=2)
    with pytest.raises(NotationError):
        run_match(["rule", "random", "nobody"], deals=2)
    with pytest.raises(NotationError):
        run_match(["rule", "random", "random"], deals=0)


# ---------------------------------------------------------------- the command


def test_match_command_text_and_json(tmp_path: Path) -> None:
    res = runner.invoke(app, ["match", "--players", "rule,random,random", "--deals", "3", "--seed", "1"])
    assert res.exit_code == 0, (res.stdout, res.stderr)
    assert "3 deals × 3 seatings = 9 games" in res.stdout and "95% interval" in res.stdout
    res = runner.invoke(
        app,
        [
            "match",
            "--players",
            "rule,random,random",
            "--deals",
            "3",
            "--seed",
            "1",
            "--json",
            "--records",
            str(tmp_path),
        ],
    )
    assert res.exit_code == 0, (res.stdout, res.stderr)
    data = json.loads(res.stdout)
    assert data["games"] == 9 and data["players"] == ["rule", "random#1", "random#2"]
    assert [r["player"] for r in data["results"]] == ["rule", "random#1", "random#2", "random"]
    assert len(data["per_deal"]) == 3 and len(list(tmp_path.iterdir())) == 9
    assert data == run_match(["rule", "random", "random"], 3, seed=1).to_json()


@pytest.mark.parametrize(
    "args,needle",
    [
        (["--players", "rule,random"], "players"),
        (["--players", "rule,random,bogus"], "player"),
        (["--players", "rule,random,pimc:9"], "level"),
        (["--players", "rule,random,random", "--deals", "0"], "deals"),
        (["--players", "rule,random,random", "--jobs", "0"], "jobs"),
    ],
)
def test_match_command_bad_input(args: list[str], needle: str) -> None:
    res = runner.invoke(app, ["match", "--deals", "1", *args])
    assert res.exit_code == 2 and res.stdout == ""
    (line,) = res.stderr.splitlines()
    assert line.startswith("error: ") and needle in line


def test_the_running_score_is_reported_after_every_game() -> None:
    seen: list[list[tuple[str, int]]] = []
    result = run_match(["rule", "rule", "random"], 2, seed=1, on_game=lambda r: seen.append(r.running_score()))
    assert len(seen) == result.game_count == 6
    assert all(sum(p for _, p in score) == 0 for score in seen)
    assert [lab for lab, _ in seen[-1]] == ["rule#1", "rule#2", "random"]
