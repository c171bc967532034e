"""The table as a person uses it, in a real headless Chromium (Debian's ``chromium`` and
``chromium-driver``, driven by Selenium): ``lukfu serve`` started as a command, a new game from
the dialog, the call, a whole deal played by clicking cards, a hint, the switch to Russian, the
record downloaded and accepted by ``lukfu replay``, and opened again in the replay screen.
Screenshots at 1280×800 and 390×844 go to ``LUKFU_SCREENSHOTS`` when set (docs/images/ keeps
them, shrunk with pngquant: ``LUKFU_SCREENSHOTS=DIR LUKFU_REVIEW='{}' python -m pytest
tests/test_web_e2e.py``, the review then at lukfu review's defaults).

Without Chromium the module is skipped with one line naming the install command; on CI (where
``.ci/run`` installs it) a missing browser fails instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
INSTALL = "sudo apt-get install chromium chromium-driver"
if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
    if os.environ.get("CI"):
        pytest.fail(f"the browser tests need Chromium on CI: {INSTALL}", pytrace=False)
    pytest.skip(f"no Chromium for the browser tests: {INSTALL}", allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from lukfu_solver.i18n import number, using_language  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
REVIEW = '{"samples": 2, "max_nodes": 2000}'
"""The review the journey asks for: small, so the test stays quick."""
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-default-apps",
    "--disable-extensions",
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``lukfu serve`` as a person starts it; yields the URL it prints."""
    data = tmp_path_factory.mktemp("data")
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "lukfu_cli", "serve", "--data", str(data), "--port", str(port), "--workers", "2"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert url.startswith(f"http://127.0.0.1:{port}/?token="), url
        yield url
    finally:
        proc.terminate()
        proc.wait(30)


def chromium(languages: str = "en-US,en") -> Any:
    """A headless Chromium driven by Selenium, its downloads in a fresh folder, asking for pages
    in ``languages`` (its ``Accept-Language``)."""
    downloads = tempfile.mkdtemp(prefix="lukfu-downloads-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='lukfu-chromium-')}")
    prefs = {"download.default_directory": downloads, "download.prompt_for_download": False, "intl.accept_languages": languages}
    options.add_experimental_option("prefs", prefs)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    driver.downloads = downloads  # type: ignore[attr-defined]
    return driver


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    driver = chromium()
    try:
        yield driver
    finally:
        driver.quit()


def viewport(driver: Any, width: int, height: int) -> None:
    """The page's size exactly (a phone's is 390×844)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )


def shoot(driver: Any, name: str) -> None:
    """A screenshot to LUKFU_SCREENSHOTS (when set) and to the temporary folder."""
    folder = os.environ.get("LUKFU_SCREENSHOTS")
    path = Path(folder) if folder else Path(tempfile.gettempdir()) / "lukfu-screens"
    path.mkdir(parents=True, exist_ok=True)
    time.sleep(0.6)  # the last play's short animation ends
    driver.save_screenshot(str(path / f"{name}.png"))


def state(driver: Any) -> dict[str, Any]:
    """The page's game state, or {} while the page is still loading (its scripts not yet run)."""
    return driver.execute_script("return window.lukfu?.game?.game ?? null") or {}


def wait(driver: Any, check: Any, seconds: float = 60) -> Any:
    quiet = (StaleElementReferenceException, NoSuchElementException)  # the page redraws as it goes
    return WebDriverWait(driver, seconds, poll_frequency=0.1, ignored_exceptions=quiet).until(lambda d: check(d))


def start_game(driver: Any, seat: int | None = None, level: int | None = None, seed: int | None = None,
               deals: int = 1, strength: str = "easy") -> dict[str, Any]:
    """A game (or the first deal of a session of ``deals``) from the start screen, as a person
    starts one: the strength, the seat, one deal or an evening, the finer settings unfolded when
    asked for; the new game's state."""
    d = driver
    wait(d, lambda d: d.find_elements(By.ID, "btn-new"))  # the page's scripts have drawn its bar
    if not d.find_elements(By.ID, "new-deal") or not d.find_element(By.ID, "new-deal").is_displayed():
        d.find_element(By.ID, "btn-new").click()
    wait(d, lambda d: d.find_element(By.ID, "new-deal").is_displayed())
    before = state(d).get("id")
    d.find_element(By.ID, f"start-{strength}").click()
    if seat is not None:
        Select(d.find_element(By.ID, "new-seat")).select_by_value(str(seat))
    if deals > 1:
        d.find_element(By.ID, "start-evening").click()
        count = d.find_element(By.ID, "new-deals")
        count.clear()
        count.send_keys(str(deals))
    else:
        d.find_element(By.ID, "start-one").click()
    if level is not None or seed is not None:
        more = d.find_element(By.ID, "start-more")
        if not more.get_attribute("open"):
            more.find_element(By.TAG_NAME, "summary").click()
        if level is not None:
            Select(d.find_element(By.ID, "new-level")).select_by_value(str(level))
        if seed is not None:
            d.find_element(By.ID, "new-seed").send_keys(str(seed))
    d.find_element(By.ID, "new-deal").click()
    return wait(d, lambda d: (s := state(d)).get("id") and s["id"] != before and s)


