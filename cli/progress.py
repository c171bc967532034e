"""The command line's one progress bar: Rich, on standard error, transient, and only when standard
error is a terminal, so piped or redirected output never holds a bar and stdout stays data.

:func:`progress_bar` builds it; :func:`with_progress` wraps an iterable in it and
:func:`progress_callbacks` hands out ``(done, total)`` callbacks for library loops that report
their own progress (``run_match``, the analyses).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from lukfu_solver.i18n import N_, _

from .output import note, stderr_console

Callback = Callable[[int, int], None]
"""A progress report ``(done, total)``, as the library's long loops call it."""


def progress_bar(*fields: str) -> Any | None:
    """A Rich ``Progress`` on stderr (description, bar, done/total, ``fields``, time elapsed), or
    None when stderr is not a terminal.

    ``fields`` are extra text columns in Rich's format, shown after the count, e.g.
    ``"{task.fields[tried]} deals"``. The bar is transient (it disappears when stopped) and
    does not capture stdout or stderr, so data written meanwhile is left as it is.
    """
    if not sys.stderr.isatty():
        return None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        *(TextColumn(f) for f in fields),
        TimeElapsedColumn(),
        console=stderr_console(),
        transient=True,
        redirect_stdout=False,
        redirect_stderr=False,
    )


def with_progress(items: Iterable[Any], total: int | None, description: str) -> Iterable[Any]:
    """``items`` unchanged, advancing a progress bar by one an item (``total`` None: no end known)."""
    bar = progress_bar()
    if bar is None:
        return items
    return _tracked(bar, items, total, description)


def _tracked(bar: Any, items: Iterable[Any], total: int | None, description: str) -> Iterator[Any]:
    """Yield ``items`` while ``bar`` shows them done one by one."""
    with bar:
        task = bar.add_task(description, total=total)
        for item in items:
            yield item
            bar.advance(task)


@contextlib.contextmanager
def progress_callbacks(show: bool = True) -> Iterator[Callable[..., Callback | None]]:
    """A factory ``(description, total=None)`` of ``(done, total)`` callbacks, each with its own bar
    under one progress display; the factory returns None (report nothing) when stderr is not a
    terminal or ``show`` is false (``--json``). ``total``, when known, shows before the first report."""
    bar = progress_bar() if show else None
    if bar is None:
        yield lambda description, total=None: None
        return

    def factory(description: str, total: int | None = None) -> Callback:
        task = bar.add_task(description, total=total)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return update

    with bar:
        yield factory


COMPILING = N_("Compiling the solver once (about a minute)…")
_kernel_prepared = False


def stderr_is_terminal() -> bool:
    """Whether standard error is a terminal (where a spinner can be shown)."""
    return sys.stderr.isatty()


def prepare_solver() -> None:
    """Make the compiled solver ready before a command's first compiled solve, so no reported
    time includes it: loaded from its disk cache (about a second, silently; ``pip install .``
    ships it) or, where no cache fits (an editable install's first run, another CPU or numba),
    compiled under a spinner on stderr followed by ``compiled in N s`` (when stderr is a
    terminal; silently otherwise). Once a process."""
    global _kernel_prepared
    if _kernel_prepared:
        return
    from lukfu_solver.search.compiled import prepare_kernel
    from lukfu_solver.search.warmup import kernel_ready

    _kernel_prepared = True
    if kernel_ready():
        prepare_kernel()
        return
    if not stderr_is_terminal():  # scripts and pipes: stderr stays for errors and notes they asked for
        prepare_kernel()
        return
    with stderr_console().status(_(COMPILING)):
        seconds = prepare_kernel()
    note(_("compiled in {seconds:.0f} s").format(seconds=seconds))


def kernel_missing() -> bool:
    """Whether the compiled solver would have to be compiled first (not yet in numba's cache)."""
    if _kernel_prepared:
        return False
    from lukfu_solver.search.warmup import kernel_ready

    return not kernel_ready()
