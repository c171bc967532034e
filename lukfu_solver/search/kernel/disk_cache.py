"""Where numba keeps the compiled kernel on disk: set up by the kernel package around the import of
its phases (the folders and the digest are :mod:`lukfu_solver.search.warmup`'s).

numba names a function's cache folder for the absolute path of its source folder and stamps each
entry with the hash of the function's own file, so a cache made in one checkout or install is
never found from another, and a change to a file whose functions were compiled into it goes
unnoticed. Here every kernel function is cached in
:func:`~lukfu_solver.search.warmup.kernel_cache_dir` and stamped with
:func:`~lukfu_solver.search.warmup.kernel_digest` (the whole kernel and the constants it reads),
so the same kernel anywhere on the machine finds the same entries and a changed kernel finds
none. An entry missing there is looked for in the cache shipped in the package
(:data:`~lukfu_solver.search.warmup.SHIPPED_DIR`, compiled when its wheel was built). numba's
own checks still decide what loads: its version, and for each entry the signature, the target
machine (CPU name and features) and the function's bytecode; anything else is a miss and compiles.

A cache that cannot be read or written is never an error: an unreadable entry is a miss, and a
compile that cannot be saved stays in its process.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from types import ModuleType
from typing import Any

from numba.core.caching import CacheImpl, CompileResultCacheImpl, FunctionCache, IndexDataCacheFile, _CacheLocator
from numba.core.registry import CPUDispatcher

from ..warmup import KERNEL_DIR, SHIPPED_DIR, kernel_cache_dir, kernel_digest

_KERNEL = os.path.realpath(KERNEL_DIR)


class KernelLocator(_CacheLocator):
    """numba's cache locator for the kernel's functions (and no others): the kernel's cache
    folder, whatever the path of the source, and the kernel's digest as every entry's stamp."""

    path = ""
    stamp = ""

    def __init__(self, py_func: Any, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno

    def get_cache_path(self) -> str:
        return self.path or str(kernel_cache_dir())

    def get_source_stamp(self) -> str:
        return self.stamp or kernel_digest()

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> KernelLocator | None:
        """A locator for a function of the kernel's own files, else None (numba asks the next
        locator). Nothing is created here: a folder that cannot be written is not an error."""
        if os.path.dirname(os.path.realpath(py_file)) != _KERNEL:
            return None
        return cls(py_func, py_file)


class KernelCacheImpl(CompileResultCacheImpl):
    """numba's compile-result cache, located by :class:`KernelLocator` only."""

    _locator_classes = [KernelLocator]


class KernelCache(FunctionCache):
    """One kernel function's cache: loaded from the kernel's cache folder or else from the
    shipped one, saved to the cache folder; a failure to read is a miss, a failure to save is
    ignored."""

    _impl_class = KernelCacheImpl

    def __init__(self, py_func: Any) -> None:
        super().__init__(py_func)
        self._shipped = IndexDataCacheFile(
            cache_path=str(SHIPPED_DIR),
            filename_base=self._impl.filename_base,
            source_stamp=self._impl.locator.get_source_stamp(),
        )

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        if not self._enabled:
            return None
        for cache_file in (self._cache_file, self._shipped):
            try:
                target_context.refresh()
                payload = cache_file.load(self._index_key(sig, target_context.codegen()))
                if payload is not None:
                    return self._impl.rebuild(target_context, payload)
            except Exception:  # noqa: BLE001 (a truncated, foreign or unreadable entry is a miss: compile)
                continue
        return None

    def save_overload(self, sig: Any, data: Any) -> None:
        for attempt in range(2):
            try:
                super().save_overload(sig, data)
                return
            except OSError:  # a read-only or full disk: the process keeps its compile
                return
            except Exception:  # noqa: BLE001 (an unreadable index: started anew, once; else kept in the process)
                if attempt == 0:
                    try:
                        self._cache_file.flush()
                    except OSError:
                        return


def register() -> None:
    """Put :class:`KernelLocator` first in numba's list, before the phases are decorated, so
    that ``cache=True`` sets up each kernel function's cache in the kernel's folder and nowhere
    else (numba's default would make a ``__pycache__`` beside the installed kernel, or fail at
    import where nothing can be written)."""
    KernelLocator.path = str(kernel_cache_dir())
    KernelLocator.stamp = kernel_digest()
    if KernelLocator not in CacheImpl._locator_classes:
        CacheImpl._locator_classes.insert(0, KernelLocator)


def use_kernel_cache(modules: Iterable[ModuleType]) -> None:
    """Give every cached kernel function of ``modules`` a :class:`KernelCache`."""
    for module in modules:
        for fn in vars(module).values():
            if (
                isinstance(fn, CPUDispatcher)
                and fn.__module__ == module.__name__
                and isinstance(fn._cache, FunctionCache)
            ):
                fn._cache = KernelCache(fn.py_func)
