"""The languages: catalogues complete and compiled, placeholders kept, plural forms, the fallback
to English, the environment variables, and the translated rules rendered within the terminal."""

from __future__ import annotations

import ast
import gettext
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_cli.rules_cmd import rules_text
from lukfu_solver import i18n
from lukfu_solver.i18n import (
    LANGUAGES,
    _,
    counted,
    language,
    language_from_env,
    ngettext,
    set_language,
    suit_name,
    term,
    using_language,
)
from tools import i18n_catalogues as cat

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "lukfu_solver" / "data"
TEMPLATE = cat.extract()
RULE_NUMBERS = [f"R{i}" for i in range(1, 18)] + ["M1", "M2"]

runner = CliRunner()


@pytest.fixture(autouse=True)
def english_after() -> None:
    """Every test leaves the process in English, whatever it set."""
    yield
    set_language("en")


# ---------------------------------------------------------------- the catalogues


def test_messages_are_extracted() -> None:
    assert len(TEMPLATE) >= 20
    assert all(e.msgid for e in TEMPLATE)


@pytest.mark.parametrize("lang", cat.TRANSLATED)
def test_catalogue_complete_used_compiled_and_placeholders_kept(lang: str) -> None:
    """Every message translated, no entry unused, placeholders and markup as in English, the
    shipped .mo byte-identical to what the .po compiles to."""
    assert cat.problems(lang, TEMPLATE) == []


def test_english_plural_messages_share_placeholders() -> None:
    """The convention the checks rely on: both English forms carry the same fields ({n} too)."""
    for e in TEMPLATE:
        if e.msgid_plural is not None:
            assert cat.placeholders(e.msgid) == cat.placeholders(e.msgid_plural), e.msgid


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is not installed")
@pytest.mark.parametrize("lang", cat.TRANSLATED)
def test_gnu_msgfmt_accepts_the_catalogue(lang: str, tmp_path: Path) -> None:
    """The standard tool agrees: format strings and plural forms check, and its .mo reads the same."""
    out = tmp_path / "gnu.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(out), str(cat.po_path(lang))], check=True)
    with out.open("rb") as fp:
        gnu = gettext.GNUTranslations(fp)
    with cat.mo_path(lang).open("rb") as fp:
        ours = gettext.GNUTranslations(fp)
    for e in TEMPLATE:
        if e.msgid_plural is not None:
            for n in (0, 1, 2, 5, 11, 21, 22, 25, 101):
                assert ours.ngettext(e.msgid, e.msgid_plural, n) == gnu.ngettext(e.msgid, e.msgid_plural, n)
        elif e.msgctxt is not None:
            assert ours.pgettext(e.msgctxt, e.msgid) == gnu.pgettext(e.msgctxt, e.msgid)
        else:
            assert ours.gettext(e.msgid) == gnu.gettext(e.msgid)


def test_po_round_trip() -> None:
    """Reading and writing a .po changes nothing (so the merge keeps translators' files stable)."""
    for lang in cat.TRANSLATED:
        text = cat.po_path(lang).read_text(encoding="utf-8")
        assert cat.format_po(cat.parse_po(text)) == text


def test_merge_keeps_translations_adds_new_and_drops_unused() -> None:
    old = [cat.header("ru"), cat.Entry("Coins", msgstr=["Монеты"]), cat.Entry("gone", msgstr=["нет"])]
    template = [cat.Entry("Coins"), cat.Entry("{n} new", "{n} new", msgstr=["", ""])]
    merged = cat.merge(template, old, "ru")
    assert [e.msgid for e in merged] == ["", "Coins", "{n} new"]
    assert merged[1].msgstr == ["Монеты"] and merged[2].msgstr == ["", "", ""]


def test_placeholder_check_catches_a_changed_field() -> None:
    assert cat.placeholders("seat {seat} wins") != cat.placeholders("место {место} выигрывает")
    assert cat.placeholders("[bold]{n}[/bold]") != cat.placeholders("{n}")


