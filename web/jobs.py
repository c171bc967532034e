"""Engine moves, hints and reviews as jobs: run in the worker pool, watched from the event loop.

A job is one call in :class:`~lukfu_solver.parallel.tasks.TaskPool` for one game. The event
loop never waits on it: it awaits the task's future, and a request asks how the job stands
(``queued``, ``running`` with its progress, ``done`` with its result, ``failed`` with a one-line
message, ``cancelled``), waiting at most a few seconds for it to end (a long poll). An engine
job applies its move to the game when it ends, under the game's lock, and saves the record; a
worker lost in the middle (killed, out of memory) is replaced and the move computed again
(engine answers are pure functions of the task, so the game goes on exactly as it would have).
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _, using_language
from lukfu_solver.parallel import WorkerLost
from lukfu_solver.parallel.tasks import Task, TaskCancelled, TaskPool

from . import work
from .store import GameStore, LiveGame

ENGINE_PRIORITY, HINT_PRIORITY, REVIEW_PRIORITY = 0, 1, 2
"""Engine moves first (a person waits at the table), then hints, then reviews."""
ENGINE_ATTEMPTS = 3
"""An engine move is computed again this often when its worker is lost."""
KEPT_JOBS = 500
"""Finished jobs remembered (for a late poll); older ones are forgotten."""


class Busy(NotationError):
    """Too much analysis waits already: the request is refused (429), nothing is queued."""

    def __init__(self) -> None:
        super().__init__("jobs", _("the engines are busy; try again in a moment"))


@dataclass(eq=False)
class Job:
    """One engine move, hint or review of one game (see the module notes)."""

    id: str
    kind: str
    game: LiveGame
    lang: str
    task: Task | None = None
    state: str = "queued"
    result: Any = None
    error: str | None = None
    created: float = field(default_factory=time.monotonic)
    meta: dict[str, Any] = field(default_factory=dict)
    """Facts the page matches the result with (a hint's ``answers``: the state it is for)."""
    ended: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def finished(self) -> bool:
        """Whether the job has ended (done, failed or cancelled)."""
        return self.state in ("done", "failed", "cancelled")

    def data(self) -> dict[str, Any]:
        """The job as JSON data."""
        state = self.state
        if state in ("queued", "running") and self.task is not None:
            state = self.task.state if self.task.state in ("queued", "running") else state
        progress = self.task.progress if self.task is not None else None
        return {
            "id": self.id,
            "kind": self.kind,
            "game": self.game.id,
            "state": state,
            "progress": None if progress is None else {"done": progress[0], "total": progress[1]},
            "result": self.result,
            "error": self.error,
            "seconds": round(time.monotonic() - self.created, 2),
            **self.meta,
        }


class Jobs:
    """The jobs of every game, over one task pool."""

    def __init__(self, pool: TaskPool, store: GameStore, max_waiting: int = 16) -> None:
        self.pool = pool
        self.store = store
        self.max_waiting = max_waiting
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.lost_workers = 0
        # job ids from a generator seeded once from the system's randomness (a system call for
        # every id cost 50 us a request here); the token, not the id, keeps others out
        self._ids = random.Random(secrets.randbits(128))

    def get(self, job_id: str) -> Job:
        """The job ``job_id`` (NotationError ``job`` when unknown)."""
        job = self.jobs.get(job_id)
        if job is None:
            raise NotationError("job", _("no job {id}").format(id=job_id[:32]))
        return job

    def _new(self, kind: str, game: LiveGame, lang: str) -> Job:
        job = Job(f"{self._ids.getrandbits(64):016x}", kind, game, lang)
        self.jobs[job.id] = job
        game.jobs[kind] = job
        while len(self.jobs) > KEPT_JOBS:
            oldest = next(iter(self.jobs.values()))
            if not oldest.finished:
                break
            self.jobs.popitem(last=False)
        return job

    def _analysis_waiting(self) -> int:
        return sum(1 for j in self.jobs.values() if j.kind != "engine" and not j.finished)

    # ------------------------------------------------------------ starting

    def engine(self, game: LiveGame, lang: str) -> Job:
        """The engine's move now (the running one, if it is already asked for)."""
        running = game.jobs.get("engine")
        if running is not None and not running.finished:
            return running
        if not game.session.waiting_for_engine:
            raise NotationError("engine", _("it is not an engine's turn"))
        job = self._new("engine", game, lang)
        asyncio.get_running_loop().create_task(self._run_engine(job))
        return job

    def finished(self, kind: str, game: LiveGame, lang: str, result: Any) -> Job:
        """A job already done with ``result`` (work made before: a finished deal's review)."""
        job = self._new(kind, game, lang)
        job.result, job.state = result, "done"
        job.ended.set()
        return job

    def analysis(
        self,
        kind: str,
        game: LiveGame,
        lang: str,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        on_done: Callable[[Any], Awaitable[None]] | None = None,
    ) -> Job:
        """A hint or review of ``game``: ``fn(*args)`` in the pool, with progress; a previous
        job of the same kind for this game is cancelled (the person asked anew). ``on_done``
        hears of the result (before the job is seen as done)."""
        previous = game.jobs.get(kind)
        if previous is not None and not previous.finished:
            self.cancel(previous)
        if self._analysis_waiting() >= self.max_waiting:
            raise Busy()
        job = self._new(kind, game, lang)
        priority = HINT_PRIORITY if kind == "hint" else REVIEW_PRIORITY
        with using_language(lang):
            job.task = self.pool.submit(fn, args, priority=priority, progress=True)
        asyncio.get_running_loop().create_task(self._run_analysis(job, on_done))
        return job

    # ------------------------------------------------------------ running

    async def _run_engine(self, job: Job) -> None:
        game = job.game
        try:
            for _attempt in range(ENGINE_ATTEMPTS):
                task = game.session.engine_task()
                with using_language(job.lang):
                    job.task = self.pool.submit(work.engine_move, (task,), priority=ENGINE_PRIORITY)
                job.state = "running"
                try:
                    answer = await asyncio.wrap_future(job.task.future)
                except WorkerLost:
                    self.lost_workers += 1
                    continue
                if job.state == "cancelled":
                    return
                async with game.lock:
                    applied = game.session.apply_engine(task, answer)
                    if applied:
                        await self.store.save(game)
                    with using_language(job.lang):
                        job.result = {"applied": applied, "move": answer, "seat": _seat_of(task.view)}
                job.state = "done"
                return
            with using_language(job.lang):
                job.error = "engine: " + _("the engine's worker stopped {n} times; try again").format(n=ENGINE_ATTEMPTS)
            job.state = "failed"
        except TaskCancelled:
            job.state = "cancelled"
        except NotationError as err:
            job.error, job.state = str(err), "failed"
        except Exception as err:  # an engine fault: said in one line, the game unchanged
            job.error, job.state = f"engine: {type(err).__name__}: {err}", "failed"
        finally:
            job.ended.set()

    async def _run_analysis(self, job: Job, on_done: Callable[[Any], Awaitable[None]] | None = None) -> None:
        assert job.task is not None
        try:
            job.state = "running"
            result = await asyncio.wrap_future(job.task.future)
            if on_done is not None:
                await on_done(result)
            job.result = result
            job.state = "done"
        except (TaskCancelled, asyncio.CancelledError):
            job.state = "cancelled"
        except WorkerLost:
            self.lost_workers += 1
            with using_language(job.lang):
                job.error = "jobs: " + _("the worker stopped before it finished; ask again")
            job.state = "failed"
        except NotationError as err:
            job.error, job.state = str(err), "failed"
        except Exception as err:
            job.error, job.state = f"{job.kind}: {type(err).__name__}: {err}", "failed"
        finally:
            job.ended.set()

    # ------------------------------------------------------------ watching and stopping

    async def wait(self, job: Job, seconds: float) -> Job:
        """Wait at most ``seconds`` for ``job`` to end (it goes on either way)."""
        if seconds > 0 and not job.finished:
            try:
                await asyncio.wait_for(asyncio.shield(job.ended.wait()), seconds)
            except asyncio.TimeoutError:
                pass
        return job

    def cancel(self, job: Job) -> bool:
        """Stop ``job`` (its worker is stopped and replaced); False when it had ended."""
        if job.finished:
            return False
        if job.task is not None:
            self.pool.cancel(job.task)
        job.state = "cancelled"
        job.ended.set()
        return True

    def cancel_game(self, game: LiveGame) -> None:
        """Stop every job of ``game`` (before an undo or a new move invalidates them)."""
        for job in list(game.jobs.values()):
            self.cancel(job)


def _seat_of(view: str) -> int:
    """The seat of a seat view's text (its first field)."""
    return int(view.split(" ", 1)[0])
