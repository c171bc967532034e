"""The games of the table: live sessions in memory, every one kept as a record in the data directory.

Each game is ``games/<id>.json`` in the data directory, a ``lukfu-record/2`` written after every
answer (``result`` null while the deal goes on; ``lukfu replay`` reads it as it is), and
``games/<id>.settings.json``, written once, with what the record does not say (the hints'
level), and once the deal is reviewed ``games/<id>.reviews.json`` (a finished deal's review is
made once). Writes go through :func:`lukfu_solver.safe_write.write_atomic`, so a crash leaves the
previous record whole. At most ``max_live`` games are held in memory: past that the least
recently used one with no engine work running is unloaded (it is already on disk) and loaded
again, from its record, when it is next asked for; so after a restart every unfinished game
resumes where it stood.
"""

from __future__ import annotations

import asyncio
import json
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
from lukfu_solver.i18n import _, using_language
from lukfu_solver.inputs import read_bounded
from lukfu_solver.record import MAX_RECORD_BYTES, GameRecord
from lukfu_solver.safe_write import write_atomic
from lukfu_solver.session import GameSession

GAME_ID = re.compile(r"[0-9a-f]{16}")
"""A game's id: 16 hex digits (64 random bits), also its file name."""
MAX_LISTED = 200
"""The most games the list of saved games shows (the most recent)."""


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

    @property
    def busy(self) -> bool:
        """Whether engine or analysis work is running for this game."""
        return any(not j.finished for j in self.jobs.values())


class UnknownGame(NotationError):
    """No game has this id (here or on disk)."""

    def __init__(self, game_id: str) -> None:
        super().__init__("game", _("no game {id}").format(id=game_id[:32]))


class GameStore:
    """The live games and their files in ``data/games``."""

    def __init__(self, data: Path, max_live: int = 64) -> None:
        self.folder = data / "games"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.max_live = max_live
        self.live: OrderedDict[str, LiveGame] = OrderedDict()
        self.unloaded = 0

    def path(self, game_id: str) -> Path:
        """The record file of a game."""
        return self.folder / f"{game_id}.json"

    def reviews_path(self, game_id: str) -> Path:
        """The reviews of a finished game, by their options (``games/<id>.reviews.json``)."""
        return self.folder / f"{game_id}.reviews.json"

    async def saved_review(self, game: LiveGame, key: str) -> dict[str, Any] | None:
        """The review of ``game`` with the options ``key`` made before (in memory, else on disk),
        or None: a finished deal's review is the same every time, so it is made once."""
        if key in game.reviews:
            return game.reviews[key]
        kept = await asyncio.to_thread(self._read_reviews, game.id)
        game.reviews.update(kept)
        return game.reviews.get(key)

    async def keep_review(self, game: LiveGame, key: str, review: dict[str, Any]) -> None:
        """Remember ``review`` of ``game`` with the options ``key``, in memory and on disk."""
        game.reviews[key] = review
        text = json.dumps(game.reviews, separators=(",", ":")) + "\n"
        try:
            await asyncio.to_thread(write_atomic, self.reviews_path(game.id), text, overwrite=True, field="data")
        except (OSError, NotationError):
            pass  # a full or read-only disk: the review stands in memory, and is made again after a restart

    def _read_reviews(self, game_id: str) -> dict[str, Any]:
        """The reviews on disk of a game (none when the file is missing or not a JSON object)."""
        try:
            data = json.loads(read_bounded(self.reviews_path(game_id), 16 * MAX_RECORD_BYTES))
        except (OSError, NotationError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def settings_path(self, game_id: str) -> Path:
        """The settings file of a game."""
        return self.folder / f"{game_id}.settings.json"

    async def create(self, session: GameSession) -> LiveGame:
        """A new game: its id, its settings and its first record written (in a thread: a file
        write is never done on the event loop)."""
        game = LiveGame("", session, time.time())
        settings = {"level": session.level, "created": round(game.created, 3), "opponents": list(session.specs)}
        record = session.record.dumps() + "\n"
        game.id = await asyncio.to_thread(self._write_new, json.dumps(settings) + "\n", record)
        self._hold(game)
        return game

    def _write_new(self, settings: str, record: str) -> str:
        """A fresh id and the new game's two files (run in a thread)."""
        while True:
            game_id = secrets.token_hex(8)
            if not self.path(game_id).exists():
                break
        write_atomic(self.settings_path(game_id), settings, field="data", durable=False)
        write_atomic(self.path(game_id), record, field="data", durable=False)
        return game_id

    async def save(self, game: LiveGame) -> None:
        """Write the game's record (atomic: the previous one stays whole on any fault, and a
        killed server leaves the last one written); a finished game's is synced to the disk too.
        The text is made here, the file written in a thread: there it only waits for the disk,
        and asks for the interpreter's lock as little as it can."""
        done = game.session.phase == "over"
        text = game.session.record.dumps() + "\n"
        await asyncio.to_thread(write_atomic, self.path(game.id), text, overwrite=True, field="data", durable=done)

    def live_game(self, game_id: str) -> LiveGame | None:
        """The game ``game_id`` if it is in memory (marked as used now), else None."""
        game = self.live.get(game_id)
        if game is not None:
            self.live.move_to_end(game_id)
            game.touched = time.monotonic()
        return game

    async def get(self, game_id: str, lang: str = "en") -> LiveGame:
        """The game ``game_id``, loaded from its record if it is not live (UnknownGame if none;
        faults in ``lang``). The files are read in a thread; the record is checked and replayed
        on the event loop (a thread would only contend with it for the GIL)."""
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
            game = self._loaded(game_id, *files)
        self._hold(game)
        return game

    def _read(self, game_id: str) -> tuple[bytes, bytes | None, float] | None:
        """A game's record and settings files as bytes and the record's time (run in a thread);
        None when it has no record."""
        try:
            path = self.path(game_id)
            record = read_bounded(path, MAX_RECORD_BYTES)
            created = path.stat().st_mtime
        except (OSError, NotationError):
            return None
        try:
            settings = self.settings_path(game_id).read_bytes()[:4096]
        except OSError:
            settings = None
        return record, settings, created

    def _loaded(self, game_id: str, record_bytes: bytes, settings_bytes: bytes | None, created: float) -> LiveGame:
        """The live game of a record (checked against the rules) and its settings."""
        record = GameRecord.loads(record_bytes)
        level = None
        try:
            settings = json.loads(settings_bytes or b"")
            level = int(settings["level"])
            created = float(settings.get("created", created))
        except (ValueError, KeyError, TypeError):
            pass  # the record alone: the engines' level
        return LiveGame(game_id, GameSession.from_record(record, level), created)

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

    def listing(self) -> list[dict[str, Any]]:
        """The saved games, most recent first (at most :data:`MAX_LISTED`): id, seed, whether it
        is finished, the person's net points, when it was last played."""
        files = sorted(
            (p for p in self.folder.glob("*.json") if GAME_ID.fullmatch(p.stem)),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )[:MAX_LISTED]
        out = []
        for p in files:
            try:
                rec = GameRecord.load(p)
            except NotationError:
                continue
            me = rec.players.index("you") if rec.players and "you" in rec.players else None
            points = rec.outcome.points[me] if rec.outcome is not None and me is not None else None
            out.append(
                {
                    "id": p.stem,
                    "seed": rec.seed,
                    "finished": rec.outcome is not None,
                    "points": points,
                    "plays": len(rec.plays),
                    "updated": round(p.stat().st_mtime, 3),
                }
            )
        return out