def cards_of(move: str) -> list[str]:
    """C2M45 -> C2 M4 M5 (a discard's x dropped)."""
    out, suit = [], ""
    for ch in move.lstrip("x"):
        if ch.isalpha():
            suit = ch
        else:
            out.append(suit + ch)
    return out


def click_move(driver: Any, move: str) -> None:
    """Play ``move`` as a person does: its cards clicked in the hand, then the play button."""
    if move == "claim":
        driver.find_element(By.ID, "btn-claim").click()
        return
    for card in cards_of(move):
        driver.find_element(By.CSS_SELECTOR, f'.hand button[data-card="{card}"]').click()
    button = driver.find_element(By.ID, "btn-play")
    assert button.is_enabled(), f"{move} chosen but not playable"
    button.click()


def keyboard_move(driver: Any, move: str) -> None:
    """Play ``move`` from the keyboard: Space on each of its cards (in focus), Enter plays them."""
    from selenium.webdriver.common.keys import Keys

    card = None
    for code in cards_of(move):
        card = driver.find_element(By.CSS_SELECTOR, f'.hand button[data-card="{code}"]')
        card.send_keys(Keys.SPACE)
        wait(driver, lambda d, c=code: d.find_element(By.CSS_SELECTOR, f'.hand button[data-card="{c}"]').get_attribute("aria-pressed") == "true")
    assert card is not None
    driver.switch_to.active_element.send_keys(Keys.ENTER)


def box(driver: Any, css: str) -> tuple[float, float, float] | None:
    """The first element matching ``css`` on screen: (top, bottom, the screen's height), or None."""
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); if (!e) return null;"
        "const r = e.getBoundingClientRect(); return [r.top, r.bottom, window.innerHeight];",
        css,
    )


def in_view(driver: Any, *selectors: str) -> None:
    """Every element named is wholly on screen, without scrolling."""
    for css in selectors:
        found = box(driver, css)
        assert found is not None, css
        top, bottom, height = found
        assert 0 <= top and bottom <= height, f"{css} at {top:.0f}-{bottom:.0f} on a screen {height:.0f} high"


NOT_WORDS = (
    r"lukfu\s+[a-z]+(?:\s+[A-Za-z0-9./:_,-]+)*",  # a command to type (the review's, the advice's)
    r"--[a-z-]+(?:\s+[A-Z0-9]+\b)?",  # an option and its value
    r"\bx?(?:[CSMT][1-9]+\*?)+\b",  # the card notation (an Old card marked 9*)
    r"[\w./-]+\.json",  # file names
)
ALLOWED = {"A", "B", "C", "S", "M", "T", "x", "Luk", "Fu", "English"}  # seat and suit letters, the game, the language's own name
ALLOWED |= {"H", "U", "D", "R", "N", "G", "O", "Y", "Enter", "Esc", "Space"}  # the keys shown beside buttons
ALLOWED |= {"rule", "pimc", "ipimc", "random"}  # the engines, named as --opponents takes them


def english_left(driver: Any) -> set[str]:
    """The ASCII words on the page's screen (and its open dialog) outside card notation, commands
    and key names: none may be left on a Russian page."""
    import re

    text = driver.execute_script("return document.body.innerText")
    for pattern in NOT_WORDS:
        text = re.sub(pattern, " ", text)
    return {w for w in re.findall(r"[^\W\d_]+", text) if w.isascii()} - ALLOWED


