"""The puzzle file format: the stored :class:`Puzzle`, reading and writing collection files
(``lukfu-puzzles`` version 1), and a collection's counts (``docs/puzzles.md``, ``puzzles/README.md``).

>>> loads('{"format": "chess", "puzzles": []}')
Traceback (most recent call last):
...
lukfu_solver.errors.NotationError: puzzle file: format is 'chess', expected 'lukfu-puzzles'
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import NotationError
from ..i18n import SOURCE_LANGUAGE, _, using_language
from ..inputs import MAX_PUZZLE_FILE_BYTES, check_text, excerpt, load_json, read_bounded
from ..plays import Play
from ..position import Position
from .goals import GOALS, SIDES, PuzzleError, question, solving_side
from .rating import RATING_FORMULA, THEMES, TIERS

if TYPE_CHECKING:
    from .solution import PuzzleAnalysis

FORMAT = "lukfu-puzzles"
FORMAT_VERSION = 1
PUZZLE_KEYS = (
    "id", "title", "position", "side", "goal", "question", "solution", "value", "first_moves",
    "difficulty", "rating", "rating_formula", "themes", "seed", "source", "verification",
)  # fmt: skip
"""The keys of a puzzle object (docs/puzzles.md); any other is refused, as records refuse theirs."""
COLLECTION_KEYS = ("format", "version", "generator", "puzzles")
"""The keys of a collection object."""
MAX_ID = 64
"""Longest puzzle id (generated ones are under 24 characters)."""
MAX_TITLE = 200
"""Longest puzzle title."""
MAX_PUZZLE_CARDS = 7
"""Most cards a hand in a puzzle (the generator makes 3-7): a bigger position's uniqueness check
would solve every move of every step exactly, minutes of search; ``lukfu solve`` is for those."""


def check_puzzle_size(pos: Position, where: str) -> None:
    """Refuse a puzzle position with more than :data:`MAX_PUZZLE_CARDS` cards a hand."""
    if pos.cards_per_hand() > MAX_PUZZLE_CARDS:
        raise NotationError(
            where,
            _(
                "{count} cards a hand; a puzzle has at most {most} (its check solves every move exactly: use lukfu solve for bigger positions)"
            ).format(count=pos.cards_per_hand(), most=MAX_PUZZLE_CARDS),
        )


@dataclass
class Puzzle:
    """One puzzle as stored (the file format: ``docs/puzzles.md``)."""

    id: str
    position: str
    goal: str
    side: str
    solution: list[str]
    value: int
    first_moves: dict[str, int]
    difficulty: str
    rating: dict[str, int]
    themes: list[str]
    seed: int | None = None
    source: dict[str, int] | None = None
    title: str | None = None
    nodes: int | None = None
    solver: str | None = None

    def pos(self) -> Position:
        """The position, parsed."""
        return Position.parse(self.position)

    def line(self) -> list[Play]:
        """The solution's moves, parsed."""
        return [Play.parse(t, f"puzzle {self.id}: solution") for t in self.solution]

    @property
    def question(self) -> str:
        """The question in words."""
        return question(self.goal, self.pos())

    def stored_question(self) -> str:
        """The question as a file stores it: in English, whatever the reader's language (a file
        is language-neutral, like the notation)."""
        with using_language(SOURCE_LANGUAGE):
            return question(self.goal, self.pos())

    def to_dict(self) -> dict[str, Any]:
        """The puzzle's JSON object (keys in the documented order; absent optional keys left out)."""
        d: dict[str, Any] = {"id": self.id}
        if self.title:
            d["title"] = self.title
        d.update(
            position=self.position,
            side=self.side,
            goal=self.goal,
            question=self.stored_question(),
            solution=list(self.solution),
            value=self.value,
            first_moves=dict(self.first_moves),
            difficulty=self.difficulty,
            rating=dict(self.rating),
            rating_formula=RATING_FORMULA,
            themes=list(self.themes),
        )
        if self.seed is not None:
            d["seed"] = self.seed
        if self.source is not None:
            d["source"] = dict(self.source)
        if self.nodes is not None:
            d["verification"] = {"nodes": self.nodes, "solver": self.solver}
        return d

    @classmethod
    def from_dict(cls, d: Any, where: str = "puzzle") -> Puzzle:
        """A puzzle from its JSON object; a missing or mistyped field raises NotationError."""
        if not isinstance(d, dict):
            raise NotationError(where, _("a puzzle must be a JSON object"))
        pid = d.get("id")
        if not isinstance(pid, str) or not pid:
            raise NotationError(where, _("missing 'id' (a non-empty string)"))
        check_text(pid, f"{where}: id", MAX_ID)  # printable: ids and titles are shown on terminals
        here = f"puzzle {pid}"
        for key in d:
            if key not in PUZZLE_KEYS:
                raise NotationError(
                    here,
                    _("unknown key {key} (keys: {choices})").format(key=excerpt(key), choices=", ".join(PUZZLE_KEYS)),
                )

        def need(key: str, types: type | tuple[type, ...], optional: bool = False) -> Any:
            """The value of ``key`` checked for its type (None when optional and absent)."""
            if key not in d:
                if optional:
                    return None
                raise NotationError(here, _("missing {key!r}").format(key=key))
            v = d[key]
            if not isinstance(v, types) or isinstance(v, bool):
                raise NotationError(here, _("{key!r} has the wrong type").format(key=key))
            return v

        position = need("position", str)
        try:
            pos = Position.parse(position)
        except NotationError as err:
            raise err.within(f"{here}: position") from None
        check_puzzle_size(pos, f"{here}: position")
        goal = need("goal", str)
        if goal not in GOALS:
            raise NotationError(
                here,
                _("goal must be one of {choices}, got {goal}").format(choices=", ".join(GOALS), goal=excerpt(goal)),
            )
        side = need("side", str, optional=True) or solving_side(goal, pos)
        if side not in SIDES:
            raise NotationError(
                here,
                _("side must be one of {choices}, got {side}").format(choices=", ".join(SIDES), side=excerpt(side)),
            )
        solution = need("solution", list)
        if not all(isinstance(t, str) for t in solution):
            raise NotationError(here, _("'solution' must be a list of moves (strings)"))
        for t in solution:
            Play.parse(t, f"{here}: solution")
        first = need("first_moves", dict, optional=True) or {}
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in first.values()):
            raise NotationError(here, _("'first_moves' values must be integers"))
        rating = need("rating", dict, optional=True) or {}
        themes = need("themes", list, optional=True) or []
        difficulty = need("difficulty", str, optional=True) or ""
        verification = need("verification", dict, optional=True) or {}
        return cls(
            id=pid,
            position=str(pos),
            goal=goal,
            side=side,
            solution=list(solution),
            value=need("value", int),
            first_moves=dict(first),
            difficulty=difficulty,
            rating=dict(rating),
            themes=[str(t) for t in themes],
            seed=need("seed", int, optional=True),
            source=need("source", dict, optional=True),
            title=check_text(title, f"{here}: title", MAX_TITLE)
            if (title := need("title", str, optional=True))
            else title,
            nodes=verification.get("nodes") if isinstance(verification.get("nodes"), int) else None,
            solver=verification.get("solver") if isinstance(verification.get("solver"), str) else None,
        )


