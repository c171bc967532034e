"""An evening at the table in a real headless Chromium: the start screen (whom you play, your seat,
one deal or an evening of several), a session of two deals with the server restarted in the
middle (the tab reloaded comes back to the deal it was at, the next deal is the next seed with its
own Master, the same two players), the session's summary (the points per deal and the totals, as
the records have them) and your record's page; in Russian, none of these screens shows an English
word. Screenshots at 1280×800 and 390×844 go to ``LUKFU_SCREENSHOTS`` when set."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from test_web_e2e import chromium, click_move, english_left, shoot, start_game, state, viewport, wait
from test_web_sessions import keep_records
from test_web_token import Serve

from lukfu_solver.series import DealSeries


@pytest.fixture(scope="module")
def browser() -> Any:
    driver = chromium()
    try:
        yield driver
    finally:
        driver.quit()


def play_out(d: Any) -> dict[str, Any]:
    """Play the deal shown to its end by clicking (you call play; then a claim when you may, else
    your first legal move); the state at the end."""
    while True:
        g = wait(d, lambda d: (s := state(d)) and (s["phase"] == "over" or (s["your_turn"] and not s["waiting_for_engine"])) and s, 120)
        if g["phase"] == "over":
            return g
        if g["phase"] == "call":
            d.find_element(By.ID, "btn-call-play").click()
        else:
            click_move(d, "claim" if "claim" in g["choices"] else g["choices"][0])
        wait(d, lambda d, n=g["answers"]: state(d).get("answers", 0) > n)


def signed(n: int) -> str:
    """A number of points as the page writes it: +2, -1, 0."""
    return f"{n:+d}" if n else "0"


def series(d: Any) -> dict[str, Any]:
    """The session the page holds, as the server summed it up."""
    return d.execute_script("return window.lukfu?.game?.state?.series ?? null") or {}


@pytest.mark.slow
def test_the_start_screen_an_evening_of_two_deals_a_restart_the_summary_and_your_record(tmp_path: Path, browser: Any) -> None:
    (tmp_path / "games").mkdir(mode=0o700)
    keep_records(tmp_path / "games", range(1, 25))  # 24 deals played before, against two rule players
    serve = Serve(tmp_path)
    url = serve.start()
    d = browser
    try:
        viewport(d, 1280, 800)
        d.get(url)
        d.execute_script("localStorage.setItem('lukfu.pause', '60'); localStorage.setItem('lukfu.pace', 'fast')")
        # a first visit: the start screen, offering the server's strengths, your seat and the deals
        wait(d, lambda d: d.find_element(By.ID, "new-deal").is_displayed())
        assert state(d) == {} and not d.find_elements(By.ID, "start-back")  # no game dealt unasked
        info = d.execute_script("return window.lukfu.info")
        for word in info["strengths"]:
            assert d.find_element(By.ID, f"start-{word}")
        assert [o.get_attribute("value") for o in Select(d.find_element(By.ID, "new-seat")).options] == ["", "0", "1", "2"]
        shoot(d, "start-1280x800")
        viewport(d, 390, 844)
        shoot(d, "start-390x844")
        viewport(d, 1280, 800)
        first = start_game(d, seat=0, seed=74, deals=2)
        sid = first["series"]["id"]
        assert first["series"]["deal"] == 1 and first["seat"] == 0 and first["master"] == 0
        bar = wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".series-bar"))[0]
        assert "Deal 1 of 2" in bar.text and "easy A" in bar.text
        assert d.find_element(By.CSS_SELECTOR, ".hand-area .badge.master")  # the Master badge from the state
        shoot(d, "evening-1280x800")
        one = play_out(d)
        wait(d, lambda d: series(d).get("played") == 1)
        mine = one["outcome"]["points"][one["seat"]]
        assert wait(d, lambda d: d.find_elements(By.ID, "btn-next-deal"))
        assert f"Score after deal 1 of 2: you {signed(mine)}" in d.find_element(By.CSS_SELECTOR, ".score-line").text
        # the server restarted between the deals: a reload comes back to the deal, its next one to come
        serve.stop()
        assert serve.start() == url
        d.refresh()
        wait(d, lambda d: state(d).get("id") == one["id"] and d.find_elements(By.ID, "btn-next-deal"))
        d.find_element(By.ID, "btn-next-deal").click()
        two = wait(d, lambda d: (s := state(d)).get("series", {}).get("deal") == 2 and s)
        want = DealSeries.new(seed=74, deals=2, seat=0, opponents=["easy"]).game(2)
        assert two["seed"] == 75 and two["seat"] == want.human_seat and two["players"] == list(want.seat_names)
        assert sorted(two["players"]) == sorted(one["players"])  # the same two players, by the same names
        # and restarted again in the middle of deal 2: the tab goes on where it was
        serve.stop()
        assert serve.start() == url
        d.refresh()
        assert wait(d, lambda d: state(d).get("id")) == two["id"]
        two = play_out(d)
        wait(d, lambda d: d.find_elements(By.ID, "btn-summary"))[0].click()
        rows = wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".session-table tbody tr"))
        points = [mine, two["outcome"]["points"][two["seat"]]]
        assert d.current_url.endswith(f"#session={sid}")
        cells = [r.find_elements(By.CSS_SELECTOR, "td") for r in rows]
        assert [c[3].text for c in cells[:2]] == [signed(p) for p in points]  # you, deal by deal
        assert cells[2][2].text == signed(sum(points))  # the total (its row opens with a heading)
        assert "2 deals against easy A and easy B, seeds 74–75." in d.find_element(By.ID, "session-page").text
        shoot(d, "summary-1280x800")
        viewport(d, 390, 844)
        shoot(d, "summary-390x844")
        viewport(d, 1280, 800)
        d.refresh()  # the summary has its own address
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".session-table tbody tr"))
        d.find_element(By.ID, "btn-summary-record").click()
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".standing-table tbody tr"))
        record = d.find_element(By.ID, "record-page").text
        assert "26 deals played" in record and "easy" in record and "rule" in record
        assert len(d.find_elements(By.CSS_SELECTOR, "svg.standing-graph rect.bar")) == 2
        assert len(d.find_elements(By.CSS_SELECTOR, "svg.standing-graph line.whisker")) == 3  # rule's interval: 24 deals
        rows = [r.text for r in d.find_elements(By.CSS_SELECTOR, ".standing-table tbody tr")]
        assert rows[0].startswith("easy 2 ") and "from 10 deals" in rows[0] and rows[1].startswith("rule 24 ")
        assert d.find_elements(By.CSS_SELECTOR, f'button[data-session="{sid}"]')
        shoot(d, "record-1280x800")
        viewport(d, 390, 844)
        shoot(d, "record-390x844")
        viewport(d, 1280, 800)
        # in Russian: the record, the summary and the start screen show no English word
        Select(d.find_element(By.ID, "lang")).select_by_value("ru")
        wait(d, lambda d: "Ваши результаты" in d.find_element(By.ID, "record-page").text)
        assert not english_left(d), english_left(d)
        d.find_element(By.CSS_SELECTOR, f'button[data-session="{sid}"]').click()
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".session-table tbody tr"))
        assert not english_left(d), english_left(d)
        d.find_element(By.ID, "btn-summary-close").click()  # back to the table: the last deal, in Russian
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".series-bar") and d.find_element(By.CSS_SELECTOR, ".result-area").is_displayed())
        assert not english_left(d), english_left(d)
        d.find_element(By.ID, "btn-new").click()
        wait(d, lambda d: d.find_element(By.ID, "new-deal").is_displayed())
        d.find_element(By.CSS_SELECTOR, "#start-more summary").click()
        assert not english_left(d), english_left(d)
        Select(d.find_element(By.ID, "lang")).select_by_value("en")
    finally:
        err = serve.stop()
    assert "Traceback" not in err
