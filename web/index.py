"""The games folder's index: each record's line in the list and its result, kept in the folder
(``games/index.json``) so that a restarted server reads again only the records that changed.

It is derived from the records alone (one truth): an entry is used only while its record's file
is in the state it was read in (time, size, inode), so a missing, damaged or stale index costs
reading the records again, never a wrong line. It is written like every file of the folder
(atomically, readable by its owner alone), not past ``--max-disk``, and only when what it would
hold has changed. Damaged records are not kept in it: their reason is said in the reader's
language each time they are read.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lukfu_solver.errors import NotationError
from lukfu_solver.inputs import load_json
from lukfu_solver.series import DealResult

from .folder import Unreadable, read_file
from .store import GAME_ID, GameStore

INDEX_FILE = "index.json"
FORMAT = "lukfu-index/1"
MAX_INDEX_BYTES = 64 << 20
"""Largest index read (10,000 records take about 2 MB)."""
SUMMARY_KEYS = {"seed": (int, type(None)), "finished": (bool,), "points": (int, type(None)), "plays": (int,), "against": (list,)}
"""A record's line in the list, as the index keeps it: each key and the types its value may have."""


@dataclass(frozen=True)
class Entry:
    """What a record file holds for the list: its summary and, once the deal is over, its result;
    or why it is damaged. ``state`` is the file's (time, size, inode) when it was read."""

    state: tuple[int, int, int]
    summary: dict[str, Any] | None
    damaged: str | None
    result: DealResult | None = None


class Index:
    """The kept entries of a store's records (see the module notes)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.loaded = False
        self.kept: dict[str, Entry] = {}
        """The entries as the index file holds them."""

    @property
    def path(self) -> Path:
        """The index file."""
        return self.store.folder / INDEX_FILE

    async def load(self) -> None:
        """Read the index file once (in a thread): a missing or damaged one is an empty index."""
        if not self.loaded:
            self.kept = await asyncio.to_thread(self._read)
            self.loaded = True

    def _read(self) -> dict[str, Entry]:
        """The entries of the index file that are well formed (others are left out: read again)."""
        try:
            raw = read_file(self.path, MAX_INDEX_BYTES)
            data = load_json(raw, "index", MAX_INDEX_BYTES) if raw is not None else None
        except (Unreadable, NotationError):
            return {}
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("games"), dict):
            return {}
        out = {}
        for gid, item in data["games"].items():
            entry = _entry(gid, item)
            if entry is not None:
                out[gid] = entry
        return out

    def entry(self, gid: str, state: tuple[int, int, int]) -> Entry | None:
        """The kept entry of game ``gid`` if its record is still in ``state``, else None."""
        entry = self.kept.get(gid)
        return entry if entry is not None and entry.state == state else None

    async def save(self, entries: dict[str, Entry]) -> None:
        """Keep ``entries`` (those of records that are not damaged) when they differ from the
        file's (not past ``--max-disk``; a disk that refuses is no fault: the index is a cache)."""
        good = {gid: e for gid, e in entries.items() if e.damaged is None and e.summary is not None}
        if {g: e.state for g, e in good.items()} == {g: e.state for g, e in self.kept.items()} or self.store.disk.full:
            return
        try:
            await asyncio.to_thread(self._write, list(good.items()))
        except (OSError, NotationError):
            return
        self.kept = good

    def _write(self, good: list[tuple[str, Entry]]) -> None:
        """The index file written (run in a thread: 10,000 entries take tens of milliseconds to say)."""
        games = {gid: [*e.state, e.summary, None if e.result is None else e.result.to_json()] for gid, e in good}
        text = json.dumps({"format": FORMAT, "games": games}, separators=(",", ":")) + "\n"
        self.store._write(self.path, text)


def _entry(gid: Any, item: Any) -> Entry | None:
    """An index file's entry, checked (None when it is not well formed)."""
    if not isinstance(gid, str) or not GAME_ID.fullmatch(gid) or not isinstance(item, list) or len(item) != 5:
        return None
    *state, summary, result = item
    if not all(type(v) is int for v in state) or not isinstance(summary, dict) or set(summary) != set(SUMMARY_KEYS):
        return None
    if not all(type(summary[k]) in types for k, types in SUMMARY_KEYS.items()):
        return None
    try:
        deal = None if result is None else DealResult.from_json(result)
    except NotationError:
        return None
    if (deal is None) == summary["finished"]:
        return None
    return Entry((state[0], state[1], state[2]), summary, None, deal)
