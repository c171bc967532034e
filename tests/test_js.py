"""The browser table's JavaScript, checked from pytest so the README's test command covers it:
eslint over the page's modules (``npm ci`` installs it from the committed package-lock.json;
``.ci/run`` does), node's own test runner on the pure modules (``tests/js/``: choosing cards,
the game's words, the table's state), and the page's ``number()`` against
:func:`lukfu_solver.i18n.number` in every language.

Without node (or without ``npm ci`` for the linter) these are skipped with one line naming what
to run; on CI a missing tool fails instead."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from lukfu_solver.i18n import LANGUAGES, number, using_language
from lukfu_web.catalogue import catalogue

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
ESLINT = ROOT / "node_modules" / ".bin" / "eslint"


def need(tool: str | Path | None, install: str) -> str:
    """The tool's path, or a skip (a failure on CI) naming how to get it."""
    if tool and Path(tool).exists():
        return str(tool)
    if os.environ.get("CI"):
        pytest.fail(f"the JavaScript checks need {install}", pytrace=False)
    pytest.skip(f"no {install} for the JavaScript checks")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_the_page_s_javascript_passes_the_linter() -> None:
    need(NODE, "node (20 or later)")
    eslint = need(ESLINT, "eslint: npm ci")
    done = run(eslint, "--max-warnings", "0", "web/static/js", "tests/js", "eslint.config.js")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_pure_modules_pass_their_node_tests() -> None:
    node = need(NODE, "node (20 or later)")
    done = run(node, "--test", "tests/js/")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout and "# pass 0" not in done.stdout


def test_the_page_writes_numbers_as_lukfu_does_in_every_language() -> None:
    """``i18n.js``'s ``number``, ``signed`` and ``percent`` with the catalogue /api/i18n/LANG
    serves, against the library's ``i18n.number``, ``render.signed`` and ``i18n.percent``
    (grouping, decimal mark, Indian grouping, the sign, no -0, a tie rounded the same way, no
    0% or 100%), on fixed cases and on a seeded sweep of sample means and shares."""
    import random

    from lukfu_cli.render import signed
    from lukfu_solver.i18n import percent

    node = need(NODE, "node (20 or later)")
    rng = random.Random(7)
    cases = [(20000, 0, False), (-1.375, 2, False), (0.5, 2, True), (1234567, 0, False), (-0.001, 2, True), (4000, 0, False)]
    cases += [(0.625, 2, True), (-0.125, 2, False), (2.5, 0, True), (0.5, 0, True), (-0.5, 0, True), (0.605, 2, True)]
    cases += [(rng.randint(-400, 400) / rng.choice((8, 16, 24, 32, 48)), rng.choice((0, 1, 2)), rng.random() < 0.5) for _ in range(300)]
    shares = [0.0, 1.0, 0.004, 0.005, 0.995, 0.994, 0.125, 0.285, 0.5] + [k / n for n in (6, 8, 16, 24, 48, 96) for k in range(n + 1)]
    script = (
        "import { number, percent, signed, useCatalogue } from './web/static/js/i18n.js';"
        "const [cat, cases, shares] = JSON.parse(process.argv[1]); useCatalogue(cat);"
        "console.log(JSON.stringify([cases.map(([x, d, s]) => number(x, d, s)), cases.map(([x, d]) => signed(x, d)),"
        " shares.map((p) => percent(p))]));"
    )
    for lang in LANGUAGES:
        done = run(node, "--input-type=module", "-e", script, json.dumps([catalogue(lang), cases, shares]))
        assert done.returncode == 0, done.stderr
        with using_language(lang):
            want = [
                [number(x, d, sign=s) for x, d, s in cases],
                [signed(x, d) for x, d, _s in cases],
                [percent(p) for p in shares],
            ]
        got = json.loads(done.stdout)
        assert got == want, lang
        assert not any(p.endswith(("100%", "100\u00a0%")) or p in ("0%", "0\u00a0%") for p in got[2]), lang


FLOORS = (
    ("dom.js", "i18n.js"),
    ("cards.js", "api.js"),
    ("words.js", "select.js", "state.js", "resume.js"),
    ("table.js", "panels.js", "review.js", "replay.js", "start.js", "evening.js", "standing.js"),
    ("game.js",),
    ("main.js",),
)
"""The page's modules by floor: each imports only from the floors below it (docs/architecture.md)."""


def test_the_page_s_modules_import_only_from_the_floors_below() -> None:
    import re

    folder = ROOT / "web" / "static" / "js"
    floor = {name: i for i, names in enumerate(FLOORS) for name in names}
    assert set(floor) == {p.name for p in folder.glob("*.js")}, "a module with no floor"
    for name, level in floor.items():
        text = (folder / name).read_text(encoding="utf-8")
        for used in re.findall(r'^import .* from "\./([\w.]+)";$', text, flags=re.M):
            assert floor[used] < level, f"{name} imports {used}, not below it"
