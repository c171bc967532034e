"""``serve``: the seed's card table in a browser, on a local web server (``lukfu_web``).

Prints one URL carrying a random token (as Jupyter does; the token is kept in the data folder,
so the URL outlives a restart), binds the loopback address unless told otherwise (another
address only with ``--allow-remote``, said plainly: no TLS), and keeps every game as a record in
the data folder. The web stack (Starlette, uvicorn) is imported only here, inside the command,
so ``lukfu --help`` stays instant.
"""

from __future__ import annotations

import errno
import ipaddress
import logging
import os
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
MAX_DISK_LOW = 1 << 20
"""The smallest ``--max-disk``: one megabyte (a record is a few kilobytes)."""


def addresses(host: str) -> list[str]:
    """The IP addresses ``host`` names (a NotationError naming ``host`` when it names none)."""
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as err:
        raise NotationError("host", _("{host}: not an address of this machine ({why})").format(host=host, why=err)) from None
    return [str(info[4][0]) for info in infos]


def is_loopback(host: str) -> bool:
    """Whether every address ``host`` names is a loopback address (only this machine reaches it)."""
    return all(ipaddress.ip_address(a.split("%")[0]).is_loopback for a in addresses(host))


def reachable_address(host: str) -> str:
    """An address other machines can use to reach a server bound to ``host``: the host itself,
    or for a wildcard (``0.0.0.0``, ``::``) the address this machine's outgoing connections use
    (found without sending anything), else its name's."""
    try:
        wildcard = ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return host
    if not wildcard:
        return host
    v6 = ":" in host
    with socket.socket(socket.AF_INET6 if v6 else socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("2001:db8::1" if v6 else "192.0.2.1", 9))  # a documentation address: no packet leaves
            return str(probe.getsockname()[0])
        except OSError:
            pass
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return "::1" if v6 else "127.0.0.1"


def _bind(host: str, port: int | None) -> socket.socket:
    """A listening socket on ``host``: ``port``, or the first free one from DEFAULT_PORT. A port
    in use or a host that is no address of this machine is a NotationError (one line, exit 2)."""
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as err:  # addresses() has refused it already
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
    allow_remote: Annotated[
        bool,
        typer.Option(
            "--allow-remote",
            help="Let --host be an address other machines reach (the token then crosses the network unencrypted).",
        ),
    ] = False,
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
        typer.Option(
            "--workers",
            metavar="N",
            help="Processes for the engines, hints and reviews (2-32); one is kept for engine moves and hints.",
        ),
    ] = 2,
    max_games: Annotated[
        int,
        typer.Option(
            "--max-games", metavar="N", help="Games held in memory at once (1-10000); older idle ones wait on disk."
        ),
    ] = 64,
    max_disk: Annotated[
        str | None,
        typer.Option(
            "--max-disk",
            metavar="SIZE",
            help="The most the games folder may hold, e.g. 500M or 2G; past it no new game is started.",
        ),
    ] = None,
    new_token: Annotated[
        bool,
        typer.Option("--new-token", help="Replace the kept token: addresses printed before stop working."),
    ] = False,
) -> None:
    """Play at the table in a web browser: you against two engine players, with the call's advice,
    hints, undo, the review and your records, in English, Russian, Hindi or Spanish.

    Starts a local web server and prints its address with a random token
    (http://127.0.0.1:8765/?token=…); open it (or pass --open). The token is kept in the data
    folder, so the address stays the same after a restart (--new-token replaces it). Without the
    token, from another address or from another site's page, the server answers nothing. Every
    game is saved as a record after each move, so an unfinished game resumes after a restart;
    records replay with `lukfu replay`. Ctrl-C stops the server.
    """
    from lukfu_solver.inputs import check_int, parse_size

    if port is not None:
        check_int(port, "port", 1, 65535)
    check_int(workers, "workers", 2, 32)
    check_int(max_games, "max-games", 1, 10_000)
    disk = parse_size(max_disk, "max-disk", MAX_DISK_LOW, 1 << 50) if max_disk is not None else None
    if data is not None:
        from lukfu_solver.inputs import check_text

        check_text(data, "data", allow_space=True)  # a NUL or other control character is no path
    remote = not is_loopback(host)
    if remote and not allow_remote:
        raise NotationError(
            "host",
            _(
                "{host} can be reached from other machines, and the table has no encryption (no TLS): "
                "its token would cross the network in clear text. Add --allow-remote to do it anyway, "
                "or keep the default 127.0.0.1 (an SSH tunnel reaches it from elsewhere)"
            ).format(host=host),
        )
    _log_to_stderr()
    folder = Path(data) if data is not None else None
    if folder is None:
        from lukfu_web.store import default_data_dir

        folder = default_data_dir()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        from lukfu_web.folder import private_folder

        private_folder(folder / "games")
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise NotationError("data", f"{folder}: {reason}") from None
    if not os.access(folder / "games", os.W_OK):
        raise NotationError("data", _("{folder}: cannot write there").format(folder=folder))
    from lukfu_web.token_file import server_token

    token, replaced = server_token(folder, new_token)
    sock = _bind(host, port)
    from .progress import prepare_solver

    prepare_solver()  # the one-time compilation announced here, not inside the first engine move
    import uvicorn

    from lukfu_web.app import Config, create_app
    from lukfu_web.connections import protocol

    bound = sock.getsockname()[1]
    shown = reachable_address(host) if remote else host
    shown = f"[{shown}]" if ":" in shown else shown
    url = f"http://{shown}:{bound}/?token={token}"
    config = Config(folder, token, bound, host, workers, max_games, max_disk=disk)
    app = create_app(config)
    note(_("lukfu's table is served at the address below; games are kept in {folder}. Ctrl-C stops it.").format(folder=folder))
    if replaced is not None:
        note(replaced)
    if remote:
        note(
            _(
                "warning: listening on {host}, which other machines can reach. This is plain HTTP, not "
                "encrypted: the token in the address and every game cross the network in clear text, and "
                "anyone who can watch that network can read the token and use the table. Use it only on a "
                "network you trust."
            ).format(host=host)
        )
    print(url, flush=True)
    if open_browser:
        threading.Timer(0.8, webbrowser.open, [url]).start()
    uv = uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False, http=protocol())
    server = uvicorn.Server(uv)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    sys.stdout.flush()


def _log_to_stderr() -> None:
    """The table's own log lines (a damaged record, a folder tightened) on stderr, one line each."""
    logger = logging.getLogger("lukfu_web")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("lukfu serve: %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
