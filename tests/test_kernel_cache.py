"""The compiled kernel's disk cache (``search/kernel/disk_cache.py``, ``search/warmup.py``): one
cache for every copy of the same kernel on a machine, the cache shipped in the package, and what
is never loaded (a changed kernel, another CPU, another numba version, an unreadable file).

The real kernel's cases use the cache the session compiled (``conftest.py``) and never compile
it again; the cases that must compile use a one-line toy function cached by the same classes.
"""

from __future__ import annotations

import importlib.util
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lukfu_solver.search import warmup

REPO = Path(__file__).resolve().parent.parent

COMPILES = r"""
import json, sys
from numba.core import event

compiled = []


class Compiles(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__name__)

    def on_end(self, ev):
        pass


event.register("numba:compile", Compiles())
from lukfu_solver.search.compiled import prepare_kernel
from lukfu_solver.search.warmup import kernel_ready

ready = kernel_ready()
prepare_kernel()
import lukfu_solver
print(json.dumps({"ready": ready, "compiled": compiled, "file": lukfu_solver.__file__}))
"""
"""Whether the kernel was ready, and what numba compiled while the solver was prepared."""


def copy_package(dest: Path) -> Path:
    """A copy of the source package (without caches) under ``dest``, as another checkout."""
    shutil.copytree(REPO / "lukfu_solver", dest / "lukfu_solver", ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def run_prepare(tree: Path, **env: str) -> dict:
    """Prepare the kernel of the package in ``tree`` in a fresh interpreter."""
    full = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1", **env)
    out = subprocess.run(
        [sys.executable, "-c", COMPILES], cwd=tree, env=full, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr
    assert out.stderr == "", out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def cache_files() -> list[Path]:
    """The session's compiled kernel (the conftest compiled it before the first test)."""
    files = [p for p in warmup.kernel_cache_dir().glob("*") if p.suffix in (".nbi", ".nbc")]
    assert files and warmup.kernel_ready()
    return files


def test_a_cache_made_under_one_path_loads_under_another(tmp_path: Path) -> None:
    cache_files()
    tree = copy_package(tmp_path / "elsewhere")
    res = run_prepare(tree)
    assert res["file"].startswith(str(tree))  # the copy, not the source tree
    assert res["ready"] is True
    assert res["compiled"] == []


def test_the_shipped_cache_loads_where_nothing_can_be_written(tmp_path: Path) -> None:
    """A fresh install: the cache compiled into the package, an empty (here: impossible) user
    cache; the kernel loads from the package, compiles nothing and writes nothing."""
    files = cache_files()
    tree = copy_package(tmp_path / "site-packages")
    shipped = tree / "lukfu_solver" / "search" / "kernel" / "compiled"
    shipped.mkdir()
    for f in files:
        shutil.copyfile(f, shipped / f.name)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    res = run_prepare(tree, NUMBA_CACHE_DIR=str(blocker / "cache"))
    assert res["ready"] is True and res["compiled"] == []
    assert sorted(p.name for p in shipped.iterdir()) == sorted(f.name for f in files)


def test_a_changed_kernel_is_not_ready_anywhere(tmp_path: Path) -> None:
    files = cache_files()
    tree = copy_package(tmp_path / "changed")
    kernel = tree / "lukfu_solver" / "search" / "kernel"
    (kernel / "compiled").mkdir()
    for f in files:
        shutil.copyfile(f, kernel / "compiled" / f.name)
    (kernel / "moves.py").write_text((kernel / "moves.py").read_text() + "\n# changed\n")
    code = "from lukfu_solver.search import warmup; print(warmup.kernel_ready(), warmup.kernel_digest())"
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True, check=True)
    ready, digest = out.stdout.split()
    assert ready == "False" and digest != warmup.kernel_digest()


def test_another_cpu_is_not_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    cache_files()
    monkeypatch.setenv("NUMBA_CPU_NAME", "generic")  # numba would key this process's entries so
    assert warmup.kernel_ready() is False
    monkeypatch.delenv("NUMBA_CPU_NAME")
    monkeypatch.setenv("NUMBA_CPU_FEATURES", "+sse2")
    assert warmup.kernel_ready() is False


def test_another_numba_version_is_not_ready(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = cache_files()
    for f in files:
        data = f.read_bytes()
        if f.suffix == ".nbi":
            with open(f, "rb") as fh:
                pickle.load(fh)
                data = pickle.dumps("0.1.0", protocol=-1) + fh.read()
        (tmp_path / f.name).write_bytes(data)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "empty"))
    monkeypatch.setattr(warmup, "SHIPPED_DIR", tmp_path)
    assert warmup.kernel_ready() is False
    for f in files:  # the same files with the right version: ready (the test above is not vacuous)
        shutil.copyfile(f, tmp_path / f.name)
    monkeypatch.setattr(warmup, "SHIPPED_DIR", tmp_path)
    assert warmup.kernel_ready() is True


