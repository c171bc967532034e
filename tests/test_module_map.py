"""``docs/architecture.md`` is the one module map, and it matches the tree.

Every module of the three packages (the library ``lukfu_solver/``, the command line ``cli/``, the
web table ``web/``) is named on the page in a code span, in the section of its folder (a section
heading names its folders, ``## search/: ...``; a name with a folder, ``hidden/pimc.py``, counts
anywhere), and each package's folder is named; every ``.py`` file and every folder the page names
exists. A package's ``__init__.py`` may go unnamed: the folder stands for it.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "docs" / "architecture.md"
PACKAGES = (ROOT / "lukfu_solver", ROOT / "cli", ROOT / "web")
SPAN = re.compile(r"`([^`\n]+)`")
FILE = re.compile(r"[\w./-]*\w\.py\b")
FOLDER = re.compile(r"^[\w.-]+(?:/[\w.-]+)*/$")
HEADING_FOLDER = re.compile(r"([\w-]+(?:/[\w-]+)*)/(?=[:,\s]|$)")


def modules() -> set[Path]:
    """Every Python module of the three packages."""
    return {p for pkg in PACKAGES for p in pkg.rglob("*.py") if "__pycache__" not in p.parts}


def packages() -> set[Path]:
    """Every package folder (a folder holding an ``__init__.py``) of the three packages."""
    return {p.parent for p in modules() if p.name == "__init__.py"}


def folder(name: str) -> Path | None:
    """The folder a name means: one of the library's (``search``, ``search/kernel``), or the
    project's (``cli``, ``bench/studies``)."""
    for base in (ROOT / "lukfu_solver", ROOT):
        if (base / name).is_dir():
            return base / name
    return None


def sections(text: str) -> list[tuple[list[Path], list[Path], str]]:
    """The page's sections: the folders its heading names, the folders its names are looked up in
    (those, or the library's top level for a heading that names none) and its text."""
    out: list[tuple[list[Path], list[Path], str]] = []
    parts = re.split(r"^(#{2,6} .*)$", text, flags=re.M)
    out.append(([], [ROOT / "lukfu_solver"], parts[0]))
    for heading, body in zip(parts[1::2], parts[2::2], strict=True):
        named = [f for f in (folder(n) for n in HEADING_FOLDER.findall(heading.lstrip("#"))) if f is not None]
        out.append((named, named or [ROOT / "lukfu_solver"], heading + body))
    return out


def resolve(name: str, bases: list[Path]) -> Path | None:
    """The file or folder ``name`` means in a section of ``bases``: under one of them, else under a
    package's folder, else under the project's root."""
    want_dir = name.endswith("/")
    for base in [*bases, *PACKAGES, ROOT]:
        p = base / name
        if (p.is_dir() if want_dir else p.is_file()):
            return p
    return None


def read_map(text: str) -> tuple[set[Path], list[str]]:
    """What the page names: the files and folders it names that exist, and the names that are
    not files or folders of the project."""
    found: set[Path] = set()
    unknown: list[str] = []
    for headed, bases, body in sections(text):
        found.update(headed)
        for span in SPAN.findall(body):
            names = FILE.findall(span) + ([span] if FOLDER.match(span) else [])
            for name in names:
                p = resolve(name, bases)
                if p is None:
                    unknown.append(name)
                else:
                    found.add(p)
    return found, unknown


def missing(found: set[Path]) -> list[str]:
    """The modules and package folders the page does not name."""
    lost = [p for p in modules() if p not in found and p.name != "__init__.py"]
    lost += [p for p in packages() if p not in found]
    return sorted(str(p.relative_to(ROOT)) for p in lost)


def test_every_module_is_on_the_map() -> None:
    found, _ = read_map(MAP.read_text(encoding="utf-8"))
    lost = missing(found)
    assert not lost, f"modules docs/architecture.md does not name (in the section of their folder): {lost}"


def test_every_name_on_the_map_is_a_file() -> None:
    _, unknown = read_map(MAP.read_text(encoding="utf-8"))
    assert not unknown, f"docs/architecture.md names files that do not exist: {unknown}"


def test_the_check_can_fail() -> None:
    """A module named only in another folder's section is missing; a name that is no file is
    found; a name with its folder counts anywhere."""
    text = "# map\n\n## cli/: x\n\n`options.py`, `bounds.py`, `nowhere/`\n\n## search/: y\n\n`bounds.py`\n"
    found, unknown = read_map(text)
    assert {ROOT / "cli", ROOT / "cli" / "options.py", ROOT / "lukfu_solver" / "search" / "bounds.py"} <= found
    assert ROOT / "lukfu_solver" / "search" / "kernel" / "bounds.py" not in found
    assert unknown == ["bounds.py", "nowhere/"]
    assert "lukfu_solver/search/kernel/bounds.py" in missing(found)
    assert ROOT / "lukfu_solver" / "hidden" / "pimc.py" in read_map("## cli/: x\n\n`hidden/pimc.py`\n")[0]