# ---------------------------------------------------------------- plural forms


@pytest.mark.parametrize(
    ("n", "ru"),
    [
        (1, "1 старая карта"),
        (2, "2 старые карты"),
        (4, "4 старые карты"),
        (5, "5 старых карт"),
        (11, "11 старых карт"),
        (12, "12 старых карт"),
        (21, "21 старая карта"),
        (22, "22 старые карты"),
        (0, "0 старых карт"),
    ],
)
def test_russian_has_three_plural_forms(n: int, ru: str) -> None:
    with using_language("ru"):
        assert counted(n, "Old card") == ru


def test_two_plural_forms_in_spanish_and_hindi() -> None:
    with using_language("es"):
        assert [counted(n, "Old card") for n in (1, 2)] == ["1 carta Vieja", "2 cartas Viejas"]
    with using_language("hi"):
        assert [counted(n, "Old card") for n in (0, 1, 2)] == ["0 पुराना कार्ड", "1 पुराना कार्ड", "2 पुराने कार्ड"]


# ---------------------------------------------------------------- choosing the language and falling back


def test_glossary_words_per_language() -> None:
    expected = {"en": "Myriads", "ru": "Мириады", "hi": "असंख्य", "es": "Miríadas"}
    for lang, word in expected.items():
        with using_language(lang):
            assert suit_name(2) == word
            assert term("caller") != "" and term("Master") != ""


def test_a_missing_translation_falls_back_to_english() -> None:
    with using_language("ru"):
        assert _("a message no catalogue holds {x}").format(x=1) == "a message no catalogue holds 1"
        assert ngettext("{n} unknown thing", "{n} unknown things", 5).format(n=5) == "5 unknown things"
        assert term("no such term") == "no such term"


def test_a_missing_catalogue_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    """No .mo (an install without package data, a damaged file): English, never an error."""
    i18n.translations.cache_clear()
    monkeypatch.setattr(i18n, "files", lambda _pkg: _Missing())
    try:
        set_language("ru")
        assert language() == "ru" and _("Coins") == "Coins" and suit_name(0) == "Coins"
    finally:
        monkeypatch.undo()
        i18n.translations.cache_clear()


class _Missing:
    """A package folder without catalogues (every path leads nowhere)."""

    def __truediv__(self, _other: str) -> _Missing:
        return self

    def open(self, *_args: object) -> object:
        raise FileNotFoundError("no catalogue")