def test_the_digest_covers_the_constants_the_kernel_imports(monkeypatch: pytest.MonkeyPatch) -> None:
    from lukfu_solver import cards

    imports = warmup._outside_imports(warmup.KERNEL_DIR)
    assert ("lukfu_solver.cards", "UNBEATABLE_LEAD") in imports
    assert ("lukfu_solver.search.table_key", "BELOW_TOP9") in imports  # imported inside a function
    before = warmup.kernel_digest()
    monkeypatch.setattr(cards, "UNBEATABLE_LEAD", cards.UNBEATABLE_LEAD ^ 1)
    warmup._digest.cache_clear()
    try:
        assert warmup.kernel_digest() != before
    finally:
        monkeypatch.undo()
        warmup._digest.cache_clear()
    assert warmup.kernel_digest() == before


def test_every_kernel_function_uses_the_kernel_cache() -> None:
    from numba.core.registry import CPUDispatcher

    from lukfu_solver.search.kernel import alphabeta, bounds, disk_cache, state

    found = [fn for m in (alphabeta, bounds, state) for fn in vars(m).values() if isinstance(fn, CPUDispatcher)]
    assert len(found) > 20
    for fn in found:
        assert isinstance(fn._cache, disk_cache.KernelCache), fn
        assert fn._cache.cache_path == str(warmup.kernel_cache_dir())


def test_the_build_step_ships_a_cache_that_a_fresh_install_loads(tmp_path: Path) -> None:
    """``setup.py``'s build step on a copied package (as in ``build/lib``): the machine's cache
    is copied into the package, and that copy alone serves a process with an empty user cache."""
    cache_files()
    spec = importlib.util.spec_from_file_location("lukfu_setup", REPO / "setup.py")
    assert spec is not None and spec.loader is not None
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)
    lib = copy_package(tmp_path / "lib")
    line = setup.compile_into(lib)
    assert line.startswith("kernel ready"), line
    shipped = lib / "lukfu_solver" / "search" / "kernel" / "compiled"
    assert any(p.suffix == ".nbc" for p in shipped.iterdir())
    assert not (lib / "lukfu_solver" / "search" / "kernel" / "__pycache__").exists()
    res = run_prepare(lib, NUMBA_CACHE_DIR=str(tmp_path / "empty"))
    assert res["ready"] is True and res["compiled"] == []


