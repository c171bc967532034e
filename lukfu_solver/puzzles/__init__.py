"""Luk Fu puzzles: perfect-information positions with a question and exactly one right answer,
checked by the exact solver; their file format, a seeded generator, a difficulty rating and
theme detection. The definitions are in ``docs/puzzles.md``, the file format also in
``puzzles/README.md`` beside the collection.

The package by job:

- :mod:`.goals` — what a puzzle asks: goals, the solving side, keeping the goal, the question;
- :mod:`.line` — the solution line: the walk that builds or verifies it, refutations;
- :mod:`.rating` — the greedy look-ahead, the difficulty rating and tiers, themes;
- :mod:`.format` — the stored :class:`Puzzle` and collection files;
- :mod:`.check` — re-verifying a stored puzzle and the solve report;
- :mod:`.generation` — the seeded generator and its search over deals (on several processes).

Every solver is made by :func:`lukfu_solver.search.make_solver`: the compiled one by default,
the reference when ``solver="reference"`` is asked (same values and node counts).
"""

from __future__ import annotations

from .check import Alternative, CheckResult, SolveReport, check, choose_goal, solve_report
from .format import (
    FORMAT,
    FORMAT_VERSION,
    Puzzle,
    default_title,
    dumps,
    load,
    load_dir,
    load_source,
    loads,
    puzzle_from_analysis,
    select,
    summary_counts,
)
from .generation import (
    GEN_MAX_NODES,
    RUN_SET,
    GenOptions,
    attempt_seeds,
    first_puzzle,
    generate,
    guided_walk,
    plant_run_and_set,
    puzzle_id,
    puzzles_from_seed,
    replay_source,
    search_deals,
)
from .goals import (
    DEFEND,
    FORCED,
    GOALS,
    MIN_DECISIONS,
    SIDES,
    SOLVE,
    PuzzleError,
    check_goal,
    goal_candidates,
    goal_failure,
    goal_text,
    keeps_goal,
    pick_goal,
    question,
    solving_side,
)
from .line import (
    SOLVER_CHOICES,
    SolveContext,
    analyse,
    end_of_line,
    line_positions,
    refutation,
    solver_of,
)
from .rating import (
    EASY_MAX,
    MEDIUM_MAX,
    RATING_FORMULA,
    TERMINAL_WEIGHT,
    THEMES,
    TIERS,
    detect_themes,
    greedy_scores,
    heuristic,
    rate,
    tier_of,
)
from .solution import PuzzleAnalysis, Rating, Step

__all__ = [
    "DEFEND",
    "EASY_MAX",
    "FORCED",
    "FORMAT",
    "FORMAT_VERSION",
    "GEN_MAX_NODES",
    "GOALS",
    "MEDIUM_MAX",
    "MIN_DECISIONS",
    "RATING_FORMULA",
    "RUN_SET",
    "SIDES",
    "SOLVE",
    "SOLVER_CHOICES",
    "TERMINAL_WEIGHT",
    "THEMES",
    "TIERS",
    "Alternative",
    "PuzzleAnalysis",
    "CheckResult",
    "GenOptions",
    "Puzzle",
    "PuzzleError",
    "Rating",
    "SolveContext",
    "SolveReport",
    "Step",
    "analyse",
    "attempt_seeds",
    "check",
    "check_goal",
    "choose_goal",
    "default_title",
    "detect_themes",
    "dumps",
    "end_of_line",
    "first_puzzle",
    "generate",
    "goal_candidates",
    "goal_failure",
    "goal_text",
    "greedy_scores",
    "guided_walk",
    "heuristic",
    "keeps_goal",
    "line_positions",
    "load",
    "load_dir",
    "load_source",
    "loads",
    "pick_goal",
    "plant_run_and_set",
    "puzzle_from_analysis",
    "puzzle_id",
    "puzzles_from_seed",
    "question",
    "rate",
    "refutation",
    "replay_source",
    "search_deals",
    "select",
    "solve_report",
    "solver_of",
    "solving_side",
    "summary_counts",
    "tier_of",
]
