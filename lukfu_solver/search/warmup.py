"""Is the compiled solver ready, and making it ready: so a command can announce the one-time
compilation instead of sitting silent, and never count it in a reported solve time.

The kernel (:mod:`lukfu_solver.search.kernel`) is compiled by numba and cached on disk, keyed by
:func:`kernel_digest` (its sources and the constants it reads from outside) rather than by where
it is installed, so one compile serves every checkout and install of the same kernel on a
machine (:mod:`lukfu_solver.search.kernel.disk_cache`). ``pip install .`` compiles it while it
builds the wheel and ships the result in the package (:data:`SHIPPED_DIR`), so the first command
after an install only loads it. :func:`kernel_ready` says, cheaply and without importing numba,
whether a cache this process can load holds every entry point the solver calls from Python:
read the way numba reads it (an index file per function, stamped with the numba version and the
kernel's digest, keyed by this machine's CPU name and features). Loading or compiling it is
:func:`lukfu_solver.search.compiled.prepare_kernel`'s job, under :func:`compile_lock`.

>>> isinstance(kernel_ready(), bool)
True
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import importlib
import os
import pickle
import pickletools
import sys
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

KERNEL_DIR = Path(__file__).parent / "kernel"
ENTRY_POINTS = (
    ("alphabeta", "search"),
    ("alphabeta", "schedule"),
    ("alphabeta", "ordered_moves"),
    ("alphabeta", "node_key"),
    ("bounds", "value_bounds"),
    ("state", "push"),
    ("state", "tt_key"),
    ("table", "tt_bounds"),
    ("table", "tt_grow"),
    ("table", "tt_lookup_move"),
)
"""The kernel functions :mod:`lukfu_solver.search.compiled` calls from Python on every solve (the
ones :func:`~lukfu_solver.search.compiled.compile_all` compiles), by module and name: each has its
own cache entry, and the functions they call are compiled with them."""


@functools.cache
def _first_lines(module: str) -> dict[str, int]:
    """The first line (its first decorator's) of each top-level function of a kernel module,
    which is the line numba writes in the cache file's name."""
    tree = ast.parse((KERNEL_DIR / f"{module}.py").read_text(encoding="utf-8"))
    lines = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            lines[node.name] = min([node.lineno] + [d.lineno for d in node.decorator_list])
    return lines


SHIPPED_DIR = KERNEL_DIR / "compiled"
"""The kernel compiled while the package's wheel was built (``setup.py``), shipped in the
package: read only, and used only where numba's own checks (its version, this machine's CPU, the
kernel's digest) accept it. A source checkout has none."""

_PACKAGE = "lukfu_solver.search.kernel"
_DATA = (int, float, complex, str, bytes, bool, type(None))


def _is_data(value: object) -> bool:
    """Whether a value is plain data (numbers, strings, tuples of them): numba freezes such a
    global into the compiled code as a constant."""
    if isinstance(value, _DATA):
        return True
    if isinstance(value, tuple | frozenset):
        return all(_is_data(v) for v in value)
    return False


def _outside_imports(kernel_dir: Path) -> list[tuple[str, str]]:
    """``(module, name)`` of every name a kernel module imports from the rest of ``lukfu_solver``
    (relative imports leaving the kernel package, or absolute ones naming ``lukfu_solver``)."""
    found = set()
    for path in sorted(kernel_dir.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_bytes())):
            if not isinstance(node, ast.ImportFrom) or node.level == 1:
                continue
            if node.level == 0:
                module = node.module or ""
                if not module.startswith("lukfu_solver") or module.startswith(_PACKAGE):
                    continue
            else:
                base = _PACKAGE.rsplit(".", node.level - 1)[0]
                module = f"{base}.{node.module}" if node.module else base
            found.update((module, alias.name) for alias in node.names)
    return sorted(found)