def puzzle_from_analysis(
    an: PuzzleAnalysis, pid: str, seed: int | None = None, source: dict[str, int] | None = None, title: str | None = None
) -> Puzzle:
    """A stored puzzle from a valid analysis."""
    if not an.ok or an.rating is None or an.value is None:
        raise PuzzleError(an.failure or "not analysed")
    return Puzzle(
        id=pid,
        position=str(an.position),
        goal=an.goal,
        side=an.side,
        solution=[str(m) for m in an.solution],
        value=an.value,
        first_moves={str(m): v for m, v in an.first_moves.items()},
        difficulty=an.rating.tier,
        rating=an.rating.to_dict(),
        themes=list(an.themes),
        seed=seed,
        source=source,
        title=title or default_title(an),
        nodes=an.nodes,
        solver=an.solver,
    )


def default_title(an: PuzzleAnalysis) -> str:
    """A short title: the first theme (or 'Only move') and the goal."""
    head = an.themes[0].capitalize() if an.themes else "Only move"
    tail = {"win": "caller to win", "stop": "stop the caller", "most": "the most points"}[an.goal]
    return f"{head}: {tail}"


def dumps(puzzles: Sequence[Puzzle], generator: dict[str, Any] | None = None) -> str:
    """A collection file's text: ``{"format", "version", "generator", "puzzles"}``, indented."""
    doc: dict[str, Any] = {"format": FORMAT, "version": FORMAT_VERSION}
    if generator is not None:
        doc["generator"] = generator
    doc["puzzles"] = [p.to_dict() for p in puzzles]
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def loads(text: str | bytes, name: str = "puzzle file") -> list[Puzzle]:
    """The puzzles of a file's text: a collection object, a list of puzzles or one puzzle.

    Read through the bounded JSON layer (at most 16 MiB, nested at most 20 deep, no huge
    numbers, duplicate keys or lone surrogates); unknown keys are refused.
    """
    doc = load_json(text, name, MAX_PUZZLE_FILE_BYTES)
    if isinstance(doc, dict) and "puzzles" in doc:
        for key in doc:
            if key not in COLLECTION_KEYS:
                raise NotationError(
                    name,
                    _("unknown key {key} (keys: {choices})").format(
                        key=excerpt(key), choices=", ".join(COLLECTION_KEYS)
                    ),
                )
        if doc.get("format", FORMAT) != FORMAT:
            raise NotationError(
                name,
                _("format is {format}, expected {expected!r}").format(
                    format=excerpt(doc.get("format")), expected=FORMAT
                ),
            )
        version = doc.get("version", FORMAT_VERSION)
        if version != FORMAT_VERSION:
            raise NotationError(
                name,
                _("version {version} is not supported (expected {expected})").format(
                    version=excerpt(version), expected=FORMAT_VERSION
                ),
            )
        items = doc["puzzles"]
    elif isinstance(doc, dict):
        items = [doc]
    else:
        items = doc
    if not isinstance(items, list):
        raise NotationError(name, _("expected a puzzle collection, a list of puzzles or one puzzle"))
    puzzles = [Puzzle.from_dict(d, f"{name}: puzzle {i + 1}") for i, d in enumerate(items)]
    seen: set[str] = set()
    for p in puzzles:
        if p.id in seen:
            raise NotationError(name, _("puzzle id {id} appears twice").format(id=excerpt(p.id)))
        seen.add(p.id)
    return puzzles


