"""Sessions of several deals, the browser's evening (as ``lukfu play --deals N``), kept in the
games folder beside their deals.

A session is :class:`~lukfu_solver.series.DealSeries` (the people at the table, each engine
keeping its name all session; deal k a game of the seed ``SEED + k - 1`` whose Master is drawn
from that seed, R2) and the ids of the deals made so far, in ``games/<id>.session.json``
(``lukfu-session/1``), written when it starts and when a deal is added, atomically and readable
by its owner alone, as every file of the folder (:mod:`.folder`). Each deal is a game like any
other (``games/<id>.json``), whose settings name its session and number. The points are the
records' (one truth): a session's score, rows and totals are read from its deals' records
through the list's entries (:class:`~.listing.Listing`), never kept twice. So a restarted server
or a reloaded tab finds a session where it stood.

A session file that is not a regular file, is too large, is not JSON or does not hold a session
is damaged: asked for, it is a 422 naming the reason; listed, it is named under ``damaged``;
either way it is logged once and kept as it is. A deal whose record is damaged is named in its
session's ``damaged`` and left out of the score.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _, using_language
from lukfu_solver.inputs import check_int, check_seed, excerpt, file_kind, load_json
from lukfu_solver.players.pimc import LEVELS
from lukfu_solver.series import MAX_SESSION, DealSeries, deal_seeds
from lukfu_solver.session import YOU, named_opponents

from .errors import DamagedSession, DealGoesOn, UnknownSession
from .folder import Unreadable, damaged_once, identity, read_file
from .listing import Listing, parse_cursor
from .store import GAME_ID, GameStore, LiveGame

SUFFIX = ".session.json"
FORMAT = "lukfu-session/1"
MAX_SESSION_BYTES = 16 << 10
"""Largest session file read (one of 100 deals is under 3 kB)."""


@dataclass
class Kept:
    """A session as its file holds it: its id, the session, its deals' game ids in order, when it
    was made, and the state of its file when read."""

    id: str
    series: DealSeries
    games: list[str]
    created: float
    state: tuple[int, int, int] = (0, 0, 0)

    def text(self) -> str:
        """The file's text."""
        s = self.series
        data = {
            "format": FORMAT,
            "seed": s.seed,
            "deals": s.deals,
            "level": s.level,
            "names": s.names,
            "games": self.games,
            "created": round(self.created, 3),
        }
        return json.dumps(data) + "\n"


def parse_session(sid: str, raw: bytes, state: tuple[int, int, int]) -> Kept:
    """The session a file's bytes hold, checked (a NotationError naming what is wrong)."""
    data = load_json(raw, "session", MAX_SESSION_BYTES)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise NotationError("format", _("expected {format}").format(format=FORMAT))
    seed = check_seed(data.get("seed"), "seed")
    deals = check_int(data.get("deals"), "deals", 1, MAX_SESSION)
    deal_seeds(seed, deals)
    level = data.get("level")
    if type(level) is not int or level not in LEVELS:
        raise NotationError("level", _("a pimc level is 1-5, got {level}").format(level=excerpt(str(level))))
    names = data.get("names")
    if not isinstance(names, list) or len(names) != 3 or not all(isinstance(n, str) for n in names) or names.count(YOU) != 1:
        raise NotationError("names", _("three players, one of them 'you'"))
    named_opponents(names)
    games = data.get("games")
    if not isinstance(games, list) or not 1 <= len(games) <= deals or not all(isinstance(g, str) and GAME_ID.fullmatch(g) for g in games):
        raise NotationError("games", _("expected the ids of 1-{n} deals").format(n=deals))
    if len(set(games)) != len(games):
        raise NotationError("games", _("a deal is named twice"))
    created = data.get("created")
    if not isinstance(created, (int, float)) or isinstance(created, bool):
        raise NotationError("created", _("expected a time"))
    return Kept(sid, DealSeries(names, deals, seed, level), games, float(created), state)


