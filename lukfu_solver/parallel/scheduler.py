"""What a ``--scheduler`` names and what can go wrong reaching it: the scheduler's spec, its
parser, and the faults of parallel work, shared by the local pools (:mod:`lukfu_solver.parallel`)
and the Dask backend (:mod:`.cluster`), each of which imports them from here.

>>> parse_scheduler("local:3"), parse_scheduler("tcp://127.0.0.1:8786").address
(SchedulerSpec(address=None, local_workers=3), 'tcp://127.0.0.1:8786')
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ..errors import NotationError
from ..i18n import _


class SchedulerUnreachable(NotationError):
    """A Dask scheduler that cannot be reached (or has no workers), found before any work starts.

    A :class:`NotationError` on the field ``scheduler``, so the command line reports it like any
    bad input: one line, exit 2.

    >>> str(SchedulerUnreachable("cannot reach tcp://127.0.0.1:9 within 5 s"))
    'scheduler: cannot reach tcp://127.0.0.1:9 within 5 s'
    """

    def __init__(self, message: str) -> None:
        super().__init__("scheduler", message)


class ClusterLost(NotationError):
    """The scheduler went away mid-batch (its connection lost, the pending tasks with it): one
    line on the field ``scheduler``, after the results already written, which stand."""

    def __init__(self, message: str) -> None:
        super().__init__("scheduler", message)


class WorkerLost(RuntimeError):
    """A worker process of a local pool ended in the middle of the work (killed, out of memory,
    crashed): the batch cannot finish, so the caller hears of it at once instead of waiting for
    a result that will never come. The results already given stand."""

    def __init__(self) -> None:
        super().__init__(_("a worker process stopped unexpectedly; the results already written stand"))


@dataclass(frozen=True)
class SchedulerSpec:
    """Where batch work runs: the ``address`` of a running scheduler, or ``local_workers``
    worker processes of a ``LocalCluster`` started for this run (exactly one is set)."""

    address: str | None = None
    local_workers: int | None = None

    def __str__(self) -> str:
        return self.address if self.address is not None else f"local:{self.local_workers}"


_ADDRESS = re.compile(r"(?:(tcp|tls|ws|wss|inproc|ucx)://)?([^\s/:]+|\[[0-9a-fA-F:]+\]):(\d{1,5})")


def parse_scheduler(text: str) -> SchedulerSpec:
    """The scheduler named by ``--scheduler``: ``local`` (a worker process per core),
    ``local:N``, or an address ``tcp://host:port`` (``host:port`` means tcp). A NotationError on
    the field ``scheduler`` otherwise.

    >>> parse_scheduler("127.0.0.1:8786").address
    'tcp://127.0.0.1:8786'
    >>> parse_scheduler("local:0")
    Traceback (most recent call last):
    ...
    lukfu_solver.errors.NotationError: scheduler: local:N needs N of at least 1 worker, got 0
    """
    text = text.strip()
    if text == "local" or text.startswith("local:"):
        count = text.partition(":")[2] or str(os.cpu_count() or 1)
        if not count.isdigit():
            raise NotationError(
                "scheduler", _("local:N needs a whole number of workers, got {count!r}").format(count=count)
            )
        if int(count) < 1:
            raise NotationError("scheduler", _("local:N needs N of at least 1 worker, got {count}").format(count=count))
        return SchedulerSpec(local_workers=int(count))
    match = _ADDRESS.fullmatch(text)
    if match is None or not 0 < int(match.group(3)) < 65536:
        raise NotationError(
            "scheduler", _("expected local[:N] or an address tcp://HOST:PORT, got {text!r}").format(text=text)
        )
    return SchedulerSpec(address=text if match.group(1) else f"tcp://{text}")
