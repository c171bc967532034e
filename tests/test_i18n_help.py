"""The translated command line: every ``--help`` in each language (extracted, rendered within 80
columns, really translated, English restored after), the translated one-line errors of bad
input with exit 2, and the translated summaries of ``puzzle check``, ``puzzle generate`` and
``sample``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import typer.main
from rich.cells import cell_len
from typer.testing import CliRunner

from lukfu_cli import output
from lukfu_cli.app import app
from lukfu_solver import i18n
from lukfu_solver.i18n import _, set_language, using_language
from tools import i18n_catalogues as cat

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = cat.TRANSLATED
WIDTH = 80

runner = CliRunner()


@pytest.fixture(autouse=True)
def english_after() -> None:
    """Every test leaves the process in English, whatever it set."""
    yield
    set_language("en")


def _commands(cmd: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """Every command and group of the click tree with its path (``()`` is ``lukfu`` itself)."""
    found = [(path, cmd)]
    for name, sub in getattr(cmd, "commands", {}).items():
        found += _commands(sub, (*path, name))
    return found


TREE = _commands(typer.main.get_command(app))
COMMAND_PATHS = [path for path, _cmd in TREE]


def _help_texts(cmd: Any) -> list[str]:
    """The help texts a command shows: its own and its parameters' (Typer's ``--help`` aside)."""
    texts = [cmd.help] if cmd.help else []
    return texts + [p.help for p in cmd.params if getattr(p, "help", None)]


def _render(path: tuple[str, ...], lang: str) -> str:
    result = runner.invoke(
        app, [*path, "--help", "--lang", lang], env={"COLUMNS": str(WIDTH), "TERMINAL_WIDTH": str(WIDTH)}
    )
    assert result.exit_code == 0, (path, lang, result.output, result.exception)
    return result.stdout


# ---------------------------------------------------------------- extraction agrees with what Typer shows


@pytest.mark.slow
def test_every_help_text_is_extracted_and_every_extracted_one_is_shown() -> None:
    """``i18n_catalogues`` finds exactly the help texts Typer shows (docstrings cleaned as Typer
    cleans them, constants marked with N_), so each one has a catalogue entry and none is unused."""
    shown = {text for _path, cmd in TREE for text in _help_texts(cmd)}
    extracted = {e.msgid for e in cat.extract_help()}
    template = {e.msgid for e in cat.extract()}
    assert shown - template == set()
    assert extracted - shown == set()


@pytest.mark.slow
def test_help_texts_need_no_markup() -> None:
    """A ``help=`` string and a command docstring are found without ``_()`` around them."""
    entries = {e.msgid: e for e in cat.extract_help()}
    assert "Print JSON only (one object)." in entries
    deal_doc = next(cmd.help for path, cmd in TREE if path == ("deal",))
    assert deal_doc in entries and entries[deal_doc].references[0].startswith("cli/position_cmds.py:")


def test_the_defaults_named_in_the_help_are_the_real_ones() -> None:
    """The numbers the analyse/advise help texts give (written out, so the texts can be
    translated) are the defaults the analysis uses."""
    from lukfu_solver.analysis import defaults as d

    texts = " ".join(t for path, cmd in TREE if path in (("analyse",), ("advise",)) for t in _help_texts(cmd))
    for number in (
        f"{d.ADVICE_MAX_NODES:,}",
        f"{d.DEFAULT_MAX_NODES:,}",
        f"{d.ADVISE_TIME:g} s",
        f"{d.MASTER_TIME:g} s",
        f"{d.HAND_TIME:g} s",
        f"{d.LEAD_TIME:g} s",
        f"{d.VIEW_TIME:g} s",
        f"{d.DECIDE_Z:g} standard errors",
        f"at most {d.VIEW_SAMPLES}",
        f"{d.LEAD_SAMPLES} for the first-lead table",
    ):
        assert number in texts, number


def test_help_speaks_a_card_players_words() -> None:
    """No rule-book jargon left unexplained in any help text."""
    for _path, cmd in TREE:
        for text in _help_texts(cmd):
            assert "M1" not in text.replace("M1-M2", "") and "midpoint of its proven bounds" not in text, text


# ---------------------------------------------------------------- --help in each language


@pytest.mark.slow
@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("path", COMMAND_PATHS, ids=lambda p: " ".join(p) or "lukfu")
def test_help_in_each_language_fits_and_is_translated(path: tuple[str, ...], lang: str) -> None:
    text = _render(path, lang)
    too_wide = [line for line in text.splitlines() if cell_len(line) > WIDTH]
    assert not too_wide, too_wide[:3]
    english = _render(path, "en")
    assert text != english
    cmd = dict(TREE)[path]
    with using_language(lang):
        first = _(cmd.help).split("\n\n")[0]
        assert first != cmd.help.split("\n\n")[0], "the command's help is not translated"
        assert _("Options") in text and "Options" not in text
    assert "[required]" not in text and "[default:" not in text and "Show this message" not in text
    words = " ".join(first.split()[:4])
    assert words in " ".join(text.split()), (words, text[:400])
    assert cmd.help.split("\n\n")[0].split(".")[0] not in " ".join(text.split())


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_option_help_is_translated(lang: str) -> None:
    """Each option's and argument's help has its own translation (none left in English)."""
    with using_language(lang):
        for path, cmd in TREE:
            for p in cmd.params:
                if getattr(p, "help", None):
                    assert _(p.help) != p.help, (path, p.name)


def test_english_help_is_restored_after_a_translated_one() -> None:
    before = _render(("solve",), "en")
    _render(("solve",), "ru")
    assert _render(("solve",), "en") == before
    assert "Options" in before and "Usage" in before


def test_rich_markup_survives_translation() -> None:
    """Markdown bold and code spans of a help text come through (the checks compare them)."""
    assert cat.placeholders("see `lukfu deal` and **VIEW**") != cat.placeholders("см. lukfu deal и **VIEW**")
    text = _render(("analyse",), "es")
    assert "VIEW" in text and "lukfu" in text


def test_a_help_text_without_a_translation_stays_english() -> None:
    """A help text the catalogue does not hold (a command added later) is shown in English."""

    class Param:
        help = "a help text no catalogue holds"

    class Command:
        help = "a command nobody has translated yet"
        params = [Param()]
        commands: dict[str, Any] = {}

        def get_params(self, _ctx: Any) -> list[Any]:
            return self.params

    command = Command()
    with using_language("ru"), output.translated_help(command, None):
        assert command.help == "a command nobody has translated yet"
        assert command.params[0].help == "a help text no catalogue holds"


@pytest.mark.slow
def test_lukfu_help_does_not_load_the_heavy_libraries() -> None:
    import subprocess
    import sys

    code = (
        "import sys\nfrom lukfu_cli.app import main\nsys.argv = ['lukfu', '--lang', 'hi', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('ortools', 'numba', 'numpy') if m in sys.modules), file=sys.stderr)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stderr.strip().splitlines()[-1] == "[]"
    assert "विकल्प" in proc.stdout


# ---------------------------------------------------------------- bad input: translated, one line, exit 2


def _bad_record(tmp_path: Path) -> list[str]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"format": "lukfu-record/9"}), encoding="utf-8")
    return ["replay", str(path)]


def _bad_puzzles(tmp_path: Path) -> list[str]:
    path = tmp_path / "puzzles.json"
    path.write_text(json.dumps({"format": "lukfu-puzzles", "version": 99, "puzzles": []}), encoding="utf-8")
    return ["puzzle", "check", str(path)]


BAD_INPUTS = {
    "record": (_bad_record, "record"),
    "view": (lambda _tmp: ["show", "--view", "1 C1378S57M24T789 1"], "view"),
    "position": (lambda _tmp: ["show", "C1 0 1 0,0,0 - -"], "hands"),
    "number": (lambda _tmp: ["deal", "--seed", "-5"], "seed"),
    "missing file": (lambda tmp: ["replay", str(tmp / "nowhere.json")], "file"),
    "puzzle file": (_bad_puzzles, "puzzles.json"),
    "cards a hand": (lambda _tmp: ["puzzle", "generate", "--min-cards", "6", "--max-cards", "4"], "cards"),
    "scheduler": (lambda _tmp: ["solve", "--batch", "-", "--scheduler", "local:x"], "scheduler"),
    "option value": (lambda _tmp: ["deal", "--seed", "abc"], "--seed"),
    "unknown option": (lambda _tmp: ["deal", "--sede", "3"], "--sede"),
    "missing argument": (lambda _tmp: ["replay"], "RECORD.json"),
}


@pytest.mark.slow
@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_is_one_translated_line_with_exit_2(case: str, lang: str, tmp_path: Path) -> None:
    make, field = BAD_INPUTS[case]
    args = make(tmp_path)
    english = runner.invoke(app, args)
    result = runner.invoke(app, [*args, "--lang", lang])
    assert english.exit_code == result.exit_code == 2, (english.output, result.output)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    line = lines[0]
    with using_language(lang):
        prefix = _("error: {message}").split("{message}")[0]
    assert line.startswith(prefix) and field in line, line
    assert line != english.stderr.strip()
    message = re.sub(r" \(see: .*\)$", "", english.stderr.strip().removeprefix("error: "))
    fault = message.split(": ", 1)[-1] if message.startswith(field) else message
    assert fault not in line, (fault, line)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_batch_errors_keep_neutral_keys(lang: str, tmp_path: Path) -> None:
    """In --batch output a bad line's message is translated, its keys stay ``line`` and ``error``."""
    batch = tmp_path / "positions.txt"
    batch.write_text("not a position\n", encoding="utf-8")
    english = json.loads(runner.invoke(app, ["legal", "--batch", str(batch)]).stdout)
    translated = json.loads(runner.invoke(app, ["legal", "--batch", str(batch), "--lang", lang]).stdout)
    assert set(english) == set(translated) == {"line", "error"}
    assert translated["error"] != english["error"]