class Sessions:
    """The sessions of a store's folder (see the module notes)."""

    def __init__(self, store: GameStore, listing: Listing) -> None:
        self.store = store
        self.listing = listing
        self.files: dict[str, Kept | tuple[tuple[int, int, int], str]] = {}
        """Each session file as last read, in its state: the session, or (state, why damaged)."""
        self.locks: dict[str, asyncio.Lock] = {}

    def path(self, sid: str) -> Path:
        """A session's file."""
        return self.store.folder / f"{sid}{SUFFIX}"

    def _lock(self, sid: str) -> asyncio.Lock:
        """The lock that orders a session's new deals (two tabs asking for the next at once)."""
        return self.locks.setdefault(sid, asyncio.Lock())

    # ------------------------------------------------------------ writing

    async def create(self, series: DealSeries) -> tuple[Kept, LiveGame]:
        """A new session and its first deal (the game first, whose settings name the session;
        then the session's file)."""
        self.store.disk.check_room()
        sid = await asyncio.to_thread(self._fresh_id)
        game = await self.store.create(series.game(1), (sid, 1))
        kept = Kept(sid, series, [game.id], round(time.time(), 3))
        await self._write(kept, overwrite=False)
        return kept, game

    def _fresh_id(self) -> str:
        """An id no session has yet (run in a thread)."""
        while True:
            sid = secrets.token_hex(8)
            if not os.path.lexists(self.path(sid)):
                return sid

    async def _write(self, kept: Kept, overwrite: bool = True) -> None:
        """Write a session's file (in a thread) and remember it in its new state."""
        path = self.path(kept.id)
        await asyncio.to_thread(self.store._write, path, kept.text(), overwrite, True)
        st = await asyncio.to_thread(os.lstat, path)
        kept.state = identity(st)
        self.files[kept.id] = kept

    async def deal(self, sid: str, k: int, lang: str) -> tuple[LiveGame, bool]:
        """Deal ``k`` of session ``sid`` and whether it was made now: the game if it is made
        already (a second tab asking), else a new game when deal ``k - 1`` is over; a
        :class:`~.errors.DealGoesOn` before that or past the last deal."""
        async with self._lock(sid):
            kept = await self.get(sid, lang)
            with using_language(lang):
                if not 1 <= k <= kept.series.deals:
                    raise DealGoesOn("deal", _("this session has {n} deals, not {k}").format(n=kept.series.deals, k=k))
                if k <= len(kept.games):
                    return await self.store.get(kept.games[k - 1], lang), False
                if k > len(kept.games) + 1:
                    raise DealGoesOn("deal", _("deal {k} comes after deal {last}").format(k=k, last=len(kept.games) + 1))
            last = await self.store.get(kept.games[-1], lang)
            if last.session.phase != "over":
                with using_language(lang):
                    raise DealGoesOn("deal", _("deal {k} is not over yet").format(k=len(kept.games)))
            game = await self.store.create(kept.series.game(k), (sid, k))
            kept.games.append(game.id)
            await self._write(kept)
            return game, True

    # ------------------------------------------------------------ reading

    async def get(self, sid: str, lang: str) -> Kept:
        """Session ``sid`` as its file holds it (UnknownSession if none, DamagedSession if its
        file cannot be read; faults in ``lang``); read again only when the file has changed."""
        with using_language(lang):
            if not GAME_ID.fullmatch(sid):
                raise UnknownSession(sid)
        try:
            st = await asyncio.to_thread(os.lstat, self.path(sid))
        except OSError:
            with using_language(lang):
                raise UnknownSession(sid) from None
        found = await self._read(sid, st, lang)
        if isinstance(found, Kept):
            return found
        with using_language(lang):
            raise DamagedSession(sid, found[1])

    async def _read(self, sid: str, st: os.stat_result, lang: str) -> Kept | tuple[tuple[int, int, int], str]:
        """The session file ``sid`` in the state ``st``: read and checked unless known in that
        state; a damaged one is logged once."""
        state = identity(st)
        known = self.files.get(sid)
        if known is not None and (known.state if isinstance(known, Kept) else known[0]) == state:
            return known
        path = self.path(sid)
        found: Kept | tuple[tuple[int, int, int], str]
        with using_language(lang):
            if not stat.S_ISREG(st.st_mode):
                found = (state, file_kind(st.st_mode) or _("not a regular file"))
            else:
                try:
                    raw = await asyncio.to_thread(read_file, path, MAX_SESSION_BYTES)
                    if raw is None:
                        raise UnknownSession(sid)
                    found = parse_session(sid, raw, state)
                except Unreadable as err:
                    found = (state, str(err))
                except UnknownSession:
                    raise
                except NotationError as err:
                    found = (state, str(err))
        if not isinstance(found, Kept):
            damaged_once(path, found[1], state)  # type: ignore[arg-type]
        self.files[sid] = found
        return found

    async def summary(self, kept: Kept, lang: str) -> dict[str, Any]:
        """The session as the page shows it: :meth:`DealSeries.to_json` from its deals' records
        (the rows naming each deal's number and game), its id, its games, the current deal's game,
        whether it is over, and its deals whose records are damaged."""
        entries = await self.listing.known(kept.games, lang)
        series = DealSeries(kept.series.names, kept.series.deals, kept.series.seed, kept.series.level)
        numbers, damaged, going = [], [], None
        for k, gid in enumerate(kept.games, 1):
            entry = entries.get(gid)
            if entry is None or entry.damaged is not None:
                damaged.append({"deal": k, "game": gid, "reason": None if entry is None else entry.damaged})
            elif entry.result is not None:
                series.add(entry.result)
                numbers.append((k, gid))
            else:
                going = k
        data = series.to_json()
        for row, (k, gid) in zip(data["rows"], numbers, strict=True):
            row.update(deal=k, game=gid)
        made = len(kept.games)
        data.update(
            id=kept.id,
            games=kept.games,
            current=kept.games[-1],
            dealt=made,
            over=made >= kept.series.deals and going is None,
            damaged=damaged,
            created=kept.created,
        )
        return data

    async def page(self, lang: str, limit: int, before: str | None = None, finished: bool | None = None) -> dict[str, Any]:
        """``{"sessions": [...], "damaged": [...], "next": cursor or None}``: the sessions, the
        one played last first (its file's time or its current deal's record's, the later),
        ``limit`` a page from the ``before`` cursor; ``finished`` keeps only those over (true) or
        going on (false)."""
        with using_language(lang):
            after = parse_cursor(before, "sessions")
        found = await asyncio.to_thread(self._scan)
        read: list[tuple[str, os.stat_result, Kept | tuple[tuple[int, int, int], str]]] = []
        for sid, st in found:
            try:
                read.append((sid, st, await self._read(sid, st, lang)))
            except UnknownSession:
                continue  # deleted meanwhile
        current = [self.store.path(k.games[-1]) for _s, _st, k in read if isinstance(k, Kept)]
        times = iter(await asyncio.to_thread(lambda: [_mtime(p) for p in current]))
        rows: list[tuple[int, str, Kept | tuple[tuple[int, int, int], str]]] = []
        for sid, st, kept in read:
            updated = max(st.st_mtime_ns, next(times)) if isinstance(kept, Kept) else st.st_mtime_ns
            rows.append((updated, sid, kept))
        rows.sort(key=lambda r: (r[0], r[1]), reverse=True)
        sessions: list[dict[str, Any]] = []
        damaged: list[dict[str, Any]] = []
        last = None
        more = False
        for updated, sid, kept in rows:
            if after is not None and (updated, sid) >= after:
                continue
            if not isinstance(kept, Kept):
                if finished is not None:
                    continue
                item, kind = {"id": sid, "reason": kept[1], "updated": round(updated / 1e9, 3)}, damaged
            else:
                item = await self.summary(kept, lang)
                if finished is not None and item["over"] != finished:
                    continue
                item["updated"] = round(updated / 1e9, 3)
                kind = sessions
            if len(sessions) + len(damaged) >= limit:
                more = True
                break
            kind.append(item)
            last = (updated, sid)
        cursor = f"{last[0]}-{last[1]}" if more and last is not None else None
        return {"sessions": sessions, "damaged": damaged, "next": cursor}

    def _scan(self) -> list[tuple[str, os.stat_result]]:
        """The folder's session files and their state (run in a thread)."""
        found = []
        with os.scandir(self.store.folder) as entries:
            for item in entries:
                name = item.name
                if not name.endswith(SUFFIX) or not GAME_ID.fullmatch(name[: -len(SUFFIX)]):
                    continue
                try:
                    found.append((name[: -len(SUFFIX)], item.stat(follow_symlinks=False)))
                except OSError:
                    continue  # deleted meanwhile
        return found


def _mtime(path: Path) -> int:
    """A file's time (ns), 0 when it is missing."""
    try:
        return os.lstat(path).st_mtime_ns
    except OSError:
        return 0
