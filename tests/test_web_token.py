"""The token in a real browser (headless Chromium): nothing that opens the table reaches a page on
another port of 127.0.0.1 (cookies ignore ports, so the table sets none), and the table survives
a restart: the printed address stays the same, a reloaded tab and the printed address return to
the game in progress, and after ``--new-token`` the old tab says what to do in the reader's
language (never raw JSON)."""

from __future__ import annotations

import http.server
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_e2e import chromium, start_game, state, wait

ROOT = Path(__file__).resolve().parent.parent


class Recorder(http.server.BaseHTTPRequestHandler):
    """A neighbour's web service: records every request it receives, answers with a page that
    tries the table's API from there."""

    seen: list[str] = []
    table_port = 0

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        self.seen.append(self.requestline + "\n" + str(self.headers))
        p = self.table_port
        body = (
            "<!doctype html><title>neighbour</title>"
            f'<img src="http://127.0.0.1:{p}/api/games"><img src="http://localhost:{p}/api/games">'
            f"<script>fetch('http://127.0.0.1:{p}/api/games', {{mode: 'no-cors', credentials: 'include'}})"
            ".finally(() => { document.title = 'done'; });</script>"
        ).encode()
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Serve:
    """``lukfu serve`` on a fixed port and data folder, started and stopped at will."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = free_port()
        self.proc: subprocess.Popen[str] | None = None

    def start(self, *args: str) -> str:
        cmd = [sys.executable, "-m", "lukfu_cli", "serve", "--data", str(self.data), "--port", str(self.port), *args]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        assert self.proc.stdout is not None
        return self.proc.stdout.readline().strip()

    def stop(self) -> str:
        assert self.proc is not None
        self.proc.terminate()
        _out, err = self.proc.communicate(timeout=60)
        return err


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    driver = chromium("ru,en;q=0.5")
    try:
        yield driver
    finally:
        driver.quit()


@pytest.mark.slow
def test_a_page_on_another_port_receives_nothing_that_opens_the_table(tmp_path: Path, browser: Any) -> None:
    serve = Serve(tmp_path)
    url = serve.start()
    token = url.split("token=")[1]
    Recorder.seen = []
    Recorder.table_port = serve.port
    neighbour = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Recorder)
    threading.Thread(target=neighbour.serve_forever, daemon=True).start()
    d = browser
    try:
        d.get(url)
        game = start_game(d)["id"]  # a fresh folder: the start screen first
        assert token not in d.current_url and d.get_cookies() == []
        assert d.execute_script("return document.cookie") == ""
        assert d.execute_script("return sessionStorage.getItem('lukfu.token')") == token
        d.get(f"http://127.0.0.1:{neighbour.server_port}/")
        wait(d, lambda d: d.title == "done")
        d.get(f"http://localhost:{neighbour.server_port}/other")
        assert len(Recorder.seen) >= 2
        for request in Recorder.seen:
            assert token not in request and not re.search(r"(?im)^cookie:", request), request
        # back at the table in the same tab: its own sessionStorage still holds the token
        d.get(f"http://127.0.0.1:{serve.port}/")
        assert wait(d, lambda d: state(d).get("id")) == game
    finally:
        neighbour.shutdown()
        err = serve.stop()
    assert "Traceback" not in err


@pytest.mark.slow
def test_a_restart_keeps_the_address_the_tab_and_the_game_in_progress(tmp_path: Path, browser: Any) -> None:
    serve = Serve(tmp_path)
    url = serve.start()
    d = browser
    try:
        d.get(url)
        # the Master's seat and a fixed deal: the first decision (the call) is the person's, so the
        # page has choices at once (a drawn deal could end in an engine's claim before any)
        game = start_game(d, seat=0, seed=5)["id"]
        wait(d, lambda d: state(d).get("choices"))
        answers = state(d)["answers"]
        assert serve.stop() is not None
        assert serve.start() == url  # the same address: the token is kept in the data folder
        d.refresh()
        assert wait(d, lambda d: state(d).get("id")) == game and state(d)["answers"] >= answers
        d.switch_to.new_window("tab")
        d.get(url)  # the printed address: the game in progress, not a new one
        assert wait(d, lambda d: state(d).get("id")) == game
        d.close()
        d.switch_to.window(d.window_handles[0])
        serve.stop()
        renewed = serve.start("--new-token")
        assert renewed != url
        d.refresh()  # the kept token is refused now: the page says what to do, in Russian
        notice = wait(d, lambda d: d.find_elements("id", "notice"))[0].text
        assert "lukfu serve" in notice and re.search("[а-я]", notice) and "{" not in notice
        d.get(f"http://127.0.0.1:{serve.port}/api/games")  # an address typed without the token
        body = d.find_element("tag name", "body").text
        assert d.find_element("tag name", "h1").text and re.search("[а-я]", body)
        assert not body.lstrip().startswith("{") and "\\u2026" not in body
        d.get(renewed.replace("/?token=", "/nowhere?token="))
        assert d.find_element("tag name", "h1").text and "404" in d.find_element("tag name", "body").text
    finally:
        err = serve.stop()
    assert "Traceback" not in err
