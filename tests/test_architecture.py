"""The import contract: the architecture as tests (docs/architecture.md draws it).

The library is layered cards -> rules -> position and view -> search and the rule policies ->
hidden hands -> analysis, players and puzzles -> the command line, and each test here fails when
a change breaks one of its promises: the library never reaches the command line (by import or by
name), ortools stays in the hidden-hand modules and numba in the compiled search, the rules never
import the search, the rule policies need only the rules, every calling policy is defined in one
module, there is one sampler family and one PIMC core, bench/ uses the library only, and no
source file grows past the size a reader can hold.
"""

from __future__ import annotations

import ast
import fnmatch
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIB = ROOT / "lukfu_solver"
CLI = ROOT / "cli"
BENCH = ROOT / "bench"
TRAIN = ROOT / "train"
TOOLS = ROOT / "tools"
MAX_LINES = 800

LAYERS: dict[str, int] = {
    "errors": 0,
    "cards": 0,
    "plays": 1,
    "rules": 2,
    "history": 2,
    "position": 3,
    "view": 3,
    "record": 3,
    "game": 4,
    "endgames": 4,
    "parallel": 0,
    "inputs": 0,
    "safe_write": 0,
    "search": 5,
    "policy": 5,
    "hidden": 6,
    "analysis": 7,
    "players": 7,
    "puzzles": 7,
    "match": 8,
    "session": 8,
    "series": 8,
    "standing": 8,
    "env": 9,
}
"""The library's layers: a module may import its own layer and the layers below, never above."""


