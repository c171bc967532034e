"""The table's web application: the page, its files and the JSON API under ``/api/``.

:func:`create_app` builds a Starlette app around :class:`~.store.GameStore` (the games and their
records), :class:`~.jobs.Jobs` (engine moves, hints and reviews in the worker pool) and
:class:`~.guard.Guard` (token, host, origin, body size). Every handler is ``async`` and does only
quick work on the event loop: the rules, a record, a file write in a thread; anything that
searches goes to the pool. Messages are in the request's language (``?lang=`` or the
``X-Lukfu-Lang`` header); every refusal is ``{"error": "field: message"}``, one line, with the
status of its class (:mod:`.errors`: one exception handler for each class), or for a browser
that asked for a page an HTML page in its language (:mod:`.pages`).

The API (all JSON; ``GAME`` a game's id, ``JOB`` a job's):

| method and path | what |
| --- | --- |
| ``GET /api/info`` | languages, levels, opponents (the plain strengths first) |
| ``GET /api/i18n/LANG`` | the page's messages in LANG, from the gettext catalogues |
| ``GET /api/games?limit=N&before=C&finished=B`` | the saved games, most recent first, a page at a time, the damaged ones named |
| ``POST /api/games`` | a new game ``{seed?, seat?, opponents?, level?}``, or ``{record}`` to resume one |
| ``GET /api/games/GAME`` | the game as the person sees it |
| ``POST /api/games/GAME/move`` | the person's answer ``{move}`` (``play``, ``pass``, ``S7``, ``xC2M4``, ``claim``) |
| ``POST /api/games/GAME/engine?wait=S`` | the engine to move moves: a job (waited for up to S seconds) |
| ``POST /api/games/GAME/undo`` | back to the person's previous decision |
| ``POST /api/games/GAME/hint`` | the hint for the decision in front of the person (at the call: the advice): a job |
| ``POST /api/games/GAME/review`` | the review of the finished deal ``{samples?, max_nodes?, time?}``: a job |
| ``GET /api/games/GAME/record`` | the record, as a file to download |
| ``POST /api/sessions`` | a session of ``{deals}`` deals (and a new game's options), with its first deal |
| ``GET /api/sessions?limit=N&before=C&finished=B`` | the sessions, the one played last first, a page at a time |
| ``GET /api/sessions/SESSION`` | a session: its people, a row a deal played, the totals, the current deal |
| ``POST /api/sessions/SESSION/deal`` | deal ``{deal: k}`` of a session, made once deal k - 1 is over |
| ``GET /api/standing`` | your record of play: deals and points a deal against each strength |
| ``GET /api/jobs/JOB?wait=S`` | a job's state, progress and result, waiting up to S seconds for its end |
| ``DELETE /api/jobs/JOB`` | cancel a job |
| ``POST /api/replay`` | a record checked and laid out step by step for the replay slider |
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import LANGUAGE_NAMES, LANGUAGES, _, normalize, using_language
from lukfu_solver.inputs import (
    MAX_BODY_BYTES,
    MAX_MOVE_TEXT,
    MAX_PAGE,
    MAX_WAIT_SECONDS,
    check_int,
    check_seed,
    load_json,
    parse_int,
)
from lukfu_solver.parallel.tasks import TaskPool
from lukfu_solver.players import STRENGTHS, against_of
from lukfu_solver.players.pimc import DEFAULT_LEVEL, LEVELS
from lukfu_solver.record import GameRecord
from lukfu_solver.series import MAX_SESSION, DealSeries
from lukfu_solver.session import OPPONENT_KINDS, GameSession
from lukfu_solver.standing import MIN_DEALS, standing

from . import review, work
from .catalogue import catalogue
from .errors import STATUS, DealNotOver, NothingToUndo, NotYourTurn, status_of
from .guard import Guard
from .jobs import BACKGROUND_NICE, URGENT, Caps, Jobs
from .listing import Listing
from .pages import HTML_TYPE, html_body, json_body, page_language, wants_html
from .replay import replay_steps
from .sessions import Sessions
from .store import GameStore, LiveGame

STATIC = files("lukfu_web") / "static"
CLIENT = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A client's id (``X-Lukfu-Client``: the page makes one for each tab)."""


