"""``bench/results/`` keeps only what is used, and what is cited is there (``bench/README.md``).

Both directions: every file in ``bench/results/`` is named by code (``bench/``, ``train/``,
``tests/``, ``lukfu_solver/``, ``cli/``) or cited by a current doc (``docs/`` outside
``docs/history/``, ``README.md``, ``bench/README.md``, ``train/README.md``); and every
``bench/results/NAME`` a doc (history included) or code names exists, as does every result file a
current doc names bare (a path given as ``REV:bench/results/NAME`` cites a commit, which git keeps).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
CODE_DIRS = ("bench", "train", "tests", "lukfu_solver", "cli")
HISTORY = ROOT / "docs" / "history"
PATH = re.compile(r"(?<![\w:])bench/results/([\w.-]*[a-z][\w.-]*\.jsonl?)(?![\w*])")
"""A results path (not one after ``REV:``, which names a commit's file; not a pattern or a
placeholder such as ``NAME.json``)."""
BARE = re.compile(
    r"(?<![\w./-])((?:solve|compile|kernel|advise|advice|inference|strength|sampler|engine|puzzles|cluster|signature"
    r"|quick|architecture)[\w.-]*\.jsonl?)\b"
)
"""A bare name that looks like a benchmark's result file."""


def code_files() -> list[Path]:
    """The project's Python files, this one aside (its own checks name files that do not exist)."""
    here = Path(__file__).resolve()
    return sorted(
        p for d in CODE_DIRS for p in (ROOT / d).rglob("*.py") if "__pycache__" not in p.parts and p.resolve() != here
    )


def current_docs() -> list[Path]:
    docs = [p for p in (ROOT / "docs").rglob("*.md") if HISTORY not in p.parents]
    return sorted(docs + [ROOT / "README.md", ROOT / "bench" / "README.md", ROOT / "train" / "README.md"])


def all_docs() -> list[Path]:
    return sorted(set(current_docs()) | set(HISTORY.rglob("*.md")))


def mentions(name: str, text: str) -> bool:
    """Whether ``text`` names the file ``name`` (not as part of a longer name)."""
    return re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-]|\.\w)", text) is not None


def test_every_result_file_is_read_by_code_or_cited_by_a_current_doc() -> None:
    texts = [p.read_text(encoding="utf-8") for p in code_files() + current_docs()]
    unused = sorted(f.name for f in RESULTS.iterdir() if not any(mentions(f.name, t) for t in texts))
    assert not unused, (
        f"bench/results files no code reads and no current doc cites (delete them: git keeps them): {unused}"
    )


def test_every_cited_result_path_exists() -> None:
    missing = []
    for p in all_docs() + code_files():
        for name in PATH.findall(p.read_text(encoding="utf-8")):
            if "*" not in name and not (RESULTS / name).exists():
                missing.append(f"{p.relative_to(ROOT)}: bench/results/{name}")
    assert not missing, f"cited but not in bench/results (cite REV:bench/results/NAME for a file git keeps): {missing}"


def test_every_result_file_a_current_doc_names_exists() -> None:
    known = {p.name for p in ROOT.rglob("*.json*") if ".venv" not in p.parts and ".git" not in p.parts}
    missing = []
    for p in current_docs():
        for name in BARE.findall(p.read_text(encoding="utf-8")):
            if name not in known:
                missing.append(f"{p.relative_to(ROOT)}: {name}")
    assert not missing, f"result files named by a current doc that do not exist: {missing}"


def test_the_checks_can_fail() -> None:
    """A longer name does not count as a mention; a commit's path is not a cited path."""
    assert mentions("solve.json", "see `bench/results/solve.json`.")
    assert not mentions("solve.json", "see solve.json5 or fast-solve.json or solve.jsonl")
    assert PATH.findall("at 813c82c:bench/results/x.json, bench/results/y.json, bench/results/NAME.json") == ["y.json"]
    assert PATH.findall("bench/results/solve-*.json") == []
    assert BARE.findall("`solve-two-threads.json`, `game.json`") == ["solve-two-threads.json"]