def _sources(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def _module(path: Path) -> str:
    """The dotted module name of a source file (``cli/x.py`` is ``lukfu_cli.x``)."""
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    if parts[0] == "cli":
        parts[0] = "lukfu_cli"
    return ".".join(parts)


@functools.cache
def _tree(path: Path) -> ast.Module:
    """The parsed source of a file, read once for all the tests here."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in the file (lazy imports too), as absolute names."""
    tree = _tree(path)
    here = _module(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            found.add(mod)
            found.update(f"{mod}.{alias.name}" for alias in node.names)
    return found


def _named_modules(path: Path) -> set[str]:
    """Module names that ``path`` spells in strings (``import_module("...")`` and the like)."""
    tree = _tree(path)
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.fullmatch(r"[\w.]+", node.value)
    }


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "lukfu_solver" or len(parts) < 2:
        return None
    return LAYERS.get(parts[1])


LIB_FILES = _sources(LIB)


@pytest.mark.parametrize("path", LIB_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_library_never_reaches_the_command_line(path: Path) -> None:
    reached = {m for m in _imports(path) | _named_modules(path) if m.split(".")[0] in ("lukfu_cli", "typer", "rich")}
    assert not reached, f"{path.relative_to(ROOT)} reaches {sorted(reached)}"


@pytest.mark.parametrize("path", LIB_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_layers_import_downwards_only(path: Path) -> None:
    own = _layer(_module(path))
    assert own is not None or path.parent == LIB, f"{path.relative_to(ROOT)} is in no layer: add it to LAYERS"
    if own is None:  # the package face
        return
    upward = sorted(m for m in _imports(path) if (_layer(m) or 0) > own)
    assert not upward, f"{path.relative_to(ROOT)} (layer {own}) imports upwards: {upward}"


def _only_hands_on(path: Path) -> bool:
    """Whether a package's ``__init__.py`` is only its face: a docstring, imports, names and a
    module ``__getattr__`` that loads a submodule when asked; no code of its own that runs (such a
    file hands names on and is not a room)."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign)):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        if isinstance(node, ast.FunctionDef) and node.name in ("__getattr__", "__dir__"):
            continue
        return False
    return True


def test_no_import_cycles() -> None:
    """Modules never import each other in a loop, not even for type hints: each room of the house
    stands above what it uses (a package face that only hands names on is not a room)."""
    modules = {_module(p): p for p in LIB_FILES + _sources(CLI) if p.name != "__init__.py" or not _only_hands_on(p)}
    graph = {m: {d for d in _imports(p) if d in modules and d != m} for m, p in modules.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                cycle = stack[stack.index(d) :] + [d]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if d not in state:
                visit(d)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_rules_never_import_search() -> None:
    for name in ("cards", "plays", "rules", "position", "view"):
        deps = _imports(LIB / f"{name}.py")
        assert not any(m.startswith("lukfu_solver.search") for m in deps), name


def test_the_rule_policies_need_only_the_rules() -> None:
    """policy/ (the rule player, its seat facts, the calling policies) imports the floors below
    search/ and itself only: nothing of the search, the hidden hands or above, so the opponent
    model in hidden/ can replay it without a cycle."""
    files = _sources(LIB / "policy")
    assert files, "the policy floor has modules"
    for path in files:
        reached = sorted(
            m
            for m in _imports(path)
            if (_layer(m) or 0) >= LAYERS["policy"] and not m.startswith("lukfu_solver.policy")
        )
        assert not reached, f"{path.relative_to(ROOT)} needs more than the rules: {reached}"


CALLING = LIB / "policy" / "calling.py"
CALLING_NAMES = re.compile(
    r"_?(sigmoid|hand_strength\w*|policy_calls|later_caller|rule_call|hand_facts|\w*call_curve\w*)", re.I
)
"""Functions and classes that are a calling policy or its curve."""
CALLING_CONSTANTS = re.compile(r"\w*CALL_(THRESHOLD|SCORE|CURVE)\w*")
"""Module constants that are a calling policy's threshold or curve."""


def test_every_calling_policy_is_defined_in_one_module() -> None:
    """The rule player's call, the later seats' policy in the call valuation and the opponent
    model's call curve, with their thresholds and curves, and who calls after a pass, are defined
    in ``policy/calling.py`` only: a second definition anywhere in the library, the command line,
    a benchmark or a trainer is a second policy."""
    paths = LIB_FILES + _sources(CLI) + _sources(BENCH) + _sources(TRAIN)
    defs = [(p, n) for p, kind, n in _definitions(paths) if CALLING_NAMES.fullmatch(n) or n == "CallCurve"]
    consts = []
    for p in paths:
        for node in _tree(p).body:
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AnnAssign)
                else []
            )
            consts += [(p, t.id) for t in targets if isinstance(t, ast.Name) and CALLING_CONSTANTS.fullmatch(t.id)]
    assert {n for p, n in defs if p == CALLING} >= {
        "sigmoid",
        "hand_strength",
        "policy_calls",
        "rule_call",
        "later_caller",
        "CallCurve",
    }
    assert {n for p, n in consts if p == CALLING} >= {"DEFAULT_CALL_THRESHOLD", "CALL_SCORE", "PIMC_CALL_CURVE"}
    outside = [f"{p.relative_to(ROOT)}:{n}" for p, n in defs + consts if p != CALLING]
    assert not outside, f"a calling policy defined outside policy/calling.py: {outside}"


def test_ortools_only_in_the_hidden_hand_modules() -> None:
    users = {p for p in _sources(LIB) + _sources(CLI) if any(m.split(".")[0] == "ortools" for m in _imports(p))}
    assert users, "the constraints module imports ortools"
    outside = [str(p.relative_to(ROOT)) for p in users if (LIB / "hidden") not in p.parents]
    assert not outside, f"ortools imported outside lukfu_solver/hidden: {outside}"


def test_numba_only_in_the_compiled_search() -> None:
    users = {p for p in _sources(LIB) + _sources(CLI) if any(m.split(".")[0] == "numba" for m in _imports(p))}
    assert users, "the kernel imports numba"
    allowed = (LIB / "search" / "kernel", LIB / "search" / "compiled.py", LIB / "search" / "kernel.py")
    outside = [str(p.relative_to(ROOT)) for p in users if not any(p == a or a in p.parents for a in allowed)]
    assert not outside, f"numba imported outside the compiled search: {outside}"


RESEARCH_FRAMEWORKS = {
    "gymnasium": "gymnasium.py",
    "pettingzoo": "pettingzoo.py",
    "pyspiel": "openspiel.py",
    "open_spiel": "openspiel.py",
}
"""The research extra's frameworks and the one module of ``lukfu_solver/env`` that may import each."""


def test_research_frameworks_only_in_their_env_module() -> None:
    """gymnasium, pettingzoo and open-spiel (the research extra) are imported by their own interface
    module alone (gymnasium also by pettingzoo.py, whose spaces are Gymnasium's), so the library
    imports without them."""
    env = LIB / "env"
    for path in LIB_FILES + _sources(CLI):
        for top in {m.split(".")[0] for m in _imports(path)} & set(RESEARCH_FRAMEWORKS):
            allowed = {env / RESEARCH_FRAMEWORKS[top]} | ({env / "pettingzoo.py"} if top == "gymnasium" else set())
            assert path in allowed, f"{path.relative_to(ROOT)} imports {top}"


def _jit_without_runtime(path: Path) -> list[tuple[str, bool]]:
    """Each function of ``path`` decorated with numba's ``njit``, and whether the decorator leaves
    numba's runtime out (``_nrt=False``)."""
    out = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.FunctionDef):
            for dec in node.decorator_list:
                call = dec if isinstance(dec, ast.Call) else None
                name = (call.func if call else dec).id if isinstance(call.func if call else dec, ast.Name) else ""
                if name == "njit":
                    off = any(
                        k.arg == "_nrt" and isinstance(k.value, ast.Constant) and k.value.value is False
                        for k in (call.keywords if call else [])
                    )
                    out.append((node.name, off))
    return out


