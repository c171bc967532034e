"""The docs' links: every relative link in ``docs/`` (its history too), the READMEs and the rule
texts resolves to a file of the project (and an anchor to a heading of it), and none points
outside the project: a link is a web address or a path inside the repository, never an absolute
path or one that climbs out of it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted(
    [ROOT / "README.md", ROOT / "bench" / "README.md", ROOT / "train" / "README.md"]
    + list((ROOT / "docs").rglob("*.md"))
    + list((ROOT / "lukfu_solver" / "data").glob("*.md"))
)
LINK = re.compile(r"!?\[(?:[^\]\n]|\][^(\n])*\]\(([^)\s]+)\)")
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)


def links(text: str) -> list[str]:
    """The targets of the Markdown links of ``text``, code spans and blocks left out."""
    return LINK.findall(CODE.sub("", text))


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings."""
    text = CODE.sub("", path.read_text(encoding="utf-8"))
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.*)$", text, re.M)}


def broken(path: Path) -> list[str]:
    """The links of ``path`` that do not resolve inside the project, with the reason."""
    out = []
    for target in links(path.read_text(encoding="utf-8")):
        if re.match(r"https?://", target):
            continue
        if re.match(r"[a-z]+:", target) or target.startswith("/"):
            out.append(f"{target}: not a path inside the project")
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if ROOT not in dest.parents and dest != ROOT:
            out.append(f"{target}: outside the project")
        elif not dest.exists():
            out.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            out.append(f"{target}: no heading #{anchor} in {dest.relative_to(ROOT)}")
    return out


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_resolves_inside_the_project(path: Path) -> None:
    assert not broken(path), f"{path.relative_to(ROOT)}: {broken(path)}"


def test_the_link_check_can_fail(tmp_path: Path) -> None:
    """A missing file, a missing heading, a climb out of the project and an absolute path are each
    caught; a good link, a web address and a link inside code are not."""
    doc = ROOT / "docs" / "search.md"
    bad = tmp_path / "x.md"
    bad.write_text(
        "[a](no-such.md) [b](search.md#no-such-heading) [c](../../../etc/passwd) [d](/etc/passwd)\n"
        "[e](https://example.org) `[f](nowhere.md)`\n",
        encoding="utf-8",
    )
    assert not broken(doc)
    text = bad.read_text(encoding="utf-8")
    targets = links(text)
    assert "https://example.org" in targets and "nowhere.md" not in targets
    fake = ROOT / "docs" / "x-link-check.md"  # resolved as if it were a doc of docs/
    try:
        fake.write_text(text, encoding="utf-8")
        found = broken(fake)
    finally:
        fake.unlink()
    assert len(found) == 4, found
    assert slug("Changing the search safely") == "changing-the-search-safely"
    assert slug("Two threads: lazy SMP") == "two-threads-lazy-smp"
