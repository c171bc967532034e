"""The games of the table: live sessions in memory, every one kept as a record in the data directory.

Each game is ``games/<id>.json`` in the data directory, a ``lukfu-record/3`` written after every
answer (``result`` null while the deal goes on; ``lukfu replay`` reads it as it is), and
``games/<id>.settings.json``, written once, with what the record does not say (the hints'
level; for a deal of a session of deals, the session's id and the deal's number), and once the deal is reviewed ``games/<id>.reviews.json`` (a finished deal's review is
made once). Writes are atomic (:func:`~.folder.write_private`: a crash leaves the previous record
whole) and readable by their owner alone, in a folder only the owner may enter; reads take
regular files only, without blocking (:mod:`.folder`). At most ``max_live`` games are held in
memory: past that the least recently used one with no engine work running is unloaded (it is
already on disk) and loaded again, from its record, when it is next asked for; so after a
restart every unfinished game resumes where it stood. A record that cannot be read or replayed
is damaged: asked for, it is a 422 naming the reason; listed, it is listed as damaged
(:mod:`.listing`); either way it is logged once and kept as it is.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import re
import secrets
import sys
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import using_language
from lukfu_solver.inputs import load_json
from lukfu_solver.players.pimc import LEVELS
from lukfu_solver.record import MAX_RECORD_BYTES, GameRecord
from lukfu_solver.series import MAX_SESSION
from lukfu_solver.session import GameSession

from .errors import DamagedGame, UnknownGame
from .folder import DiskUse, Unreadable, damaged_once, identity, private_folder, read_file, write_private

GAME_ID = re.compile(r"[0-9a-f]{16}")
"""A game's id: 16 hex digits (64 random bits), also its file name."""
MAX_SETTINGS_BYTES = 4096
"""Largest settings file read (one is under 100 bytes)."""
MAX_REVIEWS_BYTES = 16 * MAX_RECORD_BYTES
"""Largest file of a game's reviews read."""