def test_processes_compiling_at_once_take_turns(tmp_path: Path) -> None:
    """The compile lock: a second process waits for the first's compile instead of compiling
    beside it (a --jobs pool or Dask workers started together on a fresh machine)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    hold = (
        "import time; from lukfu_solver.search import warmup\n"
        "with warmup.compile_lock():\n    print('held', flush=True); time.sleep(2)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", hold], env=env, stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        wait = "import time; from lukfu_solver.search import warmup\nt = time.time()\nwith warmup.compile_lock():\n    print(time.time() - t)"
        out = subprocess.run(
            [sys.executable, "-c", wait], env=env, capture_output=True, text=True, check=True, cwd=REPO
        )
        assert float(out.stdout) > 0.5
    finally:
        holder.wait(timeout=30)


# ------------------------------------------------------------------ the cache's behaviour, on a toy

TOY = "from numba import njit\n\n\n@njit(cache=True)\ndef inc(x):\n    return x + 1\n"


class Toy:
    """A one-line numba function in its own folder, cached by the kernel's classes at ``path``
    (and ``shipped``) with ``stamp`` as if it were a kernel function; each :meth:`call` is a
    fresh dispatcher, as in a new process: it loads from disk or compiles."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        from lukfu_solver.search.kernel import disk_cache

        self.disk_cache, self.monkeypatch = disk_cache, monkeypatch
        self.folder = tmp_path / "toy"
        self.folder.mkdir()
        (self.folder / "toy.py").write_text(TOY)
        monkeypatch.setattr(disk_cache, "_KERNEL", os.path.realpath(self.folder))
        self.count = 0

    def call(self, path: Path, stamp: str = "a", shipped: Path | None = None) -> dict[str, int]:
        """Call the toy once; numba's cache hits and misses."""
        self.monkeypatch.setattr(self.disk_cache.KernelLocator, "path", str(path))
        self.monkeypatch.setattr(self.disk_cache.KernelLocator, "stamp", stamp)
        self.monkeypatch.setattr(self.disk_cache, "SHIPPED_DIR", shipped or path.parent / "no-shipped")
        self.count += 1
        spec = importlib.util.spec_from_file_location(f"toy_{id(self)}_{self.count}", self.folder / "toy.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        self.disk_cache.use_kernel_cache([module])
        assert module.inc(41) == 42
        stats = module.inc.stats
        return {"hits": sum(stats.cache_hits.values()), "misses": sum(stats.cache_misses.values())}


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Toy:
    return Toy(tmp_path, monkeypatch)


def test_toy_compiles_once_then_loads(toy: Toy, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert toy.call(cache) == {"hits": 0, "misses": 1}
    assert any(cache.glob("toy.inc-*.nbi"))
    assert toy.call(cache) == {"hits": 1, "misses": 0}


def test_toy_stale_or_foreign_entries_are_ignored_and_recompiled(
    toy: Toy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from numba.core.codegen import JITCPUCodegen

    cache = tmp_path / "cache"
    toy.call(cache, stamp="old kernel")
    assert toy.call(cache, stamp="new kernel")["misses"] == 1  # another digest: stale
    assert toy.call(cache, stamp="new kernel")["hits"] == 1  # and recompiled into the cache
    for index in cache.glob("*.nbi"):  # another numba version wrote the index
        with open(index, "rb") as f:
            pickle.load(f)
            rest = f.read()
        index.write_bytes(pickle.dumps("0.1.0", protocol=-1) + rest)
    assert toy.call(cache, stamp="new kernel")["misses"] == 1
    magic = JITCPUCodegen.magic_tuple
    monkeypatch.setattr(JITCPUCodegen, "magic_tuple", lambda self: (*magic(self)[:1], "othercpu", "+other"))
    assert toy.call(cache, stamp="new kernel")["misses"] == 1  # another CPU


def test_toy_unreadable_entries_and_unwritable_folders_are_no_error(toy: Toy, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    toy.call(cache)
    for index in cache.glob("*.nbi"):
        index.write_bytes(b"\x80\x04garbage")
    assert toy.call(cache)["misses"] == 1  # an unreadable index: compiled, no error
    assert toy.call(cache)["hits"] == 1  # and saved over it
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert toy.call(blocker / "cache")["misses"] == 1  # nowhere to save: compiled, no error


def test_toy_loads_from_the_shipped_cache(toy: Toy, tmp_path: Path) -> None:
    shipped = tmp_path / "shipped"
    toy.call(shipped)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert toy.call(blocker / "cache", shipped=shipped)["hits"] == 1
    user = tmp_path / "user"
    assert toy.call(user, shipped=shipped)["hits"] == 1
    assert not user.exists() or not any(user.iterdir())  # loading writes nothing


TOY_RUN = r"""
import os, sys
from lukfu_solver.search.kernel import disk_cache

folder, path = sys.argv[1:3]
disk_cache._KERNEL = os.path.realpath(folder)
disk_cache.KernelLocator.path, disk_cache.KernelLocator.stamp = path, "a"
sys.path.insert(0, folder)
import toy

disk_cache.use_kernel_cache([toy])
print(toy.inc(41))
"""


def test_toy_processes_compiling_at_once_all_answer(tmp_path: Path) -> None:
    folder = tmp_path / "toy"
    folder.mkdir()
    (folder / "toy.py").write_text(TOY)
    args = [str(folder), str(tmp_path / "cache")]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    procs = [
        subprocess.Popen([sys.executable, "-c", TOY_RUN, *args], env=env, stdout=subprocess.PIPE, text=True, cwd=REPO)
        for _ in range(3)
    ]
    for p in procs:
        out, _ = p.communicate(timeout=300)
        assert p.returncode == 0 and out.strip() == "42"
    assert any((tmp_path / "cache").glob("toy.inc-*.nbc"))
