"""Engine moves, hints and reviews as jobs: run in the worker pool, watched from the event loop.

A job is work in :class:`~lukfu_solver.parallel.tasks.TaskPool` for one game, and its state is
one :class:`~lukfu_solver.parallel.tasks.Status`, the pool's own state machine: the pool moves it
to ``running`` when a worker takes the call, and the job ends it here once the result is used
(``done`` with its result, ``failed`` with a one-line message, ``cancelled``); an engine move
whose worker was lost goes back to ``queued`` and is handed out again. The event loop never
waits on the work: it awaits the task's future, and a request asks how the job stands, waiting
at most a few seconds for it to end (a long poll). An engine job applies its move to the game
when it ends, under the game's lock, and saves the record; a worker lost in the middle (killed,
out of memory) is replaced and the move computed again (engine answers are pure functions of
the task, so the game goes on exactly as it would have).

Engine moves and hints come first: they are urgent work, which the pool's reserved worker runs
while reviews fill the others (at a lower CPU priority), so a player's move never waits for
someone's review. Pending
jobs are bounded (:class:`Caps`): in all, for one client (the page's ``X-Lukfu-Client`` id, a
tab; else the connection), and for long work; past a bound the request is refused with a 429
and nothing is queued.
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
from lukfu_solver.i18n import _, ngettext, using_language
from lukfu_solver.parallel import WorkerLost
from lukfu_solver.parallel.tasks import State, Status, Task, TaskCancelled, TaskPool

from . import work
from .errors import Busy, NotEnginesTurn, UnknownJob
from .store import GameStore, LiveGame

ENGINE_PRIORITY, HINT_PRIORITY, REVIEW_PRIORITY = 0, 1, 2
"""Engine moves first (a person waits at the table), then hints, then reviews."""
URGENT = HINT_PRIORITY
"""The priorities the pool's reserved worker runs: engine moves and hints."""
BACKGROUND_NICE = 10
"""The niceness long work runs at (its worker is replaced after it): a review yields the CPU to
engine moves and hints, and to the machine's other work."""
LONG_KINDS = ("review",)
"""The kinds of long work (bounded on their own: they hold a worker for minutes)."""
ENGINE_ATTEMPTS = 3
"""An engine move is computed again this often when its worker is lost."""
KEPT_JOBS = 500
"""Finished jobs remembered (for a late poll); older ones are forgotten."""


@dataclass(frozen=True)
class Caps:
    """The most jobs that may wait or run at once: in all, for one client, of long work."""

    total: int = 64
    client: int = 8
    long: int = 4


@dataclass(eq=False)
class Job:
    """One engine move, hint or review of one game (see the module notes)."""

    id: str
    kind: str
    game: LiveGame
    lang: str
    client: str = ""
    status: Status = field(default_factory=Status)
    task: Task | None = None
    result: Any = None
    error: str | None = None
    created: float = field(default_factory=time.monotonic)
    meta: dict[str, Any] = field(default_factory=dict)
    """Facts the page matches the result with (a hint's ``answers``: the state it is for)."""
    ended: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def finished(self) -> bool:
        """Whether the job has ended (done, failed or cancelled)."""
        return self.status.finished

    def data(self) -> dict[str, Any]:
        """The job as JSON data."""
        progress = self.status.progress
        return {
            "id": self.id,
            "kind": self.kind,
            "game": self.game.id,
            "state": self.status.state.value,
            "progress": None if progress is None else {"done": progress[0], "total": progress[1]},
            "result": self.result,
            "error": self.error,
            "seconds": round(time.monotonic() - self.created, 2),
            **self.meta,
        }