def _outside_bytes(module: str, name: str) -> bytes:
    """What the kernel reads through one outside import: a constant's value (its repr), else the
    source file of the module that defines it (a function, a class, a module), which is safe
    whatever the kernel does with it."""
    mod = importlib.import_module(module)
    if name == "*":
        value: object = mod
    elif hasattr(mod, name):
        value = getattr(mod, name)
    else:
        value = importlib.import_module(f"{module}.{name}")
    if _is_data(value):
        return repr(value).encode()
    if not isinstance(value, type(mod)):
        defined_in = getattr(value, "__module__", None) if hasattr(value, "__qualname__") else None
        value = sys.modules.get(defined_in or "", mod)
    file = getattr(value, "__file__", None)
    return Path(file).read_bytes() if file else repr(value).encode()


def _stat_key(kernel_dir: Path) -> tuple[tuple[str, int, int], ...]:
    """The kernel's files by name, modification time and size: a changed file is hashed anew."""
    return tuple((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in sorted(kernel_dir.glob("*.py")))


@functools.cache
def _digest(kernel_dir: Path, stats: tuple[tuple[str, int, int], ...]) -> str:
    """:func:`kernel_digest` of one kernel folder in one state of its files."""
    digest = hashlib.sha256()
    for path in sorted(kernel_dir.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    for module, name in _outside_imports(kernel_dir):
        digest.update(f"{module}:{name}".encode() + b"\0" + _outside_bytes(module, name) + b"\0")
    return digest.hexdigest()[:16]


def kernel_digest() -> str:
    """A digest of everything the compiled kernel is made from: every source file of the kernel,
    and the value of every constant it imports from the rest of the package (numba compiles such
    a global into the code as a constant; ``cards.UNBEATABLE_LEAD``, ``position.HAND_SIZE``...).

    It names the kernel's cache folder and stamps every cache entry. numba's own stamp is the
    hash of the function's file alone, so a change to one phase (or to a card constant) would
    leave the cached searches compiled against the old one loadable; an entry stamped with this
    digest cannot be stale, wherever the kernel is installed."""
    return _digest(KERNEL_DIR, _stat_key(KERNEL_DIR))


def _creatable(path: Path) -> bool:
    """Whether a folder exists and is writable, or could be made (its nearest existing ancestor
    is a writable folder); nothing is created."""
    for p in (path, *path.parents):
        if p.exists():
            return p.is_dir() and os.access(p, os.W_OK | os.X_OK)
    return False


def _user_cache() -> Path | None:
    """The user's cache folder (``XDG_CACHE_HOME``, else ``~/.cache``); None without a home."""
    env = os.environ.get("XDG_CACHE_HOME")
    if env and os.path.isabs(env):
        return Path(env)
    try:
        return Path.home() / ".cache"
    except RuntimeError:
        return None


def kernel_cache_dir() -> Path:
    """Where this process loads the compiled kernel from first and saves what it compiles: a
    folder named for :func:`kernel_digest` under ``NUMBA_CACHE_DIR`` when it is set, else under
    the user's cache folder (``$XDG_CACHE_HOME/lukfu``, by default ``~/.cache/lukfu``), shared by
    every checkout and install of the same kernel; else, when that cannot be written, under
    ``__pycache__`` beside the kernel. When nothing can be written, each process compiles for
    itself (announced) and answers all the same."""
    name = f"kernel-{kernel_digest()}"
    env = os.environ.get("NUMBA_CACHE_DIR")
    if env:
        return Path(env) / name
    user = _user_cache()
    in_tree = KERNEL_DIR / "__pycache__" / name
    if user is not None and (_creatable(user / "lukfu") or not _creatable(in_tree)):
        return user / "lukfu" / name
    return in_tree


def _index_facts(index: Path) -> tuple[str, object, set[str]] | None:
    """``(numba version, stamp, strings)`` of a numba index file, read without unpickling its
    body (which would import numba): the stamp is the first string or bytes of the body, and the
    strings include each entry's target machine (CPU name and feature string); None if
    unreadable."""
    try:
        with open(index, "rb") as f:
            version = pickle.load(f)
            data = f.read()
        stamp: object = None
        strings: set[str] = set()
        for op, arg, _ in pickletools.genops(data):
            text = op.name in ("SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE")
            if text:
                strings.add(arg)
            if stamp is None and (text or op.name in ("SHORT_BINBYTES", "BINBYTES", "BINBYTES8")):
                stamp = arg
    except (OSError, pickle.UnpicklingError, ValueError, EOFError, TypeError, AttributeError, ImportError):
        return None
    return str(version), stamp, strings


@functools.cache
def _host() -> tuple[str, tuple[str, ...]]:
    """This machine's CPU name and feature strings as numba's code generator names them
    (llvmlite's, as numba reads them; the second without AVX, numba's setting for CPUs and
    systems where AVX is off)."""
    import llvmlite.binding as ll

    try:
        features = ll.get_host_cpu_features()
    except RuntimeError:
        return ll.get_host_cpu_name(), ("",)
    full = features.flatten()
    for key in features:
        if key.startswith("avx"):
            features[key] = False
    return ll.get_host_cpu_name(), (full, features.flatten())


def _machine() -> tuple[str, tuple[str, ...]] | None:
    """The CPU name and the feature strings numba keys this process's cache entries by: the
    host's, or those ``NUMBA_CPU_NAME`` and ``NUMBA_CPU_FEATURES`` set; None without llvmlite."""
    try:
        host_name, host_features = _host()
    except (ImportError, OSError):
        return None
    name = os.environ.get("NUMBA_CPU_NAME") or host_name
    features = os.environ.get("NUMBA_CPU_FEATURES")
    if features is None and name.lower() == "generic":
        features = ""
    return name, (host_features if features is None else (features,))


def _entry_ready(module: str, name: str, version: str, machine: tuple[str, tuple[str, ...]]) -> bool:
    """Whether one entry point has a cache entry this process loads (numba's own test: the same
    numba version, the same stamp, this machine), in :func:`kernel_cache_dir` or
    :data:`SHIPPED_DIR`."""
    line = _first_lines(module).get(name)
    if line is None:
        return False
    abiflags = getattr(sys, "abiflags", "")
    filename = f"{module}.{name}-{line}.py{sys.version_info.major}{sys.version_info.minor}{abiflags}.nbi"
    digest = kernel_digest()
    cpu, feature_sets = machine
    for directory in (kernel_cache_dir(), SHIPPED_DIR):
        facts = _index_facts(directory / filename)
        if facts is None or facts[0] != version or facts[1] != digest:
            continue
        if cpu in facts[2] and any(f in facts[2] for f in feature_sets):
            return True
    return False


def kernel_ready() -> bool:
    """Whether a cache this process loads already holds the compiled kernel (so the first solve
    only loads it, in about a second); False when numba is missing. Cheap: reads a few small
    files (and asks llvmlite for the CPU's name)."""
    try:
        version = metadata.version("numba")
    except metadata.PackageNotFoundError:
        return False
    machine = _machine()
    if machine is None:
        return False
    return all(_entry_ready(module, name, version, machine) for module, name in ENTRY_POINTS)


@contextlib.contextmanager
def compile_lock() -> Iterator[None]:
    """Hold the lock on compiling this kernel into :func:`kernel_cache_dir`, so processes started
    together (a ``--jobs`` pool, Dask workers) compile it once: the others wait, then load it.
    Where no lock can be taken (no ``fcntl``, a folder that cannot be written) there is none, and
    each process compiles for itself, as numba allows."""
    fd = None
    try:
        import fcntl

        directory = kernel_cache_dir()
        directory.mkdir(parents=True, exist_ok=True)
        fd = os.open(directory / "compile.lock", os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(fd, fcntl.LOCK_EX)
    except (ImportError, OSError):
        pass
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)
