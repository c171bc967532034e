"""The table's web application: the page, its files and the JSON API under ``/api/``.

:func:`create_app` builds a Starlette app around :class:`~.store.GameStore` (the games and their
records), :class:`~.jobs.Jobs` (engine moves, hints and reviews in the worker pool) and
:class:`~.guard.Guard` (token, host, origin, body size). Every handler is ``async`` and does only
quick work on the event loop: the rules, a record, a file write in a thread; anything that
searches goes to the pool. Messages are in the request's language (``?lang=`` or the
``X-Lukfu-Lang`` header); every refusal is a 4xx ``{"error": "field: message"}``, one line.

The API (all JSON; ``GAME`` a game's id, ``JOB`` a job's):

| method and path | what |
| --- | --- |
| ``GET /api/info`` | languages, levels, opponents (the plain strengths first) |
| ``GET /api/i18n/LANG`` | the page's messages in LANG, from the gettext catalogues |
| ``GET /api/games`` | the saved games, most recent first |
| ``POST /api/games`` | a new game ``{seed?, seat?, opponents?, level?}``, or ``{record}`` to resume one |
| ``GET /api/games/GAME`` | the game as the person sees it |
| ``POST /api/games/GAME/move`` | the person's answer ``{move}`` (``play``, ``pass``, ``S7``, ``xC2M4``, ``claim``) |
| ``POST /api/games/GAME/engine?wait=S`` | the engine to move moves: a job (waited for up to S seconds) |
| ``POST /api/games/GAME/undo`` | back to the person's previous decision |
| ``POST /api/games/GAME/hint`` | the hint for the decision in front of the person (at the call: the advice): a job |
| ``POST /api/games/GAME/review`` | the review of the finished deal ``{samples?, max_nodes?, time?}``: a job |
| ``GET /api/games/GAME/record`` | the record, as a file to download |
| ``GET /api/jobs/JOB?wait=S`` | a job's state, progress and result, waiting up to S seconds for its end |
| ``DELETE /api/jobs/JOB`` | cancel a job |
| ``POST /api/replay`` | a record checked and laid out step by step for the replay slider |
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import LANGUAGE_NAMES, LANGUAGES, _, normalize, using_language
from lukfu_solver.inputs import check_int, check_seed, load_json
from lukfu_solver.parallel.tasks import TaskPool
from lukfu_solver.players import STRENGTHS, against_of
from lukfu_solver.players.pimc import DEFAULT_LEVEL, LEVELS
from lukfu_solver.record import MAX_RECORD_BYTES, GameRecord
from lukfu_solver.session import OPPONENT_KINDS, GameSession

from . import review, work
from .catalogue import catalogue
from .guard import Guard
from .jobs import Busy, Jobs
from .replay import replay_steps
from .store import GameStore, LiveGame, UnknownGame

STATIC = files("lukfu_web") / "static"
MAX_WAIT = 20.0
"""The longest a request waits for a job to end (a long poll)."""


@dataclass
class Config:
    """What ``lukfu serve`` starts the app with."""

    data: Path
    token: str
    port: int
    host: str = "127.0.0.1"
    workers: int = 2
    max_live: int = 64
    max_body: int = MAX_RECORD_BYTES + 4096
    max_waiting: int = 16


class Table:
    """The app's state: the games, the jobs and the pool (made when the server starts)."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.store = GameStore(config.data, config.max_live)
        self.pool: TaskPool | None = None
        self.jobs: Jobs | None = None

    def start(self) -> None:
        """Start the worker pool (in the server's process, when it starts serving)."""
        self.pool = TaskPool(self.config.workers, warmup=work.warm)
        self.jobs = Jobs(self.pool, self.store, self.config.max_waiting)

    def stop(self) -> None:
        """Stop every job and worker (the records are already saved)."""
        if self.pool is not None:
            self.pool.close()


Handler = Callable[[Request, Table, str], Awaitable[Response]]


def lang_of(request: Request) -> str:
    """The request's language: ``?lang=`` or the ``X-Lukfu-Lang`` header, English otherwise."""
    given = request.query_params.get("lang") or request.headers.get("x-lukfu-lang") or "en"
    return normalize(given) or "en"