class Jobs:
    """The jobs of every game, over one task pool."""

    def __init__(self, pool: TaskPool | None, store: GameStore, caps: Caps | None = None) -> None:
        self.pool = pool
        self.store = store
        self.caps = caps or Caps()
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.pending: set[Job] = set()
        self.lost_workers = 0
        # job ids from a generator seeded once from the system's randomness (a system call for
        # every id cost 50 us a request here); the token, not the id, keeps others out
        self._ids = random.Random(secrets.randbits(128))

    def get(self, job_id: str) -> Job:
        """The job ``job_id`` (UnknownJob when unknown)."""
        job = self.jobs.get(job_id)
        if job is None:
            raise UnknownJob(job_id)
        return job

    def _pool(self) -> TaskPool:
        """The worker pool (made when the server starts serving)."""
        if self.pool is None:
            raise RuntimeError("the worker pool has not started")
        return self.pool

    def _admit(self, kind: str, client: str) -> None:
        """Refuse (Busy, 429) a job past a cap of :class:`Caps`."""
        caps = self.caps
        mine = sum(1 for j in self.pending if j.client == client)
        long = sum(1 for j in self.pending if j.kind in LONG_KINDS)
        over = (
            (mine >= caps.client, ngettext(
                "you have {n} job waiting or running already; wait for it to end, or stop it",
                "you have {n} jobs waiting or running already; wait for one to end, or stop one",
                mine,
            ).format(n=mine)),
            (kind in LONG_KINDS and long >= caps.long, ngettext(
                "{n} review is waiting or running already; try again when it has ended",
                "{n} reviews are waiting or running already; try again when one has ended",
                long,
            ).format(n=long)),
            (len(self.pending) >= caps.total, _("the engines are busy; try again in a moment")),
        )
        for refused, message in over:
            if refused:
                raise Busy("jobs", message)

    def _new(self, kind: str, game: LiveGame, lang: str, client: str) -> Job:
        job = Job(f"{self._ids.getrandbits(64):016x}", kind, game, lang, client)
        self.jobs[job.id] = job
        self.pending.add(job)
        game.jobs[kind] = job
        while len(self.jobs) > KEPT_JOBS:
            oldest = next(iter(self.jobs.values()))
            if not oldest.finished:
                break
            self.jobs.popitem(last=False)
        return job

    def _end(self, job: Job, state: State, result: Any = None, error: str | None = None) -> bool:
        """End ``job`` in ``state`` (with its result or error); False when it had ended already
        (a cancel and a finish racing: the first one stands)."""
        if not job.status.move(state):
            return False
        job.result, job.error = result, error
        self.pending.discard(job)
        job.ended.set()
        return True

    # ------------------------------------------------------------ starting

    def engine(self, game: LiveGame, lang: str, client: str = "") -> Job:
        """The engine's move now (the running one, if it is already asked for)."""
        running = game.jobs.get("engine")
        if running is not None and not running.finished:
            return running
        if not game.session.waiting_for_engine:
            raise NotEnginesTurn()
        self._admit("engine", client)
        job = self._new("engine", game, lang, client)
        asyncio.get_running_loop().create_task(self._run_engine(job))
        return job

    def finished(self, kind: str, game: LiveGame, lang: str, result: Any, client: str = "") -> Job:
        """A job already done with ``result`` (work made before: a finished deal's review)."""
        job = self._new(kind, game, lang, client)
        self._end(job, State.DONE, result)
        return job

    def analysis(
        self,
        kind: str,
        game: LiveGame,
        lang: str,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        on_done: Callable[[Any], Awaitable[None]] | None = None,
        client: str = "",
    ) -> Job:
        """A hint or review of ``game``: ``fn(*args)`` in the pool, with progress; a previous
        job of the same kind for this game is cancelled (the person asked anew). ``on_done``
        hears of the result (before the job is seen as done)."""
        previous = game.jobs.get(kind)
        if previous is not None and not previous.finished:
            self.cancel(previous)
        self._admit(kind, client)
        job = self._new(kind, game, lang, client)
        priority = HINT_PRIORITY if kind == "hint" else REVIEW_PRIORITY
        with using_language(lang):
            job.task = self._pool().submit(fn, args, priority=priority, progress=True, status=job.status)
        asyncio.get_running_loop().create_task(self._run_analysis(job, on_done))
        return job

    # ------------------------------------------------------------ running

    async def _run_engine(self, job: Job) -> None:
        game = job.game
        try:
            for attempt in range(ENGINE_ATTEMPTS):
                if job.finished:
                    return
                task = game.session.engine_task()
                if attempt:
                    job.status.move(State.QUEUED)  # handed out anew
                with using_language(job.lang):
                    job.task = self._pool().submit(work.engine_move, (task,), priority=ENGINE_PRIORITY, status=job.status)
                try:
                    answer = await asyncio.wrap_future(job.task.future)
                except WorkerLost:
                    self.lost_workers += 1
                    continue
                if job.finished:
                    return  # cancelled while it ran
                async with game.lock:
                    applied = game.session.apply_engine(task, answer)
                    if applied:
                        await self.store.save(game)
                    with using_language(job.lang):
                        result = {"applied": applied, "move": answer, "seat": _seat_of(task.view)}
                self._end(job, State.DONE, result)
                return
            with using_language(job.lang):
                error = "engine: " + _("the engine's worker stopped {n} times; try again").format(n=ENGINE_ATTEMPTS)
            self._end(job, State.FAILED, error=error)
        except (TaskCancelled, asyncio.CancelledError):
            self._end(job, State.CANCELLED)
        except NotationError as err:
            self._end(job, State.FAILED, error=str(err))
        except Exception as err:  # an engine fault: said in one line, the game unchanged
            self._end(job, State.FAILED, error=f"engine: {type(err).__name__}: {err}")

    async def _run_analysis(self, job: Job, on_done: Callable[[Any], Awaitable[None]] | None = None) -> None:
        assert job.task is not None
        try:
            result = await asyncio.wrap_future(job.task.future)
            if job.finished:
                return
            if on_done is not None:
                await on_done(result)
            self._end(job, State.DONE, result)
        except (TaskCancelled, asyncio.CancelledError):
            self._end(job, State.CANCELLED)
        except WorkerLost:
            self.lost_workers += 1
            with using_language(job.lang):
                error = "jobs: " + _("the worker stopped before it finished; ask again")
            self._end(job, State.FAILED, error=error)
        except NotationError as err:
            self._end(job, State.FAILED, error=str(err))
        except Exception as err:
            self._end(job, State.FAILED, error=f"{job.kind}: {type(err).__name__}: {err}")

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
            self._pool().cancel(job.task)
        return self._end(job, State.CANCELLED)

    def cancel_game(self, game: LiveGame) -> None:
        """Stop every job of ``game`` (before an undo or a new move invalidates them)."""
        for job in list(game.jobs.values()):
            self.cancel(job)


def _seat_of(view: str) -> int:
    """The seat of a seat view's text (its first field)."""
    return int(view.split(" ", 1)[0])