@pytest.mark.slow
def test_a_whole_deal_by_clicking(server: str, browser: Any) -> None:
    d = browser
    viewport(d, 1280, 800)
    d.get(server)
    d.execute_script("localStorage.setItem('lukfu.pause', '120'); localStorage.setItem('lukfu.pace', 'fast')")
    # a quick review (lukfu review's --samples 2 --max-nodes 2000); LUKFU_REVIEW='{}' for the defaults
    d.execute_script("localStorage.setItem('lukfu.review', arguments[0])", os.environ.get("LUKFU_REVIEW", REVIEW))
    wait(d, lambda d: d.find_elements(By.ID, "new-deal") or state(d).get("id"))  # the start screen on a first visit
    start_game(d, seat=0, level=1, seed=2)
    wait(d, lambda d: state(d).get("seed") == 2 and state(d).get("phase") == "call")
    assert "seat 0" in d.find_element(By.CSS_SELECTOR, ".hand-area h2").text
    assert d.find_elements(By.CSS_SELECTOR, ".hand .card.old")  # Old cards marked
    # the advice on request (H): advise's play and pass, the recommendation and the chart of outcomes
    d.find_element(By.TAG_NAME, "body").send_keys("h")
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".advice .chart-row"), 90)
    assert "lukfu advise" in d.find_element(By.CSS_SELECTOR, ".advice").text
    shoot(d, "advice-1280x800")
    d.find_element(By.TAG_NAME, "body").send_keys("1")  # the call from the keyboard: 1 plays
    wait(d, lambda d: state(d).get("phase") == "play" and state(d).get("your_turn"))
    # the hint: the best few moves with their points (lukfu play's Hint.top), one line on the
    # rest; a row clicked chooses that move's cards
    d.find_element(By.ID, "btn-hint").click()
    row = wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".hint table.moves tbody tr"))
    assert 2 <= len(row) <= 5 and "%" in row[0].text
    assert len(state(d)["choices"]) <= len(row) or d.find_elements(By.CSS_SELECTOR, ".hint .untold")
    shoot(d, "hint-1280x800")
    best = row[0].find_element(By.CSS_SELECTOR, "button.chip")
    move = best.get_attribute("data-move")
    best.click()
    chosen = {b.get_attribute("data-card") for b in d.find_elements(By.CSS_SELECTOR, ".hand button.chosen")}
    assert chosen == set(cards_of(move))
    before = state(d)["answers"]
    d.find_element(By.ID, "btn-play").click()
    wait(d, lambda d: state(d).get("answers", 0) > before)
    plays = 1
    russian = discarded = keyed = False
    while True:
        g = wait(d, lambda d: (s := state(d)) and (s["phase"] == "over" or (s["your_turn"] and not s["waiting_for_engine"])) and s, 120)
        if g["phase"] == "over":
            break
        if plays == 2:
            shoot(d, "table-1280x800")
            viewport(d, 390, 844)
            d.execute_script("window.scrollTo(0, 0)")
            shoot(d, "table-390x844")
            # on a phone the hint's answer comes into view with the hand, its highlight and the buttons
            d.find_element(By.TAG_NAME, "body").send_keys("h")
            wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".hint table.moves tbody tr"), 90)
            time.sleep(0.4)
            in_view(d, ".hand-area .hand", ".hand .card.playable", "#btn-play", "#btn-hint", ".hint table.moves")
            shoot(d, "hint-390x844")
            viewport(d, 1280, 800)
        if plays == 3 and not russian:
            Select(d.find_element(By.ID, "lang")).select_by_value("ru")
            wait(d, lambda d: "ваши карты" in d.find_element(By.CSS_SELECTOR, ".hand-area h2").text)
            hand = wait(d, lambda d: d.find_element(By.CSS_SELECTOR, ".hand").text)
            assert any(suit in hand for suit in ("Монеты", "Струны", "Мириады", "Десятки"))
            assert "Подсказка" in d.find_element(By.ID, "btn-hint").text
            # numbers written as lukfu writes them in Russian (i18n.number): 20 000, -1,38, +0,50
            shown = d.execute_async_script(
                "const done = arguments[0]; import('/static/js/i18n.js').then((m) =>"
                " done([m.number(20000), m.number(-1.375, 2), m.signed(0.5, 2), m.signed(0), m.number(1234567)]))"
            )
            with using_language("ru"):
                assert shown == [number(20000), number(-1.375, 2), number(0.5, 2, sign=True), "0", number(1234567)]
            russian = True
            assert not english_left(d), english_left(d)
            d.find_element(By.CSS_SELECTOR, ".tabs button.tab:nth-child(2)").click()  # the tricks so far
            assert not english_left(d), english_left(d)
        sensible = d.find_elements(By.CSS_SELECTOR, ".combos.sensible button.chip")
        if sensible and not discarded:  # a sensible discard is one click, a second plays it
            assert g["choices"][0].startswith("x") and [b.get_attribute("data-move") for b in sensible] == g["sensible"]
            sensible[0].click()
            wait(d, lambda d: d.find_element(By.ID, "btn-play").is_enabled())
            d.find_element(By.CSS_SELECTOR, ".combos.sensible button.chip").click()
            discarded = True
        elif plays == 2 and g["choices"][0] != "claim":
            keyboard_move(d, g["choices"][0])
            keyed = True
        else:
            click_move(d, "claim" if "claim" in g["choices"] else g["choices"][0])
        plays += 1
        wait(d, lambda d, n=g["answers"]: state(d).get("answers", 0) > n)
    assert russian and discarded and keyed and plays >= 3
    result = wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".result-area"))
    assert "Чистые очки" in result[0].text or "очк" in result[0].text
    assert not english_left(d), english_left(d)
    shoot(d, "result-1280x800")
    # the review, a page of its own: its progress at the top, in view; then lukfu review's numbers
    # for your seat, drawn on the cards, with the graph of your points and each better line by trick
    d.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    d.find_element(By.ID, "btn-review").click()
    in_view(d, ".review-page-head", "#btn-review-close")
    if d.find_elements(By.CSS_SELECTOR, ".review-page .work"):
        in_view(d, ".review-page .work")
    decisions = wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".review ol.decisions li"), 300)
    assert len(decisions) >= 2 and d.find_elements(By.CSS_SELECTOR, ".review svg.graph path.exact")
    assert len(d.find_elements(By.CSS_SELECTOR, ".review svg.graph path")) == 2  # each line unbroken
    assert d.find_elements(By.CSS_SELECTOR, ".review svg.graph .axis-label")
    assert "lukfu review RECORD.json --seat" in d.find_element(By.CSS_SELECTOR, ".review").text
    lines = d.find_elements(By.CSS_SELECTOR, ".review table.line tr")
    if lines:  # a better line is told trick by trick, with each trick's winner
        assert lines[0].find_elements(By.CSS_SELECTOR, "td.winner")
    assert not english_left(d), english_left(d)
    shoot(d, "review-1280x800")
    if lines:
        d.execute_script("document.querySelector('.review table.line').closest('li').scrollIntoView()")
        shoot(d, "review-line-1280x800")
    viewport(d, 390, 844)
    d.execute_script("window.scrollTo(0, 0)")
    shoot(d, "review-390x844")
    viewport(d, 1280, 800)
    d.find_element(By.ID, "btn-review-close").click()
    wait(d, lambda d: d.find_element(By.CSS_SELECTOR, ".result-area").is_displayed())
    d.find_element(By.ID, "btn-download").click()
    folder = Path(d.downloads)
    files = wait(d, lambda d: [p for p in folder.glob("*.json")], 30)
    record = files[0]
    done = subprocess.run([sys.executable, "-m", "lukfu_cli", "replay", str(record)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # the record opened again: the replay screen with its slider
    d.find_element(By.ID, "file-open").send_keys(str(record))
    slider = wait(d, lambda d: d.find_elements(By.ID, "replay-slider"))[0]
    slider.send_keys("\ue010")  # End
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".replay .outcome"))
    for key in "\ue011" + "\ue014" * 13:  # Home, then 13 steps on: the middle of the deal, hands shown
        d.switch_to.active_element.send_keys(key)
    wait(d, lambda d: d.find_element(By.ID, "replay-slider").get_attribute("value") == "13")
    assert "5" in d.find_element(By.CSS_SELECTOR, ".replay-nav .count").text  # play 13 is in trick 5
    assert not english_left(d), english_left(d)
    shoot(d, "replay-1280x800")


