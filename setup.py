"""The build step of ``pip install .``: the package as ``pyproject.toml`` describes it, with the
kernel compiled into it.

After setuptools has copied the package into the build folder, the numba kernel of that copy is
compiled (``lukfu_solver.search.compiled.prepare_kernel``, in a fresh interpreter, with the numba of
``build-system.requires``) and its cache added to the wheel as package data
(``lukfu_solver/search/kernel/compiled/``): the first command after the install loads the kernel
instead of compiling it (what each costs: ``docs/getting-started.md``, "The first run"). The compile lands in the
machine's kernel cache as any compile does, so building the same kernel again only copies it.

An editable install (``pip install -e``) ships nothing: its kernel compiles on first use, into
the same machine-wide cache. A build where the compile fails still succeeds, with a warning;
the first use then compiles, announced. ``LUKFU_COMPILE_KERNEL=0`` builds a wheel without it
(for another machine: the shipped cache loads only on a CPU like the build machine's).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

KERNEL = Path("lukfu_solver", "search", "kernel")
COMPILE = (
    "from lukfu_solver.search.compiled import prepare_kernel\n"
    "from lukfu_solver.search.warmup import kernel_cache_dir\n"
    "seconds = prepare_kernel()\n"
    "print(kernel_cache_dir())\n"
    "print(f'{seconds:.1f}')\n"
)


def compile_into(lib: Path) -> str:
    """Compile the kernel of the package copied to ``lib`` and put its cache beside it, in
    ``compiled/``; a line saying what was done (or why not: the wheel is then built without it)."""
    shipped = lib / KERNEL / "compiled"
    shutil.rmtree(shipped, ignore_errors=True)  # never a cache left by an earlier build
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(lib.resolve()), env.get("PYTHONPATH")) if p)
    proc = subprocess.run(
        [sys.executable, "-c", COMPILE], cwd=lib, env=env, capture_output=True, text=True, check=False
    )
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or len(lines) < 2:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return f"warning: the kernel was not compiled ({tail}); its first use will compile it"
    cache = Path(lines[-2])
    files = sorted(p for p in cache.glob("*") if p.suffix in (".nbi", ".nbc"))
    shipped.mkdir(parents=True)
    for path in files:
        shutil.copyfile(path, shipped / path.name)
    if lib.resolve() in cache.resolve().parents:  # compiled inside the build folder: not twice in the wheel
        shutil.rmtree(cache.parent, ignore_errors=True)
    size = sum(p.stat().st_size for p in shipped.iterdir()) / 2**20
    return f"kernel ready in {lines[-1]} s: {len(files)} files, {size:.1f} MiB in {shipped.relative_to(lib)}"


class BuildWithKernel(build_py):
    """``build_py``, then the compiled kernel added to the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False) or os.environ.get("LUKFU_COMPILE_KERNEL") == "0":
            return
        print("compiling the solver's kernel (once per machine; a copy if this machine has it)", flush=True)
        print(compile_into(Path(self.build_lib)), flush=True)


if __name__ == "__main__":  # as setuptools runs it; a test imports compile_into alone
    setup(cmdclass={"build_py": BuildWithKernel})