def test_the_kernel_runs_without_numbas_runtime() -> None:
    """Every kernel function is ``@njit(..., _nrt=False)``: the kernel allocates no array, and
    without the runtime no call pays for reference counts (a sixth of the search's CPU). One
    function compiled with it would bring the counts back into every function it calls."""
    kernel = sorted((LIB / "search" / "kernel").glob("*.py"))
    found = [(p.name, name, off) for p in kernel for name, off in _jit_without_runtime(p)]
    assert len(found) > 100, "the kernel's compiled functions are found"
    with_runtime = [f"{file}: {name}" for file, name, off in found if not off]
    assert not with_runtime, f"kernel functions compiled with numba's runtime: {with_runtime}"


def test_the_runtime_rule_can_fail(tmp_path: Path) -> None:
    f = tmp_path / "k.py"
    f.write_text(
        "@njit(cache=True)\ndef a(x):\n    return x\n\n\n@njit(cache=True, _nrt=False)\ndef b(x):\n    return x\n"
    )
    assert _jit_without_runtime(f) == [("a", False), ("b", True)]


def _definitions(paths: list[Path]) -> list[tuple[Path, str, str]]:
    out = []
    for p in paths:
        for node in ast.walk(_tree(p)):
            if isinstance(node, ast.ClassDef):
                out.append((p, "class", node.name))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out.append((p, "def", node.name))
    return out


def test_one_sampler_family_in_the_hidden_hand_modules() -> None:
    samplers = [(p, n) for p, kind, n in _definitions(LIB_FILES + _sources(CLI)) if kind == "class" and "Sampler" in n]
    assert samplers
    outside = [f"{p.relative_to(ROOT)}:{n}" for p, n in samplers if (LIB / "hidden") not in p.parents]
    assert not outside, f"a sampler outside lukfu_solver/hidden: {outside}"


def test_one_pimc_core() -> None:
    """Means, standard errors and paired comparisons are computed in one module: a second
    definition of them is a second PIMC engine in the making."""
    core = LIB / "hidden" / "pimc.py"
    pattern = re.compile(r"_?(mean_(se|stderr|std)\w*|p_better\w*|paired\w*|std_?err(or)?)", re.IGNORECASE)
    defs = [(p, n) for p, kind, n in _definitions(LIB_FILES + _sources(CLI)) if kind == "def" and pattern.fullmatch(n)]
    assert any(p == core for p, _ in defs), "the PIMC core defines the estimates"
    outside = [f"{p.relative_to(ROOT)}:{n}" for p, n in defs if p != core]
    assert not outside, f"estimates computed outside the PIMC core: {outside}"


