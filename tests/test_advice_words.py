"""One question, one number, said plainly: ``advise``'s basis is one sentence (the details only
under ``--verbose``), a chart whose average is not the headline number says why, ``analyse``'s
"estimated k/n" column is explained under its table, and its chart marks zero on a scale."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from screens import flat
from typer.testing import CliRunner

from lukfu_cli.analyse_words import against_text, chart_note
from lukfu_cli.app import app
from lukfu_solver.analysis.advice import advise
from lukfu_solver.analysis.defaults import make_limits
from lukfu_solver.game import dealt_hand

runner = CliRunner()
FAST = ["--samples", "4", "--max-nodes", "20000"]
VIEW = "1 C1378S57M24T789 1 T2,T4,T6/M3,M5"
JARGON = re.compile(r"(?i)PIMC|two-phase|rule player|playout|posterior|refined by")


def test_the_basis_is_one_plain_sentence_and_verbose_has_the_rest() -> None:
    plain = runner.invoke(app, ["advise", "--deal", "3", "--seat", "0", *FAST], env={"COLUMNS": "200"})
    assert plain.exit_code == 0
    (basis,) = [line for line in plain.stdout.splitlines() if line.startswith("Basis:")]
    assert basis.endswith(".") and basis.count(".") == 1 and not JARGON.search(basis), basis
    assert "played out with every card in view" in basis
    assert "Instant estimate" not in plain.stdout and "In detail:" not in plain.stdout
    verbose = runner.invoke(app, ["advise", "--deal", "3", "--seat", "0", *FAST, "--verbose"], env={"COLUMNS": "200"})
    assert "In detail:" in verbose.stdout and "Instant estimate (learned model)" in verbose.stdout


def test_a_chart_whose_average_is_not_the_estimate_says_why() -> None:
    adv = advise(dealt_hand(3, 0), 0, 4, 0, 1, make_limits(None, None, 20_000), against=None)  # PIMC's own values
    total = sum(adv.outcomes.values())
    average = sum(k * v for k, v in adv.outcomes.items()) / total
    same = dataclasses.replace(adv, play=dataclasses.replace(adv.play, mean=average))
    assert chart_note(same) is None  # the chart's average is the estimate: nothing to explain
    model = dataclasses.replace(adv, basis="model + exact PIMC", play=dataclasses.replace(adv.play, mean=average + 0.7))
    note = chart_note(model)
    assert note is not None and "learned model's first answer" in note.plain
    assert f"{average:+.2f}" in note.plain and f"{average + 0.7:+.2f}" in note.plain


def test_a_calibrated_chart_is_set_beside_pimcs_own_estimate() -> None:
    """The chart shows the deals played out with every card seen, so its note compares it with
    PIMC's own estimate; the calibrated headline has a line of its own naming the opponents."""
    adv = advise(dealt_hand(3, 0), 0, 4, 0, 1, make_limits(None, None, 20_000), against="easy")
    assert adv.uncalibrated is not None and adv.against == "easy"
    raw = adv.uncalibrated[0]
    model = dataclasses.replace(adv, basis="model + exact PIMC", uncalibrated=(raw + 0.7, adv.uncalibrated[1]))
    note = chart_note(model)
    assert note is not None and f"{raw + 0.7:+.2f}" in note.plain
    line = against_text(adv)
    assert line is not None and "easy" in line.plain and f"{raw:+.2f}" in line.plain
    assert against_text(dataclasses.replace(adv, against=None, uncalibrated=None)) is None


@pytest.mark.slow
def test_analyse_explains_the_estimated_column_and_marks_zero() -> None:
    res = runner.invoke(app, ["analyse", VIEW, "--samples", "8", "--max-nodes", "20000"], env={"COLUMNS": "80"})
    assert res.exit_code == 0
    out = res.stdout
    assert re.search(r"estimated \d/8: in \d of the 8 sampled deals of x\w+ the solve stopped early", flat(out))
    lines = out.splitlines()
    rule = next(i for i, line in enumerate(lines) if "┴" in line)
    zero = lines[rule].index("┴")
    assert lines[rule + 1][zero] == "0"  # the scale's zero under the mark
    bars = [line for line in lines[:rule] if line.startswith("x") and "├" in line]
    assert bars and all(len(line) > zero for line in bars)


def test_the_reasons_write_numbers_in_the_readers_way() -> None:
    res = runner.invoke(app, ["advise", "--deal", "7", "--seat", "1", *FAST, "--lang", "ru", "--json"])
    english = json.loads(res.stdout)["reason"]  # --json stays language-neutral: decimal points
    assert re.search(r"[+-]\d\.\d\d", english)
    res = runner.invoke(app, ["advise", "--deal", "7", "--seat", "1", *FAST, "--lang", "ru"], env={"COLUMNS": "200"})
    said = flat(res.stdout)
    assert re.search(r"Причина: .*[+-]\d,\d\d", said) and re.search(r"в среднем \d+,\d очка", said)