@dataclass
class Config:
    """What ``lukfu serve`` starts the app with. ``reserved`` workers run only engine moves and
    hints (None: one when there are two workers or more); ``caps`` bound the pending jobs;
    ``max_disk`` the games folder's bytes (None: no bound)."""

    data: Path
    token: str
    port: int
    host: str = "127.0.0.1"
    workers: int = 2
    max_live: int = 64
    max_body: int = MAX_BODY_BYTES
    caps: Caps = field(default_factory=Caps)
    max_disk: int | None = None
    reserved: int | None = None


class Table:
    """The app's state: the games, the jobs and the pool (made when the server starts)."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.store = GameStore(config.data, config.max_live, config.max_disk)
        self.listing = Listing(self.store)
        self.sessions = Sessions(self.store, self.listing)
        self.standing: tuple[int, dict[str, Any]] | None = None
        """Your record of play as last summed, with the version of the list's entries it was summed from."""
        self.pool: TaskPool | None = None
        self.jobs = Jobs(None, self.store, config.caps)

    def start(self) -> None:
        """Start the worker pool (in the server's process, when it starts serving)."""
        workers = self.config.workers
        reserved = self.config.reserved if self.config.reserved is not None else min(1, workers - 1)
        self.pool = self.jobs.pool = TaskPool(
            workers, warmup=work.warm, reserved=reserved, urgent=URGENT, background_nice=BACKGROUND_NICE
        )

    def stop(self) -> None:
        """Stop every job and worker (the records are already saved)."""
        if self.pool is not None:
            self.pool.close()


Handler = Callable[[Request, Table, str], Awaitable[Response]]


def lang_of(request: Request) -> str:
    """The request's language: ``?lang=`` or the ``X-Lukfu-Lang`` header; for a browser asking
    for a page, its ``Accept-Language`` next; English otherwise."""
    h = request.headers
    browser = h.get("accept-language") if wants_html(request.method, h.get("accept", "")) else None
    return page_language(request.query_params.get("lang"), h.get("x-lukfu-lang"), browser)


def client_of(request: Request) -> str:
    """Who asks, for the per-client cap on jobs: the ``X-Lukfu-Client`` id the page sends (one
    for each tab), else the connection (an API client's keep-alive connection is one client)."""
    given = request.headers.get("x-lukfu-client")
    if given is not None:
        if not CLIENT.fullmatch(given):
            raise NotationError("client", _("expected an id of 1-64 letters, digits, _ or -"))
        return "id:" + given
    peer = request.client
    return f"connection:{peer.host}:{peer.port}" if peer is not None else "connection:?"


