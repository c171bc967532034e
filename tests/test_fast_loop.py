"""The fast test loop (``python -m pytest -m "not slow"``, README) touches every module.

A test file counts for the fast loop when it has a test not marked ``slow`` (and no file-wide
``pytestmark`` slow); every module of the library, the command line and the web table must be imported by such a
file, directly or through the module-level imports of what it imports (the code that runs when
the file is loaded), or run as ``python -m`` in a subprocess. A test is slow by its own
``@pytest.mark.slow`` (or its file's ``pytestmark``), the only places this check reads, so the
mark may be put nowhere else (no hook marks tests at collection). The doctests of the library run in the fast loop too, but they only show that
a module loads: a module a fast test never reaches is a module the fast loop does not exercise.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
SOURCES = [p for folder in (ROOT / "lukfu_solver", ROOT / "cli", ROOT / "web") for p in sorted(folder.rglob("*.py"))]
PACKAGES = {"cli": "lukfu_cli", "web": "lukfu_web"}
"""The folders installed under another import name."""


def module_name(path: Path) -> str:
    """The dotted name of a source file (``cli/x.py`` is ``lukfu_cli.x``, ``web/x.py``
    ``lukfu_web.x``; a package is its folder)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    parts[0] = PACKAGES.get(parts[0], parts[0])
    return ".".join(parts)


MODULES = {module_name(p): p for p in SOURCES}


def _is_slow(node: ast.AST) -> bool:
    """Whether an expression is ``pytest.mark.slow`` (or a list holding it)."""
    return any(isinstance(n, ast.Attribute) and n.attr == "slow" for n in ast.walk(node))


def is_fast(tree: ast.Module) -> bool:
    """The file has a test the fast loop runs: no file-wide slow mark, a ``test_*`` function
    not marked ``@pytest.mark.slow``."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in node.targets):
            if _is_slow(node.value):
                return False
    return any(
        isinstance(node, ast.FunctionDef)
        and node.name.startswith("test_")
        and not any(_is_slow(d) for d in node.decorator_list)
        for node in tree.body
    )


def imported(tree: ast.AST, here: str, is_package: bool, anywhere: bool) -> set[str]:
    """The library and command-line modules a file imports (``anywhere``: in function bodies too,
    else only at module level), with their packages and, for ``from X import Y``, ``X.Y`` when it
    is a module."""
    package = here.split(".") if is_package else here.split(".")[:-1]
    nodes = ast.walk(tree) if anywhere else iter(getattr(tree, "body", []))
    found: set[str] = set()
    for node in nodes:
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - (node.level - 1)] + ([base] if base else []))
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        elif not anywhere and isinstance(node, (ast.If, ast.Try)):  # module-level blocks run too
            found |= imported(ast.Module(body=node.body, type_ignores=[]), here, is_package, False)
        elif anywhere and isinstance(node, (ast.List, ast.Tuple)):  # [python, "-m", "pkg", ...]: pkg.__main__ runs
            texts = [e.value if isinstance(e, ast.Constant) else None for e in node.elts]
            names = [f"{m}.__main__" for flag, m in zip(texts, texts[1:], strict=False) if flag == "-m" and m]
        for name in names:
            parts = name.split(".")
            found |= {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
    return {m for m in found if m in MODULES}


def reached(seeds: set[str]) -> set[str]:
    """Every module loaded when ``seeds`` are imported: their module-level imports, transitively."""
    done: set[str] = set()
    todo = list(seeds)
    while todo:
        m = todo.pop()
        if m in done:
            continue
        done.add(m)
        path = MODULES[m]
        todo += imported(ast.parse(path.read_text(encoding="utf-8")), m, path.name == "__init__.py", False)
    return done


def fast_seeds() -> set[str]:
    """The modules the fast loop's test files import (anywhere in the file)."""
    seeds: set[str] = set()
    for path in sorted(TESTS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if not path.name.startswith("test_") or is_fast(tree):
            seeds |= imported(tree, f"tests.{path.stem}", False, True)
    return seeds


def slow_marks_elsewhere(tree: ast.Module) -> list[int]:
    """The lines of ``slow`` marks that are neither a decorator of a top-level ``test_*`` function
    nor a module-level ``pytestmark``: marks this check would not see (a hook marking tests by
    name, a mark added to a helper)."""
    seen: set[int] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            seen |= {id(n) for d in node.decorator_list for n in ast.walk(d)}
        elif isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in node.targets):
            seen |= {id(n) for n in ast.walk(node.value)}
    return [
        n.lineno for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "slow" and id(n) not in seen
    ]


def test_every_slow_mark_is_on_its_test() -> None:
    """A slow test is marked where it is defined (on the test, or its whole file), which is where
    :func:`is_fast` looks; a mark put anywhere else would make the fast loop skip a test this
    check counts as run."""
    wrong = [
        f"{p.name}:{line}"
        for p in sorted(TESTS.glob("*.py"))
        for line in slow_marks_elsewhere(ast.parse(p.read_text(encoding="utf-8")))
    ]
    assert not wrong, f"slow marks not on a test function or a file's pytestmark: {wrong}"


def test_every_module_is_touched_by_the_fast_loop() -> None:
    missing = sorted(set(MODULES) - reached(fast_seeds()))
    assert not missing, f"modules no fast test reaches (mark fewer tests slow, or add a fast one): {missing}"


def test_the_check_can_fail() -> None:
    """A slow file's imports do not count, a module nothing imports is found missing, and a mark
    put on tests by a hook is found."""
    slow = ast.parse("import pytest\npytestmark = pytest.mark.slow\ndef test_x():\n    pass\n")
    marked = ast.parse("import pytest\n@pytest.mark.slow\ndef test_x():\n    pass\n")
    fast = ast.parse("import pytest\n@pytest.mark.parametrize('a', [1])\ndef test_x(a):\n    pass\n")
    assert not is_fast(slow) and not is_fast(marked) and is_fast(fast)
    hook = ast.parse("def pytest_collection_modifyitems(items):\n    items[0].add_marker(pytest.mark.slow)\n")
    assert slow_marks_elsewhere(hook) == [2] and slow_marks_elsewhere(slow) == slow_marks_elsewhere(marked) == []
    only = reached({"lukfu_solver.cards"})
    assert "lukfu_solver.cards" in only and "lukfu_solver.errors" in only and "lukfu_cli.app" not in only
    assert "lukfu_solver.search.kernel.alphabeta" in reached({"lukfu_solver.search.kernel.alphabeta"})