# ---------------------------------------------------------------- summaries


def test_puzzle_summaries_in_russian_with_plural_forms() -> None:
    from lukfu_cli.puzzle_cmd import check_summary, generate_summary

    with using_language("ru"):
        assert check_summary(1, 0) == "1 задача: прошли 1, не прошли 0"
        assert check_summary(3, 1).startswith("3 задачи:")
        assert check_summary(5, 5).startswith("5 задач:")
        note = generate_summary(2, 5, 100, {"easy": 1, "medium": 1, "hard": 0}, 21, 3.25)
        assert note.startswith("создано 2 задачи (всего 2 из 5")
        assert "1 — лёгкая" in note and "21 раздача за 3,3 с" in note  # the decimal comma; 3.25 rounded half up, as the page rounds
    english = generate_summary(2, 5, 100, {"easy": 1, "medium": 1, "hard": 0}, 21, 3.25)
    assert (
        english
        == "generated 2 puzzles (only 2 of 5: --max-deals 100 reached): 1 easy, 1 medium, 0 hard; 21 deals in 3.3 s"
    )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_puzzle_check_lines_in_each_language(lang: str) -> None:
    path = str(ROOT / "puzzles" / "win.json")
    first = json.loads((ROOT / "puzzles" / "win.json").read_text())["puzzles"][0]["id"]
    result = runner.invoke(app, ["puzzle", "check", path, "--id", first, "--lang", lang])
    assert result.exit_code == 0, result.output
    with using_language(lang):
        assert result.stdout.strip().splitlines()[-1] == _("{puzzles}: {passed} passed, {failed} failed").format(
            puzzles=i18n.ngettext("{n} puzzle", "{n} puzzles", 1).format(n=1), passed=1, failed=0
        )