def endpoint(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """A handler with the table and the language given (its refusals reach the handlers of
    their classes: :func:`refusal`)."""

    async def run(request: Request) -> Response:
        return await handler(request, request.app.state.table, lang_of(request))

    return run


def refused(request: Request, status: int, message: str) -> Response:
    """A refusal: one-line JSON, or an HTML page for a browser that asked for one."""
    headers = {"retry-after": "2"} if status == 429 else {}
    if wants_html(request.method, request.headers.get("accept", "")):
        lang = lang_of(request)
        with using_language(lang):
            body = html_body(status, message, lang)
        return Response(body, status_code=status, media_type=HTML_TYPE[1].decode(), headers=headers)
    return Response(json_body(message), status_code=status, media_type="application/json", headers=headers)


async def refusal(request: Request, exc: Exception) -> Response:
    """The answer to a refusal of any class of :data:`~.errors.STATUS`: its class's status."""
    assert isinstance(exc, NotationError)
    return refused(request, status_of(exc), str(exc))


async def body_of(request: Request, lang: str) -> dict[str, Any]:
    """The request's JSON object (checked: size, depth, numbers, a JSON object)."""
    raw = await request.body()
    with using_language(lang):
        data = load_json(raw or b"{}", "body", MAX_BODY_BYTES)
        if not isinstance(data, dict):
            raise NotationError("body", _("expected a JSON object"))
    return data


def game_data(game: LiveGame, lang: str) -> dict[str, Any]:
    """The game's state for the page, with its id and the jobs running for it."""
    with using_language(lang):
        data = game.session.state()
    data["id"] = game.id
    data["series"] = None if game.series is None else {"id": game.series[0], "deal": game.series[1]}
    data["waiting_for_engine"] = game.session.waiting_for_engine
    data["jobs"] = {kind: job.data() for kind, job in game.jobs.items() if not job.finished}
    return data


# ---------------------------------------------------------------- the page


async def page(request: Request) -> Response:
    """The table's page. It holds nothing private, so it is served without the token (the door
    has refused a wrong ``?token=``): the page takes the token from its address, keeps it in the
    tab's ``sessionStorage`` and sends it as a header with every call."""
    q = request.query_params
    lang = page_language(q.get("lang"), request.headers.get("x-lukfu-lang"), request.headers.get("accept-language"))
    html = (STATIC / "index.html").read_text(encoding="utf-8").replace("{{LANG}}", lang)
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


def page_options(request: Request, lang: str) -> tuple[int, bool | None]:
    """A list's ``?limit=`` (1 to :data:`~lukfu_solver.inputs.MAX_PAGE`) and ``?finished=`` (None: all)."""
    q = request.query_params
    with using_language(lang):
        limit = parse_int(q.get("limit", str(MAX_PAGE)), "limit", 1, MAX_PAGE)
        finished = {None: None, "true": True, "1": True, "false": False, "0": False}.get(q.get("finished"), "bad")
        if finished == "bad":
            raise NotationError("finished", _("expected true or false"))
    return limit, finished  # type: ignore[return-value]


async def list_games(request: Request, table: Table, lang: str) -> Response:
    """The saved games, a page at a time (``?limit=``, ``?before=``, ``?finished=``)."""
    limit, finished = page_options(request, lang)
    page_of = await table.listing.page(lang, limit, request.query_params.get("before"), finished)
    return JSONResponse(page_of)


def game_options(data: dict[str, Any], more: tuple[str, ...] = ()) -> dict[str, Any]:
    """A new game's options from a request's body: ``seed`` (random when not given), ``seat``
    (None: as the seed deals it), ``opponents`` (a list, or one as text), ``level``; the keys
    ``more`` are allowed too (checked by the caller). Any other key is bad input."""
    unknown = sorted(set(data) - {"seed", "seat", "opponents", "level", *more})
    if unknown:
        raise NotationError("body", _("unknown key {key}").format(key=repr(unknown[0])[:40]))
    seed = data.get("seed")
    seed = random.SystemRandom().randrange(2**32) if seed is None else check_seed(seed)
    seat = data.get("seat")
    if seat is not None:
        seat = check_int(seat, "seat", 0, 2)
    level = check_int(data.get("level", DEFAULT_LEVEL), "level", min(LEVELS), max(LEVELS))
    opponents = data.get("opponents", ["easy"])
    if isinstance(opponents, str):
        opponents = [opponents]
    if not isinstance(opponents, list) or not all(isinstance(o, str) for o in opponents):
        raise NotationError("opponents", _("expected a list of players"))
    return {"seed": seed, "seat": seat, "opponents": opponents, "level": level}


async def new_game(request: Request, table: Table, lang: str) -> Response:
    """A new game, or a game resumed from its record."""
    data = await body_of(request, lang)
    with using_language(lang):
        if "record" in data:
            record = GameRecord.from_json(data["record"])
            record.replay()
            session = GameSession.from_record(record)
        else:
            session = GameSession.new(**game_options(data))
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
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_MOVE_TEXT:
            raise NotationError("move", _("expected a move as text, e.g. S7, C5S5M5, S345, xC2M4, claim"))
    async with game.lock:
        with using_language(lang):
            game.session.apply(text)
        await _save(table, game)
    return JSONResponse(game_data(game, lang))


async def engine(request: Request, table: Table, lang: str) -> Response:
    """The engine's move, as a job; with ``?wait=S`` the answer waits up to S seconds for it (a
    quick move then takes one request, with the game's new state)."""
    game = await table.store.get(request.path_params["game"], lang)
    with using_language(lang):
        wait = wait_of(request)
        job = table.jobs.engine(game, lang, client_of(request))
    await table.jobs.wait(job, wait)
    return JSONResponse(job_data(job, lang), status_code=200 if job.finished else 202)


def wait_of(request: Request) -> float:
    """The ``?wait=`` seconds of a request (0 to :data:`~lukfu_solver.inputs.MAX_WAIT_SECONDS`)."""
    text = request.query_params.get("wait", "0")
    try:
        seconds = float(text[:40])
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds):
        raise NotationError("wait", _("expected a number of seconds"))
    return min(MAX_WAIT_SECONDS, max(0.0, seconds))


