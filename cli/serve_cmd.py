"""``serve``: the seed's card table in a browser, on a local web server (``lukfu_web``).

Prints one URL carrying a random token (as Jupyter does), binds the loopback address unless told
otherwise, and keeps every game as a record in the data folder. The web stack (Starlette,
uvicorn) is imported only here, inside the command, so ``lukfu --help`` stays instant.
"""

from __future__ import annotations

import errno
import os
import secrets
import socket
import sys
import threading
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _

from .output import note

DEFAULT_PORT = 8765
PORT_TRIES = 20
"""Without ``--port``, the first free port from :data:`DEFAULT_PORT` on, trying this many."""
LOOPBACK = ("127.0.0.1", "::1", "localhost")


def _bind(host: str, port: int | None) -> socket.socket:
    """A listening socket on ``host``: ``port``, or the first free one from DEFAULT_PORT. A port
    in use or a host that is no address of this machine is a NotationError (one line, exit 2)."""
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as err:
        raise NotationError("host", _("{host}: not an address of this machine ({why})").format(host=host, why=err)) from None
    family, *_rest, address = infos[0]
    ports = [port] if port is not None else list(range(DEFAULT_PORT, DEFAULT_PORT + PORT_TRIES))
    last: OSError | None = None
    for p in ports:
        # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets that say so, and without it
        # a keep-alive answer's second write waits for the client's delayed ACK (40 ms)
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            sock.bind((address[0], p))
            sock.listen(128)
            sock.set_inheritable(True)
            return sock
        except OSError as err:
            sock.close()
            last = err
            if err.errno != errno.EADDRINUSE:
                break
    why = last.strerror if last is not None and last.strerror else str(last)
    raise NotationError("port", _("cannot listen on {host} port {port}: {why}").format(host=host, port=ports[0], why=why))


def serve(
    port: Annotated[
        int | None,
        typer.Option("--port", metavar="PORT", help="Port to listen on (default: the first free one from 8765)."),
    ] = None,
    host: Annotated[
        str,
        typer.Option(
            "--host", metavar="HOST", help="Address to listen on; the default, 127.0.0.1, lets only this machine in."
        ),
    ] = "127.0.0.1",
    data: Annotated[
        str | None,
        typer.Option(
            "--data",
            metavar="DIR",
            help="Where every game is kept as a record (default: a per-user data folder, e.g. ~/.local/share/lukfu).",
        ),
    ] = None,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the table in the web browser.")] = False,
    workers: Annotated[
        int,
        typer.Option("--workers", metavar="N", help="Processes for the engines, hints and reviews (1-32)."),
    ] = 2,
    max_games: Annotated[
        int,
        typer.Option(
            "--max-games", metavar="N", help="Games held in memory at once (1-10000); older idle ones wait on disk."
        ),
    ] = 64,
) -> None:
    """Play at the table in a web browser: you against two engine players, with the call's advice,
    hints, undo, the review and your records, in English, Russian, Hindi or Spanish.

    Starts a local web server and prints its address with a random token
    (http://127.0.0.1:8765/?token=…); open it (or pass --open). Without the token, from another
    address or from another site's page, the server answers nothing. Every game is saved as a
    record after each move, so an unfinished game resumes after a restart; records replay with
    `lukfu replay`. Ctrl-C stops the server.
    """
    from lukfu_solver.inputs import check_int

    if port is not None:
        check_int(port, "port", 1, 65535)
    check_int(workers, "workers", 1, 32)
    check_int(max_games, "max-games", 1, 10_000)
    if data is not None:
        from lukfu_solver.inputs import check_text

        check_text(data, "data", allow_space=True)  # a NUL or other control character is no path
    folder = Path(data) if data is not None else None
    if folder is None:
        from lukfu_web.store import default_data_dir

        folder = default_data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "games").mkdir(exist_ok=True)
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise NotationError("data", f"{folder}: {reason}") from None
    if not os.access(folder / "games", os.W_OK):
        raise NotationError("data", _("{folder}: cannot write there").format(folder=folder))
    sock = _bind(host, port)
    from .progress import prepare_solver

    prepare_solver()  # the one-time compilation announced here, not inside the first engine move
    import uvicorn

    from lukfu_web.app import Config, create_app

    bound = sock.getsockname()[1]
    token = secrets.token_hex(24)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/?token={token}"
    config = Config(folder, token, bound, host, workers, max_games)
    app = create_app(config)
    note(_("lukfu's table is served at the address below; games are kept in {folder}. Ctrl-C stops it.").format(folder=folder))
    if host not in LOOPBACK:
        note(_("listening on {host}: anyone who can reach this machine and has the address can play").format(host=host))
    print(url, flush=True)
    if open_browser:
        threading.Timer(0.8, webbrowser.open, [url]).start()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    sys.stdout.flush()