def default_data_dir(environ: dict[str, str] | None = None) -> Path:
    """The per-user data folder: ``$XDG_DATA_HOME/lukfu`` (``~/.local/share/lukfu``) on Linux and
    other Unix systems, ``~/Library/Application Support/lukfu`` on macOS, ``%LOCALAPPDATA%\\lukfu``
    on Windows (the rule platformdirs follows)."""
    env = os.environ if environ is None else environ
    if sys.platform == "win32":
        base = Path(env.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        xdg = env.get("XDG_DATA_HOME", "")
        base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "lukfu"


@dataclass
class LiveGame:
    """A game in memory: its session, a lock that orders its changes, its running jobs."""

    id: str
    session: GameSession
    created: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    jobs: dict[str, Any] = field(default_factory=dict)
    """The running job of each kind (``engine``, ``hint``, ``review``) for this game."""
    reviews: dict[str, Any] = field(default_factory=dict)
    """The reviews of the finished deal made so far, by their options."""
    touched: float = field(default_factory=time.monotonic)
    series: tuple[str, int] | None = None
    """The session of deals this game is a deal of: its id and the deal's number (None: a game alone)."""

    @property
    def busy(self) -> bool:
        """Whether engine or analysis work is running for this game."""
        return any(not j.finished for j in self.jobs.values())


class GameStore:
    """The live games and their files in ``data/games`` (``max_disk``: the folder's bound in bytes)."""

    def __init__(self, data: Path, max_live: int = 64, max_disk: int | None = None) -> None:
        self.folder = private_folder(data / "games")
        self.max_live = max_live
        self.disk = DiskUse(self.folder, max_disk)
        self.live: OrderedDict[str, LiveGame] = OrderedDict()
        self.unloaded = 0

    def path(self, game_id: str) -> Path:
        """The record file of a game."""
        return self.folder / f"{game_id}.json"

    def reviews_path(self, game_id: str) -> Path:
        """The reviews of a finished game, by their options (``games/<id>.reviews.json``)."""
        return self.folder / f"{game_id}.reviews.json"

    def settings_path(self, game_id: str) -> Path:
        """The settings file of a game."""
        return self.folder / f"{game_id}.settings.json"

    def _write(self, path: Path, text: str, overwrite: bool = True, durable: bool = False) -> None:
        """Write one of the folder's files (in a thread), counting the bytes it takes."""
        self.disk.add(write_private(path, text, overwrite, durable))

    # ------------------------------------------------------------ reviews

    async def saved_review(self, game: LiveGame, key: str) -> dict[str, Any] | None:
        """The review of ``game`` with the options ``key`` made before (in memory, else on disk),
        or None: a finished deal's review is the same every time, so it is made once."""
        if key in game.reviews:
            return game.reviews[key]
        kept = await asyncio.to_thread(self._read_reviews, game.id)
        game.reviews.update(kept)
        return game.reviews.get(key)

    async def keep_review(self, game: LiveGame, key: str, review: dict[str, Any]) -> None:
        """Remember ``review`` of ``game`` with the options ``key``, in memory and on disk (not on
        disk past ``--max-disk``)."""
        game.reviews[key] = review
        if self.disk.full:
            return  # the review stands in memory, and is made again after a restart
        text = json.dumps(game.reviews, separators=(",", ":")) + "\n"
        try:
            await asyncio.to_thread(self._write, self.reviews_path(game.id), text)
        except (OSError, NotationError):
            pass  # a full or read-only disk: as above

    def _read_reviews(self, game_id: str) -> dict[str, Any]:
        """The reviews on disk of a game (none when the file is missing, odd or not a JSON object)."""
        try:
            raw = read_file(self.reviews_path(game_id), MAX_REVIEWS_BYTES)
            data = load_json(raw, "reviews", MAX_REVIEWS_BYTES) if raw is not None else {}
        except (Unreadable, NotationError):
            return {}
        return data if isinstance(data, dict) else {}

    # ------------------------------------------------------------ writing

    async def create(self, session: GameSession, series: tuple[str, int] | None = None) -> LiveGame:
        """A new game (deal k of the session of deals ``series``, (id, k), when given): its id,
        its settings and its first record written (in a thread: a file write is never done on
        the event loop); refused past ``--max-disk``."""
        self.disk.check_room()
        game = LiveGame("", session, time.time(), series=series)
        settings: dict[str, Any] = {"level": session.level, "created": round(game.created, 3), "opponents": list(session.specs)}
        if series is not None:
            settings.update(session=series[0], deal=series[1])
        record = session.record.dumps() + "\n"
        game.id = await asyncio.to_thread(self._write_new, json.dumps(settings) + "\n", record)
        self._hold(game)
        return game

    def _write_new(self, settings: str, record: str) -> str:
        """A fresh id and the new game's two files (run in a thread)."""
        while True:
            game_id = secrets.token_hex(8)
            if not os.path.lexists(self.path(game_id)):
                break
        self._write(self.settings_path(game_id), settings, overwrite=False)
        self._write(self.path(game_id), record, overwrite=False)
        return game_id

    async def save(self, game: LiveGame) -> None:
        """Write the game's record (atomic: the previous one stays whole on any fault, and a
        killed server leaves the last one written); a finished game's is synced to the disk too.
        The text is made here, the file written in a thread: there it only waits for the disk,
        and asks for the interpreter's lock as little as it can. A game under way is saved past
        ``--max-disk`` too (a record grows by a few bytes a move; no game is lost)."""
        done = game.session.phase == "over"
        text = game.session.record.dumps() + "\n"
        await asyncio.to_thread(self._write, self.path(game.id), text, True, done)

    # ------------------------------------------------------------ reading

    def live_game(self, game_id: str) -> LiveGame | None:
        """The game ``game_id`` if it is in memory (marked as used now), else None."""
        game = self.live.get(game_id)
        if game is not None:
            self.live.move_to_end(game_id)
            game.touched = time.monotonic()
        return game

    async def get(self, game_id: str, lang: str = "en") -> LiveGame:
        """The game ``game_id``, loaded from its record if it is not live (UnknownGame if none,
        DamagedGame if its record cannot be read or replayed; faults in ``lang``). The files are
        read in a thread; the record is checked and replayed on the event loop (a thread would
        only contend with it for the GIL)."""
        with using_language(lang):
            if not GAME_ID.fullmatch(game_id):
                raise UnknownGame(game_id)
        game = self.live_game(game_id)
        if game is not None:
            return game
        files = await asyncio.to_thread(self._read, game_id)
        game = self.live_game(game_id)  # loaded by another request while this one read
        if game is not None:
            return game
        with using_language(lang):
            if files is None:
                raise UnknownGame(game_id)
            if isinstance(files, DamagedGame):
                raise files
            game = self._loaded(game_id, *files)
        self._hold(game)
        return game

    def _read(self, game_id: str) -> tuple[bytes, bytes | None, float, tuple[int, int, int]] | DamagedGame | None:
        """A game's record and settings files as bytes, the record's time and state (run in a
        thread); None when it has no record, DamagedGame when the record cannot be read."""
        path = self.path(game_id)
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return None
        except OSError as err:
            return DamagedGame(game_id, err.strerror or str(err))
        try:
            record = read_file(path, MAX_RECORD_BYTES)
        except Unreadable as err:
            damaged_once(path, str(err), identity(st))
            return DamagedGame(game_id, str(err))
        if record is None:
            return None
        try:
            settings = read_file(self.settings_path(game_id), MAX_SETTINGS_BYTES)
        except Unreadable:
            settings = None
        return record, settings, st.st_mtime, identity(st)

    def _loaded(
        self, game_id: str, record_bytes: bytes, settings_bytes: bytes | None, created: float, state: tuple[int, int, int]
    ) -> LiveGame:
        """The live game of a record (checked against the rules) and its settings; DamagedGame
        (logged once) when the record does not load or replay. A record on disk is untrusted:
        whatever it makes the library raise is said as its damage, never a 500."""
        level, created, series = settings_of(settings_bytes, created)
        try:
            session = resumed(record_bytes, level)
        except Unreadable as err:
            damaged_once(self.path(game_id), str(err), state)
            raise DamagedGame(game_id, str(err)) from None
        return LiveGame(game_id, session, created, series=series)

    def _hold(self, game: LiveGame) -> None:
        """Keep ``game`` live, unloading idle games past ``max_live``: finished ones first (nobody
        plays them), then the least recently used."""
        self.live[game.id] = game
        self.live.move_to_end(game.id)
        while len(self.live) > self.max_live:
            idle = [g for g in self.live.values() if not g.busy and g is not game and not g.lock.locked()]
            if not idle:
                break
            victim = next((g for g in idle if g.session.phase == "over"), idle[0])
            del self.live[victim.id]  # its record is on disk, current after every answer
            self.unloaded += 1


def resumed(record_bytes: bytes, level: int | None = None) -> GameSession:
    """The game a record's bytes hold, checked and replayed; :class:`~.folder.Unreadable` with
    the reason when it cannot be. A record on disk is untrusted: whatever it makes the library
    raise is said as its damage (a 4xx), never a 500."""
    try:
        return GameSession.from_record(GameRecord.loads(record_bytes), level)
    except Exception as err:  # noqa: BLE001 - named, logged once, the file kept
        raise Unreadable(str(err) if isinstance(err, NotationError) else f"{type(err).__name__}: {err}") from None


def settings_of(raw: bytes | None, created: float) -> tuple[int | None, float, tuple[str, int] | None]:
    """The hints' level, the creation time and the session of deals (its id and the deal's
    number) a settings file holds (None, ``created`` and None for what it does not hold well:
    the record alone then decides the level, and the game stands alone)."""
    level = None
    try:
        settings = load_json(raw or b"", "settings", MAX_SETTINGS_BYTES)
    except NotationError:
        return level, created, None
    if not isinstance(settings, dict):
        return level, created, None
    if type(settings.get("level")) is int and settings["level"] in LEVELS:
        level = settings["level"]
    given = settings.get("created")
    if isinstance(given, (int, float)) and not isinstance(given, bool) and math.isfinite(given):
        created = float(given)
    sid, deal = settings.get("session"), settings.get("deal")
    series = None
    if isinstance(sid, str) and GAME_ID.fullmatch(sid) and type(deal) is int and 1 <= deal <= MAX_SESSION:
        series = (sid, deal)
    return level, created, series