def load(path: str | Path) -> list[Puzzle]:
    """The puzzles of a file (NotationError when it cannot be read, is too large or is bad)."""
    p = Path(path)
    return loads(read_bounded(p, MAX_PUZZLE_FILE_BYTES), f"puzzle file {p.name}")


def load_dir(path: str | Path) -> list[Puzzle]:
    """Every puzzle of the ``*.json`` files of a directory, files in name order."""
    out: list[Puzzle] = []
    for f in sorted(Path(path).glob("*.json")):
        out.extend(load(f))
    return out


def load_source(path: str | Path) -> list[Puzzle]:
    """The puzzles of a file, or of every ``*.json`` file of a directory (NotationError when
    there are none: a command given an empty source has nothing to do)."""
    p = Path(path)
    puzzles = load_dir(p) if p.is_dir() else load(p)
    if not puzzles:
        raise NotationError("file", _("{path}: no puzzles").format(path=path))
    return puzzles


def select(puzzles: list[Puzzle], pid: str | None) -> list[Puzzle]:
    """All the puzzles, or the one with id ``pid`` (NotationError when there is none)."""
    if pid is None:
        return puzzles
    chosen = [p for p in puzzles if p.id == pid]
    if not chosen:
        raise NotationError(
            "id", _("no puzzle {pid!r} in the file ({count} puzzles)").format(pid=pid, count=len(puzzles))
        )
    return chosen


def summary_counts(puzzles: Iterable[Puzzle]) -> dict[str, dict[str, int]]:
    """How many puzzles of each tier, goal and theme."""
    ps = list(puzzles)
    return {
        "difficulty": {t: sum(p.difficulty == t for p in ps) for t in TIERS},
        "goal": {g: sum(p.goal == g for p in ps) for g in GOALS},
        "theme": {t: sum(t in p.themes for p in ps) for t in THEMES},
    }