def api(server: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """A call to the table's API with the printed address's token, as another tab makes one (a
    POST when ``body`` is given)."""
    import json
    import urllib.request
    from urllib.parse import parse_qs, urlsplit

    parts = urlsplit(server)
    headers = {"X-Lukfu-Token": parse_qs(parts.query)["token"][0], "Content-Type": "application/json"}
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{parts.scheme}://{parts.netloc}{path}", data, headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


@pytest.mark.slow
def test_several_tabs_play_their_own_games(server: str, browser: Any) -> None:
    """The printed address opens the game this browser plays, even when another unfinished game
    has changed since (another tab's, or an older game an engine's move has just touched); a new
    game in one tab is that tab's (the address names it), and a tab opened on another's game
    shows it as it stands."""
    d = browser
    d.get(server)
    wait(d, lambda d: d.find_elements(By.ID, "new-deal") or state(d).get("id"))
    first = start_game(d, seat=0)["id"]  # seat 0 calls first: nothing moves in it until you answer
    other = api(server, "/api/games", {"seat": 0, "opponents": ["easy"]})["id"]  # newer, and unfinished
    assert api(server, "/api/games?finished=false&limit=1")["games"][0]["id"] == other
    d.switch_to.new_window("tab")
    try:
        d.get(server)
        assert wait(d, lambda d: state(d).get("id")) == first  # the game in progress: this browser's
        second = start_game(d)["id"]
        assert d.current_url.endswith(f"#game={second}")
        d.refresh()  # the tab keeps its token (sessionStorage) and its game (the address)
        assert wait(d, lambda d: state(d).get("id")) == second
        d.get(server.split("?")[0] + f"#game={first}")
        wait(d, lambda d: state(d).get("id") == first)
    finally:
        d.close()
        d.switch_to.window(d.window_handles[0])
    assert state(d)["id"] == first


@pytest.mark.slow
def test_russian_screens_and_a_trick_that_waits_for_you(server: str, browser: Any) -> None:
    """In Russian, the call, the advice and every dialog show no English word; at the pace that
    waits (the default), a won trick stays on the table, its winner said, until you go on."""
    from selenium.webdriver.common.keys import Keys

    d = browser
    viewport(d, 1280, 800)
    d.get(server)
    d.execute_script("localStorage.setItem('lukfu.pause', '120'); localStorage.removeItem('lukfu.pace'); localStorage.setItem('lukfu.lang', 'ru')")
    d.get(server.split("?")[0])
    wait(d, lambda d: "Новая игра" in d.find_element(By.ID, "btn-new").text)  # the game in progress, or the start screen
    d.find_element(By.ID, "btn-new").click()
    wait(d, lambda d: d.find_element(By.ID, "new-deal").is_displayed())
    d.find_element(By.CSS_SELECTOR, "#start-more summary").click()
    assert not english_left(d), english_left(d)  # the start screen, its finer settings unfolded
    start_game(d, seat=0, level=1, seed=3)
    wait(d, lambda d: state(d).get("seed") == 3 and state(d).get("your_turn"))
    assert not english_left(d), english_left(d)  # the call
    viewport(d, 390, 844)  # on a phone the advice comes into view with the hand and the call's buttons
    d.find_element(By.ID, "btn-advice").click()
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".advice .chart-row"), 90)
    time.sleep(0.4)
    in_view(d, ".hand-area .hand", "#btn-call-play", "#btn-advice", ".advice .recommendation")
    shoot(d, "advice-390x844")
    viewport(d, 1280, 800)
    assert not english_left(d), english_left(d)  # the advice
    for opener in ("btn-help", "btn-games"):
        d.find_element(By.ID, opener).click()
        wait(d, lambda d: d.find_element(By.ID, "dialog").is_displayed())
        assert not english_left(d), (opener, english_left(d))
        d.find_element(By.ID, "dialog-close").click()
    d.find_element(By.ID, "btn-call-play").click()
    wait(d, lambda d: state(d).get("phase") == "play")
    assert Select(d.find_element(By.ID, "pace")).first_selected_option.get_attribute("value") == "wait"
    while True:
        g = wait(d, lambda d: (s := state(d)) and (s["phase"] == "over" or (s["your_turn"] and not s["waiting_for_engine"]) or d.find_elements(By.ID, "btn-next-trick")) and s, 120)
        assert g["phase"] != "over", "no trick waited for the person in the whole deal"
        if d.find_elements(By.ID, "btn-next-trick"):
            break
        move = next((m for m in g["choices"] if m != "claim"), g["choices"][0])
        click_move(d, move)
        wait(d, lambda d, n=g["answers"]: state(d).get("answers", 0) > n)
    held = state(d)
    assert held["tricks"][-1]["winner"] is not None and held["waiting_for_engine"]
    summary = d.find_element(By.CSS_SELECTOR, ".trick-area .summary").text
    assert "взятку" in summary and not english_left(d), english_left(d)
    time.sleep(2.5)  # longer than any timed pace holds a trick: it is still there
    assert state(d)["answers"] == held["answers"] and d.find_elements(By.ID, "btn-next-trick")
    d.find_element(By.TAG_NAME, "body").send_keys(Keys.ENTER)  # go on
    wait(d, lambda d: state(d).get("answers", 0) > held["answers"])
    Select(d.find_element(By.ID, "pace")).select_by_value("fast")  # remembered by this browser
    assert d.execute_script("return localStorage.getItem('lukfu.pace')") == "fast"