def job_data(job: Any, lang: str) -> dict[str, Any]:
    """A job as JSON; an ended engine job carries the game's state after it."""
    data = job.data()
    if job.kind == "engine" and job.finished:
        data["state_of_game"] = game_data(job.game, lang)
    return data


async def undo(request: Request, table: Table, lang: str) -> Response:
    """Back to the person's previous decision (the engine's and the hint's work stopped)."""
    game = await table.store.get(request.path_params["game"], lang)
    table.jobs.cancel_game(game)
    async with game.lock:
        with using_language(lang):
            try:
                game.session.undo()
            except NotationError as err:
                raise NothingToUndo(err.message) from None
        await _save(table, game)
    return JSONResponse(game_data(game, lang))


async def hint(request: Request, table: Table, lang: str) -> Response:
    """The hint for the person's decision, as a job."""
    game = await table.store.get(request.path_params["game"], lang)
    with using_language(lang):
        s = game.session
        if not s.choices():
            raise NotYourTurn()
        args = (str(s.view()), s.level, s.game.deal_seed, False, against_of(s.specs))  # the record's seed: the review's
        job = table.jobs.analysis("hint", game, lang, work.hint, args, client=client_of(request))
        job.meta["answers"] = len(s.answers)
    return JSONResponse(job.data(), status_code=202)


async def review_game(request: Request, table: Table, lang: str) -> Response:
    """The review of the finished deal (``{samples?, max_nodes?, time?}`` as ``lukfu review``'s
    options), as a job; one made before with the same options is answered at once (done)."""
    data = await body_of(request, lang)
    game = await table.store.get(request.path_params["game"], lang)
    with using_language(lang):
        if game.session.phase != "over":
            raise DealNotOver()
        options = review.review_options(data)
        client = client_of(request)
    key = json.dumps(options, sort_keys=True)
    made = await table.store.saved_review(game, key)
    if made is not None:
        return JSONResponse(table.jobs.finished("review", game, lang, made, client).data())
    args = (game.session.record.dumps(), game.session.human_seat, options, game.session.level)

    async def keep(result: Any) -> None:
        await table.store.keep_review(game, key, result)

    with using_language(lang):
        job = table.jobs.analysis("review", game, lang, review.review_data, args, on_done=keep, client=client)
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


# ---------------------------------------------------------------- sessions of deals and the record of play


async def new_session(request: Request, table: Table, lang: str) -> Response:
    """A new session of ``deals`` deals (``lukfu play --deals N``) and its first deal."""
    data = await body_of(request, lang)
    with using_language(lang):
        options = game_options(data, ("deals",))
        deals = check_int(data.get("deals"), "deals", 2, MAX_SESSION)  # one deal is a game: POST /api/games
        series = DealSeries.new(deals=deals, **options)
    kept, game = await table.sessions.create(series)
    summary = await table.sessions.summary(kept, lang)
    return JSONResponse({"session": summary, "game": game_data(game, lang)}, status_code=201)


async def list_sessions(request: Request, table: Table, lang: str) -> Response:
    """The sessions, the one played last first, a page at a time (``?limit=``, ``?before=``, ``?finished=``)."""
    limit, finished = page_options(request, lang)
    page_of = await table.sessions.page(lang, limit, request.query_params.get("before"), finished)
    return JSONResponse(page_of)