def test_one_solver_factory() -> None:
    """Solvers are built by search.make_solver alone: nothing else constructs the classes."""
    built = []
    for p in LIB_FILES + _sources(CLI) + _sources(BENCH) + _sources(TRAIN):
        if (LIB / "search") in p.parents:
            continue
        for node in ast.walk(_tree(p)):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("CompiledSolver", "Solver")
            ):
                built.append(f"{p.relative_to(ROOT)}:{node.lineno}")
    assert not built, f"solvers built outside search.make_solver: {built}"


@pytest.mark.parametrize("path", _sources(BENCH) + _sources(TRAIN), ids=lambda p: str(p.relative_to(ROOT)))
def test_bench_uses_the_library_only(path: Path) -> None:
    reached = sorted(m for m in _imports(path) if m.split(".")[0] == "lukfu_cli")
    assert not reached, f"{path.relative_to(ROOT)} imports the command line: {reached}"


@pytest.mark.parametrize(
    "path",
    LIB_FILES + _sources(CLI) + _sources(BENCH) + _sources(TRAIN) + _sources(TOOLS),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_no_source_file_over_the_limit(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{path.relative_to(ROOT)} has {lines} lines (at most {MAX_LINES}: split it by job)"


@pytest.mark.parametrize(
    "path",
    LIB_FILES
    + _sources(CLI)
    + _sources(BENCH)
    + _sources(TRAIN)
    + _sources(TOOLS)
    + sorted((ROOT / "docs").rglob("*.md"))
    + [ROOT / "README.md"],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_no_pointer_outside_the_project(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for name in ("SOLVER-NOTES", "STYLE.md", "shared/", "/work/"):
        assert name not in text, f"{path.relative_to(ROOT)} points to {name}, which a user does not have"


def test_the_contract_itself_can_fail(tmp_path: Path) -> None:
    """The import reader sees lazy, relative and by-name imports (else the tests above prove nothing)."""
    pkg = tmp_path / "lukfu_solver" / "search"
    pkg.mkdir(parents=True)
    f = pkg / "x.py"
    f.write_text("def f():\n    from ..hidden import pimc\n    import_module('lukfu_cli.app')\n", encoding="utf-8")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        assert "lukfu_solver.hidden.pimc" in _imports(f)
        assert "lukfu_cli.app" in _named_modules(f)
        assert "lukfu_solver.hidden" in _imports(f)
        assert _layer("lukfu_solver.hidden.pimc") > _layer(_module(f))  # type: ignore[operator]
    finally:
        ROOT = saved


def test_every_package_is_installed() -> None:
    """Every folder of Python files in the library is listed in pyproject.toml's packages, so a
    regular (non-editable) install ships the whole house (CI installs editable, which would not notice)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listed = set(
        re.findall(r'"(lukfu_solver[\w.]*|lukfu_cli[\w.]*)"', text.split("packages = [", 1)[1].split("]", 1)[0])
    )
    folders = {_module(p.parent / "__init__.py") for p in _sources(LIB) + _sources(CLI)}
    assert folders <= listed, f"packages missing from pyproject.toml: {sorted(folders - listed)}"


def test_every_data_file_is_installed() -> None:
    """Every file of the library that is not Python (rules, model, catalogues) matches one of
    pyproject.toml's package-data patterns, so a regular install ships it; CI's editable install
    reads the source tree and would not notice a file left out."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    block = text.split("[tool.setuptools.package-data]", 1)[1].split("[", 2)
    patterns = re.findall(r'"([^"]+)"', block[1].split("]", 1)[0])
    assert patterns, "no package-data patterns found"
    data = [
        p.relative_to(LIB).as_posix()
        for p in LIB.rglob("*")
        if p.is_file() and p.suffix not in {".py", ".pyc"} and "__pycache__" not in p.parts
    ]
    assert data, "the library has no data files: the walk is wrong"
    missing = [f for f in data if not any(fnmatch.fnmatchcase(f, pat) for pat in patterns)]
    assert not missing, f"data files missing from pyproject.toml's package-data: {missing}"


SWITCHES_MODULE = LIB / "search" / "switches.py"


def _assigned_names(path: Path) -> set[str]:
    """Every plain name ``path`` assigns anywhere (``X = ...``, ``X: T = ...``, ``X += ...``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for t in targets:
            for leaf in ast.walk(t):
                if isinstance(leaf, ast.Name):
                    names.add(leaf.id)
    return names


def _switch_names() -> set[str]:
    """The switch list of ``search/switches.py`` (its ``SWITCHES``)."""
    tree = ast.parse(SWITCHES_MODULE.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "SWITCHES" for t in node.targets):
            return {ast.literal_eval(e) for e in node.value.elts}  # type: ignore[attr-defined]
    raise AssertionError("search/switches.py has no SWITCHES list")


def test_each_switch_is_defined_once() -> None:
    """The search's switches are defined in ``search/switches.py`` alone, every one listed there:
    no other module of the library assigns a name of the list (a second definition would let the
    reference and the kernel be switched apart)."""
    switches = _switch_names()
    assert switches and switches <= _assigned_names(SWITCHES_MODULE), "each listed switch is defined there"
    twice = [
        f"{p.relative_to(ROOT)}: {sorted(hit)}"
        for p in LIB_FILES
        if p != SWITCHES_MODULE and (hit := _assigned_names(p) & switches)
    ]
    assert not twice, f"switches defined outside search/switches.py: {twice}"


def test_the_switch_rule_can_fail(tmp_path: Path) -> None:
    """The reader of assignments sees a switch defined again, at module level or inside a function."""
    f = tmp_path / "x.py"
    f.write_text("CALLER_AHEAD = False\ndef g():\n    (TT_MIN_CARDS, y) = ((0, 0, 0), 1)\n", encoding="utf-8")
    assert {"CALLER_AHEAD", "TT_MIN_CARDS"} <= _assigned_names(f) & _switch_names()


WEB = ROOT / "web"


def _web_files() -> list[Path]:
    return sorted(
        p for ext in ("*.py", "*.js", "*.css", "*.html") for p in WEB.rglob(ext) if "__pycache__" not in p.parts
    )


@pytest.mark.parametrize("path", _web_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_web_file_over_the_limit(path: Path) -> None:
    """The browser table's files (Python, JavaScript, CSS, HTML) are split by job too."""
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{path.relative_to(ROOT)} has {lines} lines (at most {MAX_LINES}: split it by job)"


@pytest.mark.parametrize("path", LIB_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_library_never_reaches_the_web_table(path: Path) -> None:
    reached = {
        m for m in _imports(path) | _named_modules(path) if m.split(".")[0] in ("lukfu_web", "starlette", "uvicorn")
    }
    assert not reached, f"{path.relative_to(ROOT)} reaches {sorted(reached)}"


def test_the_command_line_imports_the_web_stack_only_inside_serve() -> None:
    """``lukfu --help`` stays instant: no module of cli/ imports the web stack at its top level."""
    for path in _sources(CLI):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
        names = {a.name for n in top if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module or "" for n in top if isinstance(n, ast.ImportFrom)}
        heavy = sorted(m for m in names if m.split(".")[0] in ("lukfu_web", "starlette", "uvicorn"))
        assert not heavy, f"{path.relative_to(ROOT)} imports {heavy} at its top"


def test_the_web_table_fetches_nothing_from_elsewhere() -> None:
    """No CDN: the page and its files name no other host."""
    for path in _web_files():
        if path.suffix in (".js", ".css", ".html"):
            text = path.read_text(encoding="utf-8")
            found = re.findall(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text)
            others = [u for u in found if not u.endswith("//www.w3.org")]  # the SVG namespace is a name, not a fetch
            assert not others, f"{path.relative_to(ROOT)} names {others}"
