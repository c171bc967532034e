"""Cards as people type them: each language's keyboard has look-alikes of the notation's letters
and digits (a Russian keyboard's Cyrillic С, М, Т and х, a Hindi keyboard's Devanagari digits, a
Spanish keyboard's Ç, full-width Latin from a phone or an input method). The parse layer reads
them as the notation's, everywhere a card is typed: the play prompt, puzzle play, positions and
views on the command line, the web table's move; a fault still quotes what was typed."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_cli.output import menu_number
from lukfu_solver.cards import format_cards, parse_cards, typed_text
from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import using_language
from lukfu_solver.plays import Play
from lukfu_solver.position import Position
from lukfu_solver.view import SeatView

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
VIEW = "1 C1378S57M24T789 1 T2,T4,T6/M3,M5"


def plays(*typed: str) -> list[str]:
    return [str(Play.parse(t)) for t in typed]


def test_english_full_width_letters_and_digits_are_the_notation_s() -> None:
    assert plays("Ｓ７", "ｓ３４５", "ｘＣ２Ｍ４", "ｘ２", "ｃｌａｉｍ") == ["S7", "S345", "xC2M4", "x2", "claim"]
    assert format_cards(parse_cards("Ｃ１９, Ｔ１")) == "C19T1"
    assert menu_number("１２") == 12
    with pytest.raises(NotationError, match="bad character .²"):  # a superscript is no keyboard's digit
        Play.parse("x²")


def test_russian_cyrillic_look_alikes_are_the_notation_s_letters() -> None:
    # С, М, Т and х typed on a Russian keyboard, capital or not, beside Latin ones
    assert plays("М8", "м8", "С1", "Т789", "т2", "хС2М4", "Хс2", "х2", "С5М5Т5") == [
        "M8", "M8", "C1", "T789", "T2", "xC2M4", "xC2", "x2", "C5M5T5",
    ]  # fmt: skip
    assert format_cards(parse_cards("с19 м4 т1")) == "C19M4T1"
    view = SeatView.parse("1 С1378S57М24Т789 1 Т2,T4,Т6/М3,M5")  # a view typed the same way
    assert str(view) == str(SeatView.parse(VIEW))
    assert str(view.parse_move("хС1")) == "xC1"
    with using_language("ru"), pytest.raises(NotationError) as err:
        Play.parse("МЖ8")
    assert "'Ж'" in err.value.message and "'МЖ8'" in err.value.message  # quoted as typed


def test_hindi_devanagari_digits_are_the_notation_s_ranks() -> None:
    assert plays("S७", "M३४५", "C५S५M५", "x२", "xC२M४") == ["S7", "M345", "C5S5M5", "x2", "xC2M4"]
    assert menu_number("३") == 3 and menu_number("१२") == 12
    assert typed_text("T१") == "T1"
    with using_language("hi"), pytest.raises(NotationError) as err:
        Play.parse("S०")
    assert "'S०'" in err.value.message  # rank 0 refused, quoted as typed


def test_spanish_keyboard_c_cedilla_and_the_times_sign() -> None:
    # the Ç key beside Ñ, × for the discard's x, full-width from a phone
    assert plays("Ç1", "ç345", "×C2M4", "×2", "Ｍ８") == ["C1", "C345", "xC2M4", "x2", "M8"]
    with using_language("es"), pytest.raises(NotationError) as err:
        Play.parse("ñ8")
    assert "'ñ'" in err.value.message


def test_a_position_on_the_command_line_reads_look_alikes() -> None:
    plain = "C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T6 0 0 0,0,0 - -"
    typed = "С69S246М567Т1235/С1378S57М24Т4789/с245S1389м1389т6 0 0 0,0,0 - -"
    assert str(Position.parse(typed)) == str(Position.parse(plain))
    shown = [runner.invoke(app, ["show", p, "--json"]) for p in (plain, typed)]
    assert shown[0].exit_code == shown[1].exit_code == 0 and shown[0].stdout == shown[1].stdout
    views = [runner.invoke(app, ["show", "--view", v, "--lang", "ru"]) for v in (VIEW, "1 С1378S57М24Т789 1 Т2,T4,Т6/М3,M5")]
    assert views[0].exit_code == 0 and views[0].stdout == views[1].stdout


def test_the_play_prompt_takes_a_cyrillic_card(tmp_path: Path) -> None:
    # seed 5, seat 2: call play, then beat T5 with the Cyrillic Т6 (the menu offers T6 and T7)
    res = runner.invoke(
        app,
        ["play", "--seed", "5", "--seat", "2", "--level", "1", "--lang", "ru", "--record", str(tmp_path / "g.json")],
        input="1\nТ6\nquit\nд\n",
    )
    assert res.exit_code == 0, res.stdout[-2000:]
    assert "Вы бьёте: T6" in res.stdout and "не ход" not in res.stdout


def test_puzzle_play_takes_devanagari_digits() -> None:
    # the move M५ (M5) and, on the next try, the menu's number ४ (M9)
    res = runner.invoke(app, ["puzzle", "play", str(ROOT / "puzzles" / "stop.json"), "--lang", "hi"], input="M५\nबंद\n")
    assert res.exit_code == 0, res.stdout[-2000:]
    assert "> M५\nM5 " in res.stdout  # typed as typed (echoed from a pipe), read as M5


def test_the_web_table_s_move_reads_look_alikes(tmp_path: Path) -> None:
    from lukfu_web.app import Config, create_app

    token = "t0ken" * 8
    auth = {"X-Lukfu-Token": token, "X-Lukfu-Lang": "ru"}
    config = Config(tmp_path, token, 8798, workers=1)  # type: ignore[arg-type]
    with TestClient(create_app(config), base_url="http://127.0.0.1:8798") as api:
        g = api.post("/api/games", json={"seed": 2, "seat": 0}, headers=auth).json()
        assert g["hand"] == "C135S79M359T2459"
        api.post(f"/api/games/{g['id']}/move", json={"move": "play"}, headers=auth)
        bad = api.post(f"/api/games/{g['id']}/move", json={"move": "Ж1"}, headers=auth)
        assert bad.status_code == 400 and "Ж1" in bad.text  # quoted as typed
        g = api.post(f"/api/games/{g['id']}/move", json={"move": "С1"}, headers=auth).json()  # Cyrillic С
        assert g["tricks"][0]["plays"][0]["play"] == "C1"
