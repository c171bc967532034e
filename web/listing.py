"""The list of saved games, a page at a time, the damaged ones named.

``GET /api/games?limit=N&before=CURSOR&finished=false``: the records of the games folder, most
recently played first, at most ``limit`` of them (:data:`~lukfu_solver.inputs.MAX_PAGE`), from
after the ``next`` cursor of the page before; ``finished`` keeps only finished (``true``) or
unfinished (``false``) games. A file named like a record that cannot be resumed (not a regular
file, too large, not JSON, not a record, not a game that replays) is listed under ``damaged``
with its reason, logged once, and kept as it is: what the list shows, the table opens. A file that goes away while the list is read is left out.

Each record is read once for each state of its file (time, size, inode): the list remembers
what it found, so a list asked for again reads only what changed; the folder's index
(:mod:`.index`) keeps it across restarts. The same entries give a session its deals' results
(:meth:`Listing.known`) and your record every finished deal's (:meth:`Listing.results`: the
files' states looked at in a thread, only what changed read on the event loop). The folder is scanned and the
files read in a thread; the records are checked on the event loop, a few at a time between
other requests, in the reader's language.
"""

from __future__ import annotations

import asyncio
import os
import re
import stat
from typing import Any

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _, using_language
from lukfu_solver.inputs import MAX_PAGE, excerpt, file_kind
from lukfu_solver.record import MAX_RECORD_BYTES, GameRecord
from lukfu_solver.series import DealResult

from .folder import Unreadable, damaged_once, identity, read_file
from .index import Entry, Index
from .store import GAME_ID, GameStore, resumed

CURSOR = re.compile(r"([0-9]{1,20})-([0-9a-f]{16})")
"""A page's ``next``: the time (ns) and id of the last game it listed."""
BATCH = 16
"""Records read and checked in one step (the event loop serves other requests between steps)."""


