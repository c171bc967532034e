"""Is the compiled solver ready, and making it ready: so a command can announce the one-time
compilation instead of sitting silent, and never count it in a reported solve time.

The kernel (:mod:`lukfu_solver.search.kernel`) is compiled by numba on its first use in a fresh
environment and cached on disk. :func:`kernel_ready` says, cheaply and without importing numba,
whether that cache already holds every entry point the solver calls from Python (read the way
numba reads it: an index file per function, stamped with the numba version and the source
file's digest, or its modification time and size in older numba). :func:`prepare_kernel` compiles, or loads from the cache,
now and returns the seconds it took.

>>> isinstance(kernel_ready(), bool)
True
"""

from __future__ import annotations

import ast
import functools
import hashlib
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
    ("bounds", "value_bounds"),
    ("state", "push"),
    ("state", "tt_key"),
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


def kernel_digest() -> str:
    """A digest of every source file of the kernel: the name of its cache directory.

    numba's on-disk cache checks only the file of the function it compiled, not the files of the
    functions compiled into it, so a change to one phase would leave the cached searches of the
    others stale. A cache directory named for the whole kernel's sources cannot be stale: any
    change to any phase file starts a new one."""
    digest = hashlib.sha256()
    for path in [*sorted(KERNEL_DIR.glob("*.py")), KERNEL_DIR.parent / "switches.py"]:  # (constants it compiles in)
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def kernel_cache_dir() -> Path:
    """Where the compiled kernel is cached: a directory named for :func:`kernel_digest` under
    ``NUMBA_CACHE_DIR`` when it is set, else under ``__pycache__`` beside the kernel when that
    folder is writable, else under the user-wide cache (``~/.cache/lukfu``)."""
    env = os.environ.get("NUMBA_CACHE_DIR")
    if env:
        base = Path(env)
    elif os.access(KERNEL_DIR, os.W_OK):
        base = KERNEL_DIR / "__pycache__"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "lukfu"
    return base / f"kernel-{kernel_digest()}"


def _cache_dirs() -> Iterator[Path]:
    """Where numba keeps the kernel's cache files: numba's subfolder for the source directory
    (its name and a SHA-1 of its path) under :func:`kernel_cache_dir`, which the kernel package
    sets as numba's cache directory before it compiles anything."""
    source_dir = os.path.abspath(KERNEL_DIR)
    yield kernel_cache_dir() / f"{os.path.basename(source_dir)}_{hashlib.sha1(source_dir.encode()).hexdigest()}"


def _stamp_of(index: Path) -> tuple[str, object] | None:
    """``(numba version, source stamp)`` recorded in a numba index file, read without unpickling
    the rest (which would import numba): the stamp is the source's SHA-256 (numba 0.61 and
    later) or its ``(mtime, size)``; None if unreadable."""
    try:
        with open(index, "rb") as f:
            version = pickle.load(f)
            data = f.read()
        mtime: float | None = None
        for op, arg, _ in pickletools.genops(data):
            if op.name in ("SHORT_BINBYTES", "BINBYTES") and mtime is None:
                return str(version), bytes(arg)
            if op.name == "BINFLOAT" and mtime is None:
                mtime = float(arg)
            elif mtime is not None and op.name in ("BININT", "BININT1", "BININT2", "LONG1", "INT"):
                return str(version), (mtime, int(arg))
    except (OSError, pickle.UnpicklingError, ValueError, EOFError):
        return None
    return None


def _entry_ready(module: str, name: str, version: str) -> bool:
    """Whether one entry point has a valid cache entry (numba's own test: the same numba
    version and the same source stamp)."""
    line = _first_lines(module).get(name)
    if line is None:
        return False
    path = KERNEL_DIR / f"{module}.py"
    st = os.stat(path)
    filename = f"{module}.{name}-{line}.py{sys.version_info.major}{sys.version_info.minor}.nbi"
    for directory in _cache_dirs():
        stamp = _stamp_of(directory / filename)
        if stamp is None or stamp[0] != version:
            continue
        if stamp[1] == (st.st_mtime, st.st_size) or stamp[1] == _sha256(path):
            return True
    return False


@functools.cache
def _sha256(path: Path) -> bytes:
    """The SHA-256 digest of a source file (numba's stamp since 0.61)."""
    return hashlib.sha256(path.read_bytes()).digest()


def kernel_ready() -> bool:
    """Whether numba's on-disk cache already holds the compiled kernel (so the first solve only
    loads it, in about a second); False when numba is missing. Cheap: reads a few small files."""
    try:
        version = metadata.version("numba")
    except metadata.PackageNotFoundError:
        return False
    return all(_entry_ready(module, name, version) for module, name in ENTRY_POINTS)


def prepare_kernel() -> float:
    """Compile the kernel now (or load it from the cache); the seconds it took."""
    from .compiled import compile_all

    return compile_all()