def test_sample_note_in_each_language() -> None:
    from lukfu_cli.sample_cmd import sample_note

    stats = {"count": 22, "acceptance": 0.5, "method": "rejection"}
    english = sample_note(2, stats, 1500.0)
    assert english == "2 deals drawn by rejection sampling (22 consistent deals, acceptance 50.0%), 1,500 deals/s"
    with using_language("ru"):
        assert (
            sample_note(2, stats, None)
            == "2 раздачи вытянуты отбраковочной выборкой (22 подходящие раздачи, принято 50,0\u00a0%)"
        )
    for lang in ("hi", "es"):
        with using_language(lang):
            text = sample_note(1, {"count": None, "acceptance": None, "method": "exact"}, None)
            assert "drawn" not in text and "unknown" not in text and "1" in text


@pytest.mark.slow
def test_a_translated_batch_error_is_the_same_for_any_jobs(tmp_path: Path) -> None:
    """A bad line answered in a worker process speaks the command's language, as in this one."""
    batch = tmp_path / "positions.txt"
    batch.write_text("C1 0 1 0,0,0 - -\nnot a position\n", encoding="utf-8")
    one = runner.invoke(app, ["solve", "--batch", str(batch), "--lang", "ru"])
    two = runner.invoke(app, ["solve", "--batch", str(batch), "--jobs", "2", "--lang", "ru"])
    assert one.exit_code == two.exit_code == 0, (one.output, two.output)
    assert one.stdout == two.stdout
    with using_language("ru"):
        assert _("expected three hands separated by '/', got {count}").format(count=1) in one.stdout


def test_a_cluster_task_speaks_the_clients_language() -> None:
    from lukfu_solver.parallel import _in_language

    def english_word(_item: int) -> str:
        return _("Options")

    assert _in_language("es", english_word, 0) == "Opciones"
    assert english_word(0) == "Options"