def test_a_damaged_catalogue_falls_back_to_english(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    bad = tmp_path / "bad.mo"
    bad.write_bytes(b"not a catalogue at all")

    class _Bad(_Missing):
        def open(self, *_args: object) -> object:
            return bad.open("rb")

    i18n.translations.cache_clear()
    monkeypatch.setattr(i18n, "files", lambda _pkg: _Bad())
    try:
        set_language("es")
        assert _("Coins") == "Coins"
    finally:
        monkeypatch.undo()
        i18n.translations.cache_clear()


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LC_ALL": "hi_IN.UTF-8", "LANG": "ru_RU.UTF-8"}, "hi"),
        ({"LANGUAGE": "fr:es_MX", "LANG": "fr_FR.UTF-8"}, "es"),
        ({"LANGUAGE": "es", "LC_ALL": "C"}, "en"),
        ({"LANGUAGE": "ru", "LANG": "C.UTF-8"}, "ru"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_language_from_the_environment(env: dict[str, str], lang: str) -> None:
    assert language_from_env(env) == lang


def test_an_unknown_language_code_is_bad_input() -> None:
    with pytest.raises(i18n.NotationError, match="lang"):
        set_language("xx")
    assert set_language("ES_es.utf8") == "es"


# ---------------------------------------------------------------- the rules in each language


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_number_in_every_language(lang: str) -> None:
    text = rules_text(lang)
    for number in RULE_NUMBERS:
        assert re.search(rf"\*\*{number}\b", text), f"{lang}: {number} missing"
    headings = [line for line in text.splitlines() if line.startswith("#")]
    assert len(headings) == len([line for line in rules_text("en").splitlines() if line.startswith("#")])
    if lang != "en":
        assert text != rules_text("en")


@pytest.mark.parametrize("lang", ["ru", "hi", "es"])
def test_rules_command_in_each_language(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    result = runner.invoke(app, ["rules", "--lang", lang])
    assert result.exit_code == 0, result.output
    assert result.stdout == rules_text(lang)
    monkeypatch.setenv("LANGUAGE", lang)
    assert runner.invoke(app, ["rules"]).stdout == rules_text(lang)
    monkeypatch.delenv("LANGUAGE")
    assert runner.invoke(app, ["rules"]).stdout.startswith("# Luk Fu — the rules")


def test_rules_command_rejects_an_unknown_language() -> None:
    result = runner.invoke(app, ["rules", "--lang", "xx"])
    assert result.exit_code == 2 and "lang" in result.stderr


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("width", [60, 80])
def test_rules_render_within_the_terminal(lang: str, width: int) -> None:
    """Rich's Markdown of each language (Devanagari's combining marks included) fits the width."""
    from rich.console import Console
    from rich.markdown import Markdown

    console = Console(width=width, record=True, force_terminal=True, color_system=None)
    console.print(Markdown(rules_text(lang)))
    lines = console.export_text().splitlines()
    from rich.cells import cell_len

    assert len(lines) > 40
    assert max(cell_len(line) for line in lines) <= width


# ---------------------------------------------------------------- puzzle words and the --lang option


def test_every_theme_has_its_words() -> None:
    from lukfu_solver.puzzles.rating import THEMES
    from lukfu_solver.puzzles.words import THEME_WORDS

    assert tuple(THEME_WORDS) == THEMES


@pytest.mark.parametrize("lang", cat.TRANSLATED)
def test_every_shipped_puzzle_title_is_translated(lang: str) -> None:
    """The generated titles of the collection in puzzles/ come out translated, part by part."""
    import json

    from lukfu_solver.puzzles.words import theme_text, title_text

    titles = {p["title"] for f in (ROOT / "puzzles").glob("*.json") for p in json.loads(f.read_text())["puzzles"]}
    assert titles
    with using_language(lang):
        for title in titles:
            assert title_text(title) != title, title
        assert theme_text("claim timing") != "claim timing"
        assert theme_text("not a theme") == "not a theme"


def test_the_lang_option_is_taken_from_anywhere() -> None:
    assert i18n.take_lang_option(["show", "--lang", "hi", "POS"]) == (["show", "POS"], "hi")
    assert i18n.take_lang_option(["deal"]) == (["deal"], None)
    with pytest.raises(i18n.NotationError, match="lang"):
        i18n.take_lang_option(["deal", "--lang"])


# ---------------------------------------------------------------- the command line in each language

START = "C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T6 0 1 0,0,0 - -"
"""NOTATION.md's example position: seat 1 called, the Master to lead."""
PLAY_SCRIPT = "help\n1\nhint\ntricks\n1\n1\nquit\n"
"""Answers for ``lukfu play --seed 7``: help, a discard, a hint, the tricks, two more answers, quit."""
ENGLISH_ON_THE_TABLE = ("Choices:", "your hand", "Caller:", "Commands:", "You lead", "face down", "Trick ")
"""Words the English play screen prints; none may be left in a translated one."""


def _fits(text: str, width: int = 80) -> None:
    from rich.cells import cell_len

    too_wide = [line for line in text.splitlines() if cell_len(line) > width]
    assert not too_wide, too_wide[:3]


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_play_screen_in_each_language(lang: str, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "--seed", "7", "--lang", lang, "--record", str(record)], input=PLAY_SCRIPT)
    assert result.exit_code == 0, (result.output, result.exception)
    out = result.stdout
    _fits(out)
    with using_language(lang):
        assert suit_name(0) in out and i18n.term("Master") in out
    if lang == "en":
        assert "Choices:" in out
    else:
        left = [w for w in ENGLISH_ON_THE_TABLE if w in out]
        assert not left, left


@pytest.mark.slow
@pytest.mark.parametrize("lang", cat.TRANSLATED)
def test_the_lang_option_before_the_command_and_from_the_environment(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = "1 C1378S57M24T789 1 T2,T4,T6/M3,M5"
    after = runner.invoke(app, ["show", "--view", view, "--lang", lang]).stdout
    before = runner.invoke(app, ["--lang", lang, "show", "--view", view]).stdout
    monkeypatch.setenv("LANGUAGE", lang)
    from_env = runner.invoke(app, ["show", "--view", view]).stdout
    monkeypatch.setenv("LANGUAGE", "")
    english = runner.invoke(app, ["show", "--view", view]).stdout
    assert after == before == from_env != english
    assert "Legal moves" in english and "Legal moves" not in after
    _fits(after)


def test_json_keys_and_notation_stay_english() -> None:
    view = "1 C1378S57M24T789 1 T2,T4,T6/M3,M5"
    english = json.loads(runner.invoke(app, ["show", "--view", view, "--json"]).stdout)
    for lang in cat.TRANSLATED:
        assert json.loads(runner.invoke(app, ["show", "--view", view, "--json", "--lang", lang]).stdout) == english


@pytest.mark.parametrize("lang", cat.TRANSLATED)
def test_errors_in_each_language(lang: str) -> None:
    """A bad move at the table and a bad --lang: one line, exit 2, translated (the field stays)."""
    result = runner.invoke(app, ["apply", START, "C6", "--lang", lang])
    english = runner.invoke(app, ["apply", START, "C6"])
    assert result.exit_code == english.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0] != english.stderr.strip() and "move: C6" in lines[0]
    bad = runner.invoke(app, ["rules", "--lang", "xx"])
    assert bad.exit_code == 2 and "lang" in bad.stderr


def test_a_lang_without_a_value_is_one_line() -> None:
    result = runner.invoke(app, ["rules", "--lang"])
    assert result.exit_code == 2 and "lang" in result.stderr


def _binds_underscore(tree: ast.AST) -> list[int]:
    """Lines where ``_`` is assigned outside a comprehension (which has its own scope)."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            inside.update(id(n) for gen in node.generators for n in ast.walk(gen.target))
    return [
        n.lineno
        for n in ast.walk(tree)
        if isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store) and id(n) not in inside
    ]


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted((ROOT / "lukfu_solver").rglob("*.py")) + sorted((ROOT / "cli").glob("*.py")))
def test_no_module_shadows_the_translation_function(path: Path) -> None:
    """A module that imports ``_`` never assigns ``_`` (``a, _, b = ...``), which would turn the
    translation into an UnboundLocalError or a string call."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imports = any(
        isinstance(n, ast.ImportFrom) and (n.module or "").endswith("i18n") and any(a.name == "_" for a in n.names)
        for n in ast.walk(tree)
    )
    if imports:
        assert not _binds_underscore(tree), f"{path.relative_to(ROOT)} assigns _ at lines {_binds_underscore(tree)}"


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_advise_in_each_language_runs_and_fits(lang: str) -> None:
    """``advise`` in each language: no error and every line within 80 columns."""
    args = ["advise", "--deal", "7", "--seat", "1", "--samples", "4"]
    result = runner.invoke(app, [*args, "--lang", lang])
    assert result.exit_code == 0, (result.output, result.exception)
    _fits(result.stdout)
    assert "PLAY" in result.stdout or "PASS" in result.stdout or lang != "en"