def error(status: int, message: str) -> JSONResponse:
    """A one-line refusal."""
    return JSONResponse({"error": message.replace("\n", " ")}, status_code=status)


STATUS = {"game": 404, "job": 404, "engine": 409, "undo": 409, "review": 409, "jobs": 429}
"""The status of a refusal by the field it names (bad input otherwise: 400)."""


def endpoint(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """A handler with the table and the language given, its NotationError a 4xx."""

    async def run(request: Request) -> Response:
        table: Table = request.app.state.table
        lang = lang_of(request)
        try:
            return await handler(request, table, lang)
        except NotationError as err:
            with using_language(lang):
                status = 429 if isinstance(err, Busy) else 404 if isinstance(err, UnknownGame) else STATUS.get(err.field, 400)
                return error(status, str(err))

    return run


async def body_of(request: Request, lang: str) -> dict[str, Any]:
    """The request's JSON object (checked: size, depth, numbers, a JSON object)."""
    raw = await request.body()
    with using_language(lang):
        data = load_json(raw or b"{}", "body", MAX_RECORD_BYTES + 4096)
        if not isinstance(data, dict):
            raise NotationError("body", _("expected a JSON object"))
    return data


def game_data(game: LiveGame, lang: str) -> dict[str, Any]:
    """The game's state for the page, with its id and the jobs running for it."""
    with using_language(lang):
        data = game.session.state()
    data["id"] = game.id
    data["waiting_for_engine"] = game.session.waiting_for_engine
    data["jobs"] = {kind: job.data() for kind, job in game.jobs.items() if not job.finished}
    return data


# ---------------------------------------------------------------- the page


async def page(request: Request) -> Response:
    """The table's page, with the token for its API calls (the page is served only with it)."""
    table: Table = request.app.state.table
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    html = html.replace("{{TOKEN}}", table.config.token).replace("{{LANG}}", lang_of(request))
    return Response(html, media_type="text/html; charset=utf-8", headers={"cache-control": "no-store"})


async def info(request: Request, table: Table, lang: str) -> Response:
    """What the page offers: languages, levels, opponents (the plain strengths, then the engines)."""
    return JSONResponse(
        {
            "languages": [{"code": c, "name": LANGUAGE_NAMES[c]} for c in LANGUAGES],
            "levels": sorted(LEVELS),
            "default_level": DEFAULT_LEVEL,
            "opponents": [*STRENGTHS, *OPPONENT_KINDS],
            "strengths": list(STRENGTHS),
            "review": True,
        }
    )


async def messages(request: Request, table: Table, lang: str) -> Response:
    """The page's messages in one language (``/api/i18n/LANG``)."""
    code = normalize(request.path_params["lang"])
    if code is None:
        with using_language(lang):
            raise NotationError(
                "lang",
                _("unknown language {code!r}: one of {choices}").format(
                    code=request.path_params["lang"][:20], choices=", ".join(LANGUAGES)
                ),
            )
    return JSONResponse(catalogue(code), headers={"cache-control": "max-age=3600"})


# ---------------------------------------------------------------- games


async def list_games(request: Request, table: Table, lang: str) -> Response:
    """The saved games."""
    return JSONResponse({"games": await asyncio.to_thread(table.store.listing)})


async def new_game(request: Request, table: Table, lang: str) -> Response:
    """A new game, or a game resumed from its record."""
    data = await body_of(request, lang)
    with using_language(lang):
        if "record" in data:
            record = GameRecord.from_json(data["record"])
            record.replay()
            session = GameSession.from_record(record)
        else:
            unknown = sorted(set(data) - {"seed", "seat", "opponents", "level"})
            if unknown:
                raise NotationError("body", _("unknown key {key}").format(key=repr(unknown[0])[:40]))
            seed = data.get("seed")
            seed = random.SystemRandom().randrange(2**32) if seed is None else check_seed(seed)
            seat = data.get("seat")
            if seat is not None:
                seat = check_int(seat, "seat", 0, 2)
            level = check_int(data.get("level", DEFAULT_LEVEL), "level", 1, 5)
            opponents = data.get("opponents", ["easy"])
            if isinstance(opponents, str):
                opponents = [opponents]
            if not isinstance(opponents, list) or not all(isinstance(o, str) for o in opponents):
                raise NotationError("opponents", _("expected a list of players"))
            session = GameSession.new(seed, seat, opponents, level)
    game = await table.store.create(session)
    return JSONResponse(game_data(game, lang), status_code=201)


async def get_game(request: Request, table: Table, lang: str) -> Response:
    """The game as the person sees it."""
    game = await table.store.get(request.path_params["game"], lang)
    return JSONResponse(game_data(game, lang))


async def move(request: Request, table: Table, lang: str) -> Response:
    """The person's answer, checked; the game saved."""
    data = await body_of(request, lang)
    game = await table.store.get(request.path_params["game"], lang)
    with using_language(lang):
        text = data.get("move")
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise NotationError("move", _("expected a move as text, e.g. S7, C5S5M5, S345, xC2M4, claim"))
    async with game.lock:
        with using_language(lang):
            game.session.apply(text)
        await _save(table, game)
    return JSONResponse(game_data(game, lang))


async def engine(request: Request, table: Table, lang: str) -> Response:
    """The engine's move, as a job; with ``?wait=S`` the answer waits up to S seconds for it (a
    quick move then takes one request, with the game's new state)."""
    assert table.jobs is not None
    game = await table.store.get(request.path_params["game"], lang)
    with using_language(lang):
        job = table.jobs.engine(game, lang)
        wait = wait_of(request)
    await table.jobs.wait(job, wait)
    return JSONResponse(job_data(job, lang), status_code=200 if job.finished else 202)


def wait_of(request: Request) -> float:
    """The ``?wait=`` seconds of a request (0 to :data:`MAX_WAIT`)."""
    try:
        return min(MAX_WAIT, max(0.0, float(request.query_params.get("wait", "0"))))
    except ValueError:
        raise NotationError("wait", _("expected a number of seconds")) from None


def job_data(job: Any, lang: str) -> dict[str, Any]:
    """A job as JSON; an ended engine job carries the game's state after it."""
    data = job.data()
    if job.kind == "engine" and job.finished:
        data["state_of_game"] = game_data(job.game, lang)
    return data


async def undo(request: Request, table: Table, lang: str) -> Response:
    """Back to the person's previous decision (the engine's and the hint's work stopped)."""
    assert table.jobs is not None
    game = await table.store.get(request.path_params["game"], lang)
    table.jobs.cancel_game(game)
    async with game.lock:
        with using_language(lang):
            game.session.undo()
        await _save(table, game)
    return JSONResponse(game_data(game, lang))


async def hint(request: Request, table: Table, lang: str) -> Response:
    """The hint for the person's decision, as a job."""
    assert table.jobs is not None
    game = await table.store.get(request.path_params["game"], lang)
    with using_language(lang):
        s = game.session
        if not s.choices():
            raise NotationError("engine", _("a hint is for your own turn"))
        args = (str(s.view()), s.level, s.seed, False, against_of(s.specs))
        job = table.jobs.analysis("hint", game, lang, work.hint, args)
        job.meta["answers"] = len(s.answers)
    return JSONResponse(job.data(), status_code=202)


async def review_game(request: Request, table: Table, lang: str) -> Response:
    """The review of the finished deal (``{samples?, max_nodes?, time?}`` as ``lukfu review``'s
    options), as a job; one made before with the same options is answered at once (done)."""
    assert table.jobs is not None
    data = await body_of(request, lang)
    game = await table.store.get(request.path_params["game"], lang)
    with using_language(lang):
        if game.session.phase != "over":
            raise NotationError("review", _("the review comes when the deal is over"))
        options = review.review_options(data)
    key = json.dumps(options, sort_keys=True)
    made = await table.store.saved_review(game, key)
    if made is not None:
        return JSONResponse(table.jobs.finished("review", game, lang, made).data())
    args = (game.session.record.dumps(), game.session.human_seat, options)

    async def keep(result: Any) -> None:
        await table.store.keep_review(game, key, result)

    with using_language(lang):
        job = table.jobs.analysis("review", game, lang, review.review_data, args, on_done=keep)
    return JSONResponse(job.data(), status_code=202)


async def record(request: Request, table: Table, lang: str) -> Response:
    """The game's record as a file (``lukfu replay`` reads it)."""
    game = await table.store.get(request.path_params["game"], lang)
    text = game.session.record.dumps() + "\n"
    name = f"lukfu-{game.session.seed}-{game.id[:6]}.json"
    return Response(
        text, media_type="application/json", headers={"content-disposition": f'attachment; filename="{name}"'}
    )


async def _save(table: Table, game: LiveGame) -> None:
    """Write the game's record (in a thread: the answer waits for it, the event loop does not; a
    busy disk takes milliseconds to rename a file)."""
    await table.store.save(game)


# ---------------------------------------------------------------- jobs and replays


async def get_job(request: Request, table: Table, lang: str) -> Response:
    """A job's state, waiting up to ``?wait=`` seconds for its end."""
    assert table.jobs is not None
    with using_language(lang):
        job = table.jobs.get(request.path_params["job"])
        wait = wait_of(request)
    await table.jobs.wait(job, wait)
    return JSONResponse(job_data(job, lang))


async def cancel_job(request: Request, table: Table, lang: str) -> Response:
    """Cancel a job."""
    assert table.jobs is not None
    with using_language(lang):
        job = table.jobs.get(request.path_params["job"])
    table.jobs.cancel(job)
    return JSONResponse(job.data())


async def replay(request: Request, table: Table, lang: str) -> Response:
    """A record checked (structure and rules) and laid out step by step."""
    data = await body_of(request, lang)
    with using_language(lang):
        if "record" not in data:
            raise NotationError("record", _("missing"))
        rec = GameRecord.from_json(data["record"])
        steps = replay_steps(rec)
    return JSONResponse({"record": rec.to_json(), "steps": steps})


async def not_found(request: Request, exc: Exception) -> Response:
    """An address the API does not have: a one-line 404."""
    with using_language(lang_of(request)):
        return error(404, "path: " + _("no such address"))


async def not_allowed(request: Request, exc: Exception) -> Response:
    """A method the address does not take: a one-line 405."""
    with using_language(lang_of(request)):
        return error(405, "method: " + _("{method} is not used here").format(method=request.method[:10]))


def create_app(config: Config, start_pool: bool = True) -> Guard:
    """The app behind its guard; the worker pool starts with the server (``start_pool``)."""
    table = Table(config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if start_pool:
            table.start()
        try:
            yield
        finally:
            table.stop()

    routes = [
        Route("/", page),
        Route("/api/info", endpoint(info)),
        Route("/api/i18n/{lang}", endpoint(messages)),
        Route("/api/games", endpoint(list_games), methods=["GET"]),
        Route("/api/games", endpoint(new_game), methods=["POST"]),
        Route("/api/games/{game}", endpoint(get_game)),
        Route("/api/games/{game}/move", endpoint(move), methods=["POST"]),
        Route("/api/games/{game}/engine", endpoint(engine), methods=["POST"]),
        Route("/api/games/{game}/undo", endpoint(undo), methods=["POST"]),
        Route("/api/games/{game}/hint", endpoint(hint), methods=["POST"]),
        Route("/api/games/{game}/review", endpoint(review_game), methods=["POST"]),
        Route("/api/games/{game}/record", endpoint(record)),
        Route("/api/jobs/{job}", endpoint(get_job), methods=["GET"]),
        Route("/api/jobs/{job}", endpoint(cancel_job), methods=["DELETE"]),
        Route("/api/replay", endpoint(replay), methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={404: not_found, 405: not_allowed})
    app.state.table = table
    names = () if config.host in ("127.0.0.1", "::1", "0.0.0.0", "::", "localhost") else (config.host,)
    return Guard(app, config.token, config.port, names, config.max_body)
