"""``lukfu play`` from a pipe: a whole scripted game, illegal input explained, hint, undo, quit,
end of input, the record (fresh names, no overwrite without --force) and ``lukfu replay``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_solver.analysis.defaults import ADVICE_MAX_NODES, advice_budget
from lukfu_solver.cards import format_cards
from lukfu_solver.game import first_master
from lukfu_solver.record import GameRecord

runner = CliRunner()
FIRST = "1\n" * 80
"""Always the first choice: call play, then the first legal move, until the deal ends."""


def flat(text: str) -> str:
    """``text`` with every run of whitespace one space (lines wrap at the terminal's width)."""
    return " ".join(text.split())


def play(*args: str, input: str = FIRST):
    return runner.invoke(app, ["play", *args], input=input)


def ok(*args: str, input: str = FIRST):
    res = play(*args, input=input)
    assert res.exit_code == 0, (res.stdout[-3000:], res.stderr, res.exception)
    return res


@pytest.fixture
def in_tmp(tmp_path: Path):
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(old)


def test_full_scripted_game_saves_a_replayable_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    res = ok("--seed", "5", "--seat", "0", "--opponents", "rule", "--record", str(path))
    out = res.stdout
    assert "New deal, seed 5: you are seat 0." in out and "You call play: you are the caller." in out
    assert "an Old card: no card the others hold can beat it" in out and "Choices:\n1) " in out
    assert "The deal is over. Every card revealed:" in out and "You (seat 0):" in out
    assert f"saved to {path} when the deal ends" in flat(out)  # announced up front
    assert f"Record saved to {path}" in flat(out)
    assert "trick 1 (+" in out and "Fu so far: you" in out  # a summary after each trick
    assert "▒" in out  # the engines' discards are shown as card backs
    rec = GameRecord.load(path)
    rec.replay()
    assert rec.players is not None and rec.players[0] == "you" and rec.seed == 5 and rec.caller == 0
    assert rec.outcome is not None
    res = runner.invoke(app, ["replay", str(path)])
    assert res.exit_code == 0 and "Result:" in res.stdout
    # the same seed and answers give the same game
    again = tmp_path / "again.json"
    ok("--seed", "5", "--seat", "0", "--opponents", "rule", "--record", str(again))
    assert GameRecord.load(again) == rec


def test_seat_option_places_you(tmp_path: Path) -> None:
    for seat in (1, 2):
        path = tmp_path / f"s{seat}.json"
        res = ok("--seed", "11", "--seat", str(seat), "--opponents", "random", "--record", str(path))
        rec = GameRecord.load(path)
        assert rec.players is not None
        if not rec.passed_out:
            assert rec.players[seat] == "you"
        assert f"New deal, seed 11: you are seat {seat}." in res.stdout
    assert first_master(11) in (0, 1, 2)


def test_illegal_input_is_explained_and_asked_again(tmp_path: Path) -> None:
    # seed 5, seat 0: the hand is C9 S1256 M249 T1249 (S9, T8 elsewhere)
    script = "play\nS3\nS1S2\nS12\nxS1\nC9M9T9S9\nclaim\nbogus\n99\n" + FIRST
    res = ok("--seed", "5", "--seat", "0", "--record", str(tmp_path / "g.json"), input=script)
    out = res.stdout
    assert "Not legal: you do not hold S3" in out
    assert "is not a single, a set (3-4 of a rank) or a run" in out  # S1S2 is no lead shape
    assert "Not legal: you are leading" in out  # xS1
    assert "Not legal: you do not hold S9" in out
    assert "fewer than 6 together (R14)" in out  # claim
    assert "'bogus' is neither a move nor a command" in out and "There is no move 99" in out
    assert "The deal is over" in out


@pytest.mark.slow
def test_hint_undo_and_help(tmp_path: Path) -> None:
    script = "help\nhint\n1\nhint\n2\nundo\ntricks\nmoves\n" + FIRST
    res = ok("--seed", "5", "--seat", "0", "--level", "1", "--record", str(tmp_path / "g.json"), input=script)
    out = res.stdout
    assert "Commands:" in out and "take back your last answer" in out
    assert "Hint: what `lukfu advise" in flat(out) and "Play (call):" in out  # in the calling phase
    assert "your expected points" in flat(out) and "you lose" in out and "Advice:" in out  # at the first lead
    assert "You lead S1" in out and "Taking back your answer S1." in out
    assert "You lead trick 1." in out and "Tricks" in out  # the 'tricks' command after the undo
    rec = GameRecord.load(tmp_path / "g.json")
    assert rec.calls == ("play",) and str(rec.plays[0]) == "C9"  # S1 was taken back, C9 led instead


def test_undo_with_nothing_to_undo(tmp_path: Path) -> None:
    res = ok("--seed", "5", "--seat", "0", "--record", str(tmp_path / "g.json"), input="undo\n" + FIRST)
    assert "Nothing to undo yet." in res.stdout


def test_discard_typed_as_plain_cards(tmp_path: Path) -> None:
    # play until a discard is asked for, then type the cards without the x
    path = tmp_path / "g.json"
    ok("--seed", "5", "--seat", "0", "--record", str(path))
    rec = GameRecord.load(path)
    mine = [(n, p) for n, p in enumerate(rec.plays) if str(p).startswith("x") and rec.view(0, n).to_move == 0]
    assert mine, "the scripted game has a discard by you"
    n, discard = mine[0]
    before = sum(1 for k in range(n) if rec.view(0, k).to_move == 0)
    script = "1\n" * (before + 1) + str(discard)[1:] + "\n" + FIRST
    path2 = tmp_path / "g2.json"
    ok("--seed", "5", "--seat", "0", "--record", str(path2), input=script)
    assert GameRecord.load(path2).plays[n] == discard


def test_quit_and_end_of_input_save_nothing(in_tmp: Path) -> None:
    res = play("--seed", "5", "--seat", "0", input="quit\n")
    assert res.exit_code == 0 and "quit: the game is abandoned" in res.stderr
    res = play("--seed", "5", "--seat", "0", input="1\n1\n")
    assert res.exit_code == 0 and "end of input: the game is abandoned" in res.stderr
    assert "Traceback" not in res.stderr
    assert list(in_tmp.iterdir()) == []


@pytest.mark.slow
def test_fresh_default_names_and_no_overwrite(in_tmp: Path) -> None:
    ok("--seed", "5", "--seat", "0")
    ok("--seed", "5", "--seat", "0")
    assert sorted(p.name for p in in_tmp.iterdir()) == ["lukfu-5-2.json", "lukfu-5.json"]
    res = play("--seed", "5", "--seat", "0", "--record", "lukfu-5.json")
    assert res.exit_code == 2 and res.stdout == ""
    assert res.stderr.strip() == "error: record: lukfu-5.json already exists; use --force to overwrite it"
    before = (in_tmp / "lukfu-5.json").read_text()
    ok("--seed", "6", "--seat", "0", "--record", "lukfu-5.json", "--force")
    assert (in_tmp / "lukfu-5.json").read_text() != before
    assert GameRecord.load(in_tmp / "lukfu-5.json").seed == 6


def test_redeal_after_three_passes(tmp_path: Path) -> None:
    # you pass; the rule players pass weak hands: all three pass and the cards are dealt again
    for seed in range(40):
        res = ok("--seed", str(seed), "--seat", "2", "--record", str(tmp_path / f"{seed}.json"), input="2\n" + FIRST)
        if "dealt again" in res.stdout:
            rec = GameRecord.load(tmp_path / f"{seed}.json")
            assert rec.passed_out and rec.replay()
            return
    pytest.fail("no redeal in 40 seeds")


def test_pimc_opponents(tmp_path: Path) -> None:
    res = ok(
        "--seed", "3", "--seat", "1", "--opponents", "pimc,random", "--level", "1", "--record", str(tmp_path / "g.json")
    )
    rec = GameRecord.load(tmp_path / "g.json")
    assert rec.players is not None and set(rec.players) == {"you", "pimc:1", "random"}
    assert "pimc:1" in res.stdout


@pytest.mark.parametrize(
    "args,needle",
    [
        (["--opponents", "bogus"], "error: opponents: an opponent is a strength (easy, medium, strong)"),
        (["--opponents", "rule,rule,rule"], "error: opponents:"),
        (["--seat", "3"], "error: seat:"),
        (["--level", "6"], "error: level: a pimc level is 1-5"),
    ],
)
def test_bad_options(args: list[str], needle: str) -> None:
    res = play("--seed", "1", *args)
    assert res.exit_code == 2 and res.stdout == ""
    (line,) = res.stderr.splitlines()
    assert line.startswith(needle)


@pytest.mark.slow
def test_call_hint_gives_advise_numbers(tmp_path: Path) -> None:
    """The hint at the call is `lukfu advise` on the same hand and seed with advise's own default
    budget (one question, one number): it names that command, which prints the same lines."""
    res = ok("--seed", "3", "--seat", "0", "--level", "1", "--record", str(tmp_path / "g.json"), input="hint\nquit\n")
    out = " ".join(res.stdout.split())
    command = out.split("Hint: what `lukfu ", 1)[1].split("`", 1)[0].split()
    assert command[0] == "advise" and "--samples" not in command and "--max-nodes" not in command
    assert "Play (call):" in out and "Pass:" in out and "Recommendation:" in out
    advised = CliRunner().invoke(app, [*command, "--json"])
    assert advised.exit_code == 0, advised.output
    data = json.loads(advised.stdout)
    cap, _budget = advice_budget(None, None, data["seat"])
    assert data["requested_samples"] == cap and data["limits"]["max_nodes"] == ADVICE_MAX_NODES


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "seat"), [(7, 1), (7, 0), (12, 2)])
def test_play_deals_the_hand_deal_shows(seed: int, seat: int, tmp_path: Path) -> None:
    """``lukfu play --seed N --seat S`` gives the hand ``lukfu deal --seed N --seat S`` shows."""
    import json

    shown = json.loads(runner.invoke(app, ["deal", "--seed", str(seed), "--seat", str(seat), "--json"]).stdout)
    said = runner.invoke(app, ["deal", "--seed", str(seed), "--seat", str(seat)]).stdout
    assert f"lukfu play --seed {seed} --seat {seat}" in said  # the deal points to playing it
    path = tmp_path / "g.json"
    out = ok("--seed", str(seed), "--seat", str(seat), "--record", str(path)).stdout  # you call play: no redeal
    rec = GameRecord.load(path)
    assert rec.players is not None and rec.players.index("you") == seat and not rec.passed_out
    assert format_cards(rec.hands[seat]) == shown["hand"] and f"you are seat {seat}" in out
