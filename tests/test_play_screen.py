"""``lukfu play`` as a person sees it: driven in a real pseudo-terminal (tmux) at 60, 80 and 120
columns, asserting on the screen: the hand under suit names, the choices in columns with every
choice whole (numbered 1..n in order, nothing split across lines), the hint naming every legal
move, a claim announced when it happens, the trick summary, and the record named up front."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from screens import LUKFU, Screen, cells, column_starts, flat, needs_tmux

from lukfu_cli.render import hidden_cell

pytestmark = needs_tmux
CHOICE = re.compile(r"(\d+)\) (\S+)")


def menus(text: str) -> list[list[tuple[int, str]]]:
    """Every menu on the screen: the lines after ``Choices:`` up to the prompt, as (number, move)."""
    found = []
    for block in text.split("Choices:")[1:]:
        lines = block.split("\n")[1:]
        items: list[tuple[int, str]] = []
        for line in lines:
            if line.startswith(("your move>", "call (play/pass)>", "…")) or not line.strip():
                break
            cells = CHOICE.findall(line)
            assert cells, f"a menu line that is not whole choices: {line!r}"
            assert CHOICE.sub("", line).strip() in ("", "…") or "more" in line, line
            items += [(int(n), move) for n, move in cells]
        found.append(items)
    return found


@pytest.mark.slow
@pytest.mark.parametrize("width", [60, 80, 120])
def test_the_table_at_a_glance(width: int, tmp_path: Path, screens: list[Screen]) -> None:
    screen = Screen(f"{LUKFU} play --seed 5 --seat 0 --level 1 --record game.json", width, tmp_path)
    screens.append(screen)
    screen.wait_for("call (play/pass)>")
    screen.send("1")
    text = screen.wait_for("your move>")
    assert "saved to game.json when the deal ends" in " ".join(text.split())
    for header in ("C Coins", "S Strings", "M Myriads", "T Tens"):
        assert header in text
    assert "an Old card" in text  # this hand holds Old cards
    for items in menus(text):
        assert [n for n, _ in items] == list(range(1, len(items) + 1))
    assert [m for _, m in menus(text)[-1]][:2] == ["C9", "S1"]
    assert max(len(line) for line in text.splitlines()) <= width

    screen.send("hint")
    text = screen.wait_for("Advice:")
    hint = text.split("your move> hint", 1)[1]
    legal = [m for _, m in menus(text)[-1]]
    rows = [line.split()[0] for line in hint.splitlines() if line.split() and line.split()[0] in legal]
    assert 1 <= len(rows) <= 5  # the best few, not a list of everything
    told = flat(hint)
    close = re.search(r"(\d+) more moves? weighed, within error of the best", told)
    worse = re.search(r"(\d+) more moves? weighed, worth less", told)
    skipped = re.search(r"(\d+) not weighed: ", told)
    counted = len(rows) + sum(int(m.group(1)) for m in (close, worse, skipped) if m)
    assert counted == len(legal), told  # one line accounts for every legal move not shown
    assert "you lose" in hint
    screen.send("quit")


@pytest.mark.slow
def test_a_whole_deal_with_tricks_and_the_record(tmp_path: Path, screens: list[Screen]) -> None:
    screen = Screen(f"{LUKFU} play --seed 5 --seat 0 --record game.json", 80, tmp_path)
    screens.append(screen)
    screen.wait_for("call (play/pass)>")
    screen.send("1")
    for k in range(1, 13):
        text = screen.wait_for("your move>", k) if "Record saved" not in screen.text() else screen.text()
        if "Record saved" in text:
            break
        screen.send("1")
    text = screen.wait_for("Record saved")
    assert "trick 1 (+" in text and "Fu so far: you" in text
    assert "The deal is over. Every card revealed:" in text
    assert (tmp_path / "game.json").exists()


@pytest.mark.slow
def test_an_opponents_claim_is_announced_when_it_happens(tmp_path: Path, screens: list[Screen]) -> None:
    screen = Screen(f"{LUKFU} play --seed 74 --seat 0 --record game.json", 80, tmp_path)
    screens.append(screen)
    screen.wait_for("call (play/pass)>")
    screen.send("1")
    screen.wait_for("your move>")
    screen.send("1")
    text = screen.wait_for("Record saved")
    claim = flat(text).index("claims: 1 fu won + 5 Old cards shown = 6, worth 1 point, paid twice by the caller.")
    text = flat(text)
    assert claim < text.index("The deal is over")
    assert "The Old cards shown" in text[claim:]


@pytest.mark.slow
def test_at_60_columns_the_seats_table_keeps_each_row_on_one_line(tmp_path: Path, screens: list[Screen]) -> None:
    screen = Screen(f"{LUKFU} play --seed 5 --seat 2 --record game.json", 60, tmp_path)
    screens.append(screen)
    screen.wait_for("call (play/pass)>")
    screen.send("1")
    text = screen.answer_until("your move>", "Record saved")
    lines = text.splitlines()
    assert max(cells(line) for line in lines) <= 60
    rows = [line for line in lines if re.match(r" [ ▶]   [012] ", line)]
    assert rows and all(len(line.split()) >= 4 for line in rows)  # seat, player, cards, fu, face down
    assert not [line for line in lines if line.strip() and set(line.split()) <= {"▒", "×2", "×3", "×4", "×5"}]
    assert hidden_cell(5, compact=True).plain == "▒ ×5"  # three or more backs are counted, not drawn
    assert text.count("(R6)") == 1


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["hi", "ru", "es"])
def test_tables_line_up_in_every_language(lang: str, tmp_path: Path, screens: list[Screen]) -> None:
    """Devanagari vowel signs take a terminal cell: the hand's suit columns and the seats table's
    columns start where their headers do, as the terminal draws them."""
    screen = Screen(f"{LUKFU} play --seed 5 --seat 0 --lang {lang} --record game.json", 80, tmp_path)
    screens.append(screen)
    screen.send("1")
    lines = screen.wait_for(" 12 ", 3).splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith(" ───"))
    header, row = lines[rule - 1], lines[rule + 1]  # the hand: suit names over the cards
    assert len(column_starts(header)) == 4 and column_starts(row) == column_starts(header), (header, row)
    seats = next(i for i, line in enumerate(lines) if i > rule + 1 and line.startswith(" ───"))
    head = column_starts(lines[seats - 1])
    for line in lines[seats + 1 : seats + 4]:
        first = column_starts(line.replace("▶", " "))
        assert first[0] == head[0] and first[1] == head[1], (lines[seats - 1], line)  # seat, player
        assert cells(line) == cells(lines[seats + 1]) or line.rstrip().endswith("·")