class Listing:
    """The saved games of a store, a page at a time (see the module notes)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.entries: dict[str, Entry] = {}
        self.index = Index(store)
        self._refresh = asyncio.Lock()
        self.version = 0
        """Counts the changes of :attr:`entries` (an entry read, taken from the index or dropped)."""
        self._summed: tuple[int, list[DealResult], int] | None = None

    async def page(self, lang: str, limit: int = MAX_PAGE, before: str | None = None, finished: bool | None = None) -> dict[str, Any]:
        """``{"games": [...], "damaged": [{"id", "reason", "updated"}], "next": cursor or None}``."""
        with using_language(lang):
            after = parse_cursor(before)
        files = await asyncio.to_thread(self._scan)
        present = {f[1] for f in files}
        kept = {gid: e for gid, e in self.entries.items() if gid in present}
        if len(kept) != len(self.entries):
            self.version += 1
        self.entries = kept
        games: list[dict[str, Any]] = []
        damaged: list[dict[str, Any]] = []
        last: tuple[int, str] | None = None
        more = False
        todo = [f for f in files if after is None or (f[0], f[1]) < after]
        i = 0
        while i < len(todo):
            batch = todo[i : i + BATCH]
            i += len(batch)
            await self._read(batch, lang)
            for mtime_ns, gid, st in batch:
                entry = self.entries.get(gid)
                if entry is None or entry.state != identity(st):
                    continue  # gone, or changed while read: the next list shows it
                updated = round(mtime_ns / 1e9, 3)
                if entry.damaged is not None:
                    if finished is not None:
                        continue
                    kind, item = damaged, {"id": gid, "reason": entry.damaged, "updated": updated}
                else:
                    assert entry.summary is not None
                    if finished is not None and entry.summary["finished"] != finished:
                        continue
                    kind, item = games, {**entry.summary, "id": gid, "updated": updated}
                if len(games) + len(damaged) >= limit:
                    more = True
                    break
                kind.append(item)
                last = (mtime_ns, gid)
            if more:
                break
        cursor = f"{last[0]}-{last[1]}" if more and last is not None else None
        return {"games": games, "damaged": damaged, "next": cursor}

    async def known(self, ids: list[str], lang: str) -> dict[str, Entry]:
        """The entries of the games ``ids`` as their files stand now (a game without a record
        left out): what a session of deals reads its deals' results from."""
        found = await asyncio.to_thread(self._stat, ids)
        for i in range(0, len(found), BATCH):
            await self._read(found[i : i + BATCH], lang)
        return {gid: e for _t, gid, st in found if (e := self.entries.get(gid)) is not None and e.state == identity(st)}

    def _stat(self, ids: list[str]) -> list[tuple[int, str, os.stat_result]]:
        """The state of each game's record file (run in a thread; a missing one left out)."""
        found = []
        for gid in ids:
            try:
                st = os.lstat(self.store.path(gid))
            except OSError:
                continue
            found.append((st.st_mtime_ns, gid, st))
        return found

    async def results(self, lang: str) -> tuple[list[DealResult], int, int]:
        """Every finished deal's result in the folder (in no order), how many records are
        damaged, and :attr:`version` (what the two were made from: the same version, the same
        answer). The whole folder is looked at, and each record read once for each state of its
        file (the results kept in the folder's index, so a restarted server reads only what
        changed); the states are taken in a thread, and only the records that changed are
        compared and read on the event loop."""
        async with self._refresh:
            await self.index.load()
            states, gone, stale = await asyncio.to_thread(self._changes, list(self.entries.items()))
            for gid in gone:
                if self.entries.pop(gid, None) is not None:
                    self.version += 1
            for i in range(0, len(stale), BATCH):
                await self._read(stale[i : i + BATCH], lang)
            if self._summed is None or self._summed[0] != self.version:
                ready = [e for gid, e in self.entries.items() if gid in states and e.state == states[gid][0]]
                results = [e.result for e in ready if e.result is not None]
                damaged = sum(1 for e in ready if e.damaged is not None)
                self._summed = (self.version, results, damaged)
                await self.index.save({gid: e for gid, e in self.entries.items() if gid in states})
            _v, results, damaged = self._summed
            return results, damaged, self.version

    def _changes(
        self, entries: list[tuple[str, Entry]]
    ) -> tuple[dict[str, tuple[tuple[int, int, int], os.stat_result]], list[str], list[tuple[int, str, os.stat_result]]]:
        """The state of every record file of the folder by id, the ids of ``entries`` whose file
        is gone, and the files that ``entries`` do not hold in their present state (run in a
        thread: the event loop only reads what changed)."""
        states = {gid: (identity(st), st) for _t, gid, st in self._scan(sort=False)}
        known = dict(entries)
        gone = [gid for gid in known if gid not in states]
        stale = [(0, gid, st) for gid, (state, st) in states.items() if (e := known.get(gid)) is None or e.state != state]
        return states, gone, stale

    def _scan(self, sort: bool = True) -> list[tuple[int, str, os.stat_result]]:
        """The folder's record files (by name), most recent first (run in a thread)."""
        found = []
        with os.scandir(self.store.folder) as entries:
            for item in entries:
                name = item.name
                if not name.endswith(".json") or not GAME_ID.fullmatch(name[:-5]):
                    continue
                try:
                    st = item.stat(follow_symlinks=False)
                except OSError:
                    continue  # deleted meanwhile
                found.append((st.st_mtime_ns, name[:-5], st))
        if sort:
            found.sort(key=lambda f: (f[0], f[1]), reverse=True)
        return found

    async def _read(self, batch: list[tuple[int, str, os.stat_result]], lang: str) -> None:
        """Read the records of ``batch`` not yet known in their present state (those the index
        kept are taken from it)."""
        wanted = []
        for _t, gid, st in batch:
            entry = self.entries.get(gid)
            if entry is not None and entry.state == identity(st):
                continue
            kept = self.index.entry(gid, identity(st))
            if kept is not None:
                self.entries[gid] = kept
                self.version += 1
            else:
                wanted.append((gid, st))
        if not wanted:
            return
        self.version += 1
        raw = await asyncio.to_thread(self._files, wanted)
        with using_language(lang):
            for (gid, st), data in zip(wanted, raw, strict=True):
                if data is None:
                    self.entries.pop(gid, None)
                    continue
                self.entries[gid] = self._entry(gid, st, data)

    def _files(self, wanted: list[tuple[str, os.stat_result]]) -> list[bytes | str | None]:
        """The bytes of each record (None when gone; the reason, a str, when it cannot be read)."""
        out: list[bytes | str | None] = []
        for gid, st in wanted:
            if not stat.S_ISREG(st.st_mode):
                out.append("")  # said on the event loop, in the reader's language
                continue
            try:
                out.append(read_file(self.store.path(gid), MAX_RECORD_BYTES))
            except Unreadable as err:
                out.append(str(err))
        return out

    def _entry(self, gid: str, st: os.stat_result, data: bytes | str) -> Entry:
        """The list's entry of one record file (logged once when damaged)."""
        path = self.store.path(gid)
        if isinstance(data, str):
            if not stat.S_ISREG(st.st_mode):
                data = file_kind(st.st_mode) or _("not a regular file")
            damaged_once(path, data, identity(st))
            return Entry(identity(st), None, data)
        try:
            rec = resumed(data).record
        except Unreadable as err:
            damaged_once(path, str(err), identity(st))
            return Entry(identity(st), None, str(err))
        return Entry(identity(st), *summary_of(rec))


def parse_cursor(text: str | None, of: str = "games") -> tuple[int, str] | None:
    """The (time, id) a ``before`` cursor of a page ``of`` games or sessions names (None for
    none); a NotationError naming ``before``."""
    if text is None:
        return None
    m = CURSOR.fullmatch(text)
    if m is None:
        words = {
            "games": _("expected the next cursor of a page of games, got {text}"),
            "sessions": _("expected the next cursor of a page of sessions, got {text}"),
        }
        raise NotationError("before", words[of].format(text=excerpt(text)))
    return int(m.group(1)), m.group(2)


def summary_of(rec: GameRecord) -> tuple[dict[str, Any], None, DealResult | None]:
    """A record's line in the list (its seed, whether it is finished, your points, its plays and
    whom you played) and its result once finished."""
    result = DealResult.of(rec)
    me = rec.players.index("you") if rec.players and "you" in rec.players else None
    points = rec.outcome.points[me] if rec.outcome is not None and me is not None else None
    against = list(DealResult(rec.seed, rec.players, None, None, (0, 0, 0)).against) if rec.players else []
    summary = {"seed": rec.seed, "finished": rec.outcome is not None, "points": points, "plays": len(rec.plays), "against": against}
    return summary, None, result
