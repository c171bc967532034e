"""A hostile client on real sockets: uvicorn with the table's protocol on loopback (half-sent
headers cut off, open connections capped, raw bytes in a Host header, two Host headers), and
``lukfu serve`` itself (the URL kept across a restart, ``--new-token``, a remote bind refused
without ``--allow-remote``, no traceback in its log for any of it)."""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_web_hostile import TOKEN

from lukfu_web.app import Config, create_app

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def uvicorn_on(data: Path, max_connections: int = 100, header_seconds: float = 10.0) -> Iterator[int]:
    """uvicorn serving the table (no worker pool) on a free loopback port, in a thread."""
    import uvicorn

    from lukfu_web.connections import protocol

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    app = create_app(Config(data, TOKEN, port), start_pool=False)
    config = uvicorn.Config(app, log_level="warning", lifespan="on", http=protocol(max_connections, header_seconds))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def exchange(port: int, data: bytes, wait: float = 5.0) -> bytes:
    """Send ``data`` on a fresh connection and read until the server closes it (or ``wait`` passes)."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(data)
        return read_all(s, wait)


def read_all(s: socket.socket, wait: float) -> bytes:
    s.settimeout(wait)
    out = b""
    with contextlib.suppress(socket.timeout, ConnectionResetError):
        while chunk := s.recv(65536):
            out += chunk
    return out


def request(host: bytes, path: bytes = b"/api/info", extra: bytes = b"") -> bytes:
    return (
        b"GET " + path + b" HTTP/1.1\r\nHost: " + host + b"\r\nX-Lukfu-Token: " + TOKEN.encode()
        + b"\r\n" + extra + b"Connection: close\r\n\r\n"
    )


def test_raw_bytes_in_a_host_and_two_hosts_are_400s_and_leave_no_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG), uvicorn_on(tmp_path) as port:
        own = f"127.0.0.1:{port}".encode()
        for host in (b"127.0.0.1:\xb2", b"127.0.0.1:\xff\xfe", b"[::1]:\xb9", own + b"\x7f"):
            answer = exchange(port, request(host))
            assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]  # the door's, or the parser's (DEL)
            assert b'"host:' in answer or b"Invalid HTTP request" in answer, answer[:300]
        # the door checked the last Host and the app used the first (a 307 to evil.com)
        for path in (b"/api/info", b"/api/info/"):
            answer = exchange(port, request(b"evil.com:" + str(port).encode(), path, b"Host: " + own + b"\r\n"))
            assert answer.startswith(b"HTTP/1.1 400 ") and b"evil.com" not in answer, answer[:300]
        assert exchange(port, request(own)).startswith(b"HTTP/1.1 200 ")
    assert "Traceback" not in caplog.text and not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_half_sent_headers_are_cut_off(tmp_path: Path) -> None:
    """Thirty clients that send half a header (no token needed) once held thirty connections for
    ever; each is answered 408 and closed once the header deadline passes."""
    with uvicorn_on(tmp_path, header_seconds=1.0) as port:
        slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(30)]
        silent = socket.create_connection(("127.0.0.1", port))
        for s in slow:
            s.sendall(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:" + str(port).encode() + b"\r\nX-Lu")
        t0 = time.monotonic()
        answers = [read_all(s, 10) for s in [*slow, silent]]
        assert time.monotonic() - t0 < 8
        assert all(a.startswith(b"HTTP/1.1 408 ") and b'"headers:' in a for a in answers), answers[0]
        for s in [*slow, silent]:
            s.close()
        assert exchange(port, request(f"127.0.0.1:{port}".encode())).startswith(b"HTTP/1.1 200 ")


def test_open_connections_are_capped(tmp_path: Path) -> None:
    with uvicorn_on(tmp_path, max_connections=5, header_seconds=30) as port:
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(5)]
        time.sleep(0.2)
        answer = exchange(port, b"", wait=3)
        assert answer.startswith(b"HTTP/1.1 429 ") and b"retry-after: 2" in answer and b'"connections:' in answer
        held.pop().close()
        time.sleep(0.2)
        assert exchange(port, request(f"127.0.0.1:{port}".encode())).startswith(b"HTTP/1.1 200 ")
        for s in held:
            s.close()


# ---------------------------------------------------------------- lukfu serve itself


def start_serve(data: Path, port: int, *args: str) -> tuple[subprocess.Popen[str], str]:
    """``lukfu serve`` on ``port`` with ``data``; its process and the URL it prints."""
    cmd = [sys.executable, "-m", "lukfu_cli", "serve", "--data", str(data), "--port", str(port), *args]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip()


def stop(proc: subprocess.Popen[str]) -> str:
    """Stop ``lukfu serve`` as Ctrl-C would; what it wrote on stderr."""
    proc.terminate()
    _out, err = proc.communicate(timeout=60)
    return err


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_serve_keeps_its_address_across_a_restart_and_new_token_replaces_it(tmp_path: Path) -> None:
    port = free_port()
    proc, first = start_serve(tmp_path, port)
    time.sleep(1.0)
    own = f"127.0.0.1:{port}".encode()
    assert exchange(port, request(b"127.0.0.1:\xb2")).startswith(b"HTTP/1.1 400 ")
    assert exchange(port, request(b"evil.com:1", extra=b"Host: " + own + b"\r\n")).startswith(b"HTTP/1.1 400 ")
    os.mkfifo(tmp_path / "games" / f"{'a' * 16}.json")
    (tmp_path / "games" / f"{'b' * 16}.json").symlink_to(tmp_path / "nowhere")
    token = first.split("token=")[1].encode()
    listing = exchange(port, b"GET /api/games HTTP/1.1\r\nHost: " + own + b"\r\nX-Lukfu-Token: " + token
                       + b"\r\nConnection: close\r\n\r\n")
    assert listing.startswith(b"HTTP/1.1 200 ") and listing.count(b'"reason"') == 2
    err = stop(proc)
    assert "Traceback" not in err and err.count("is damaged") == 2, err
    proc, again = start_serve(tmp_path, port)
    stop(proc)
    assert again == first and first.startswith(f"http://127.0.0.1:{port}/?token=")
    proc, renewed = start_serve(tmp_path, port, "--new-token")
    err = stop(proc)
    assert renewed != first and "new token" in err and "Traceback" not in err


@pytest.mark.slow
def test_a_remote_bind_warns_that_the_token_crosses_the_network_in_clear_text(tmp_path: Path) -> None:
    port = free_port()
    proc, url = start_serve(tmp_path, port, "--host", "0.0.0.0", "--allow-remote")
    err = stop(proc)
    assert "clear text" in err and "not encrypted" in err
    assert url.startswith("http://") and "0.0.0.0" not in url and f":{port}/?token=" in url


def test_a_remote_bind_is_refused_without_allow_remote(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from lukfu_cli.app import app

    for host in ("0.0.0.0", "::"):
        result = CliRunner().invoke(app, ["serve", "--data", str(tmp_path), "--host", host])
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert result.exit_code == 2 and len(lines) == 1, result.output
        assert lines[0].startswith("error: host:") and "--allow-remote" in lines[0] and "TLS" in lines[0]
    result = CliRunner().invoke(app, ["serve", "--data", str(tmp_path), "--max-disk", "lots"])
    assert result.exit_code == 2 and result.output.startswith("error: max-disk:")