async def get_session(request: Request, table: Table, lang: str) -> Response:
    """A session: its people, its deals' rows, the running totals, the current deal."""
    kept = await table.sessions.get(request.path_params["session"], lang)
    return JSONResponse(await table.sessions.summary(kept, lang))


async def session_deal(request: Request, table: Table, lang: str) -> Response:
    """Deal ``{deal: k}`` of a session: made when the deal before it is over (201), or the one
    made already (200)."""
    data = await body_of(request, lang)
    with using_language(lang):
        unknown = sorted(set(data) - {"deal"})
        if unknown:
            raise NotationError("body", _("unknown key {key}").format(key=repr(unknown[0])[:40]))
        k = check_int(data.get("deal"), "deal", 1, MAX_SESSION)
    game, made = await table.sessions.deal(request.path_params["session"], k, lang)
    return JSONResponse(game_data(game, lang), status_code=201 if made else 200)


async def get_standing(request: Request, table: Table, lang: str) -> Response:
    """Your record of play: the deals played and the points a deal against each strength, with a
    95% interval from :data:`~lukfu_solver.standing.MIN_DEALS` deals on (every finished record
    of the folder counts, read once for each state of its file)."""
    results, damaged, version = await table.listing.results(lang)
    if table.standing is None or table.standing[0] != version:  # the same records, the same record of play
        rows = standing(results)
        data = {
            "against": [a.to_json() for a in rows],
            "deals": sum(a.deals for a in rows),
            "points": sum(a.points for a in rows),
            "damaged": damaged,
            "min_deals": MIN_DEALS,
        }
        table.standing = (version, data)
    return JSONResponse(table.standing[1])


# ---------------------------------------------------------------- jobs and replays


async def get_job(request: Request, table: Table, lang: str) -> Response:
    """A job's state, waiting up to ``?wait=`` seconds for its end."""
    with using_language(lang):
        job = table.jobs.get(request.path_params["job"])
        wait = wait_of(request)
    await table.jobs.wait(job, wait)
    return JSONResponse(job_data(job, lang))


async def cancel_job(request: Request, table: Table, lang: str) -> Response:
    """Cancel a job."""
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
    return JSONResponse({"record": rec.to_json(), "steps": steps, "tricks": len(rec.tricks())})


async def not_found(request: Request, exc: Exception) -> Response:
    """An address the API does not have: a one-line 404 (a page for a browser)."""
    with using_language(lang_of(request)):
        return refused(request, 404, "path: " + _("no such address"))


async def not_allowed(request: Request, exc: Exception) -> Response:
    """A method the address does not take: a one-line 405."""
    with using_language(lang_of(request)):
        return refused(request, 405, "method: " + _("{method} is not used here").format(method=request.method[:10]))


async def http_error(request: Request, exc: Exception) -> Response:
    """Any other HTTP error Starlette raises (a static file's), as one line."""
    status = exc.status_code if isinstance(exc, HTTPException) else 400
    if status == 404:
        return await not_found(request, exc)
    if status == 405:
        return await not_allowed(request, exc)
    return refused(request, status, "request: " + str(getattr(exc, "detail", ""))[:200])


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
        Route("/api/sessions", endpoint(list_sessions), methods=["GET"]),
        Route("/api/sessions", endpoint(new_session), methods=["POST"]),
        Route("/api/sessions/{session}", endpoint(get_session), methods=["GET"]),
        Route("/api/sessions/{session}/deal", endpoint(session_deal), methods=["POST"]),
        Route("/api/standing", endpoint(get_standing), methods=["GET"]),
        Route("/api/jobs/{job}", endpoint(get_job), methods=["GET"]),
        Route("/api/jobs/{job}", endpoint(cancel_job), methods=["DELETE"]),
        Route("/api/replay", endpoint(replay), methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {cls: refusal for cls in STATUS}
    handlers.update({404: not_found, 405: not_allowed, HTTPException: http_error})
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers)
    app.state.table = table
    names = () if config.host in ("127.0.0.1", "::1", "0.0.0.0", "::", "localhost") else (config.host,)
    return Guard(app, config.token, config.port, names, config.max_body)
