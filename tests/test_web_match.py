"""The pages in a real browser against a live server.

A whole match played by clicking two table pages and the director's
dashboard; presses made while the link is down reach the server on reconnect
with their lag credit; the dashboard's alerts; what a table's token cannot
open.  Debian's chromium only (never a downloaded one); skipped without it.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from bench.web_kit import (
    CHROMIUM,
    LiveServer,
    Proxy,
    running_server,
    until,
)
from tests._web import PHONE, Pages, settle

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]


def table_page(pages: Pages, live: LiveServer, table: dict[str, Any], extra: str = "",
               base: str | None = None) -> Any:
    page = pages.open(LiveServer.table_url(table, base or live.url) + extra)
    wait(page, "s.phase !== undefined")
    return page


def screen_of(pages: Pages, live: LiveServer, table: dict[str, Any], of: Any,
              extra: str = "") -> Any:
    """A second screen of the device ``of`` (its id shared: the same device
    for the server, so its presses are the table timekeeper's too; a
    different device would have to claim the time first, test_web_keeper.py)."""
    device = json.dumps(of.evaluate("__bgclock.link.deviceId()"))
    init = f"try {{ localStorage.setItem('bgclock.device', {device}); }} catch (e) {{}}"
    page = pages.open(LiveServer.table_url(table, live.url) + extra, init=init)
    wait(page, "s.phase !== undefined")
    return page


def wait(page: Any, cond: str, timeout: float = 5000) -> None:
    """Until the page's state `s` satisfies `cond` (JavaScript)."""
    until(page, f"(() => {{ const s = window.__bgclock && __bgclock.app.state; "
                f"return !!s && ({cond}); }})()", timeout)


def state(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("__bgclock.app.state"))


def press(page: Any, side: str) -> None:
    """A finger on the half's face (its corner; the buttons are in the strip at the edge)."""
    page.locator(f"#half-{side} .face").click(position={"x": 14, "y": 14})


def act(page: Any, side: str, what: str) -> None:
    """A contextual button of a half, then its confirmation (in the same half)."""
    page.click(f"#half-{side} [data-act='{what}']")
    settle(page)
    page.click(f"#half-{side} [data-act='confirm']")


def menu(page: Any, side: str, what: str) -> None:
    """`⋯`, then (for a result) the kind, then the item and its confirmation."""
    page.click(f"#half-{side} .more")
    if "-" in what:
        settle(page)
        page.click(f"#half-{side} [data-act='{what.split('-')[0]}']")
    settle(page)
    act(page, side, what)


def roll(page: Any, a: int, b: int) -> None:
    page.click(f"#center .dice[data-die='A'] .die[data-n='{a}']")
    page.click(f"#center .dice[data-die='B'] .die[data-n='{b}']")
    page.click("#roll-start")


def director_confirm(d: Any, what: str) -> None:
    d.click(f"#actions [data-act='{what}']")
    d.click("#dlg-confirm [data-act='confirm']")


def events(live: LiveServer, table_id: int) -> list[dict[str, Any]]:
    return list(live.api("GET", f"/api/tables/{table_id}/log.json")["events"])


def test_a_whole_match_by_clicking_two_tables_and_the_dashboard(live: LiveServer,
                                                                 pages: Pages) -> None:
    table = live.table(name="Table 7", players=["Ann", "Bob"], length=3,
                       clock={"delay_ms": 4000, "reserve_ms": 5000}, warn_s=[4, 2])
    tid = table["id"]
    d = pages.open(live.director_url(), {"width": 1920, "height": 1080})
    ann = table_page(pages, live, table)  # the table's own warnings: 4 s and 2 s
    bob = screen_of(pages, live, table, ann, "&warn=3&swap=1")  # the link's, on this screen
    assert ann.evaluate("__bgclock.thresholds()") == [4000, 2000]
    assert bob.evaluate("__bgclock.thresholds()") == [3000]
    d.wait_for_selector(f".card[data-table='{tid}']")
    assert ann.locator("#half-A").evaluate("e => e.classList.contains('near')")
    assert bob.locator("#half-B").evaluate("e => e.classList.contains('near')")

    # Game 1: the opening roll (A 5, B 2) starts A's clock
    roll(ann, 5, 2)
    for p in (ann, bob):
        wait(p, "s.phase === 'playing' && s.on_turn === 'A'")
    # a press on the idle half does nothing, as on a real clock
    press(bob, "B")
    assert bob.evaluate("__bgclock.conn.pending.length") == 0
    # A hits twice: the second press is ignored
    press(ann, "A")
    press(ann, "A")
    wait(bob, "s.on_turn === 'B'")
    assert ann.locator("#half-B").evaluate("e => e.classList.contains('running')")
    # B doubles, A takes: the cube is A's at 2 and B's clock runs again
    act(bob, "B", "double")
    wait(ann, "s.double_offered_by === 'B' && s.on_turn === 'A'")
    assert ann.locator("#half-A [data-act='pass']").is_visible()
    act(ann, "A", "take")
    wait(bob, "s.cube.value === 2 && s.cube.owner === 'A' && s.on_turn === 'B'")
    assert bob.locator("#cube").inner_text().endswith("A")  # a phone shows the side's letter
    assert "Ann" in bob.locator("#cube").text_content()  # a wide screen, the name
    # B stops both clocks with one tap (reason `other` at the tap), says why (fallen dice)
    # afterwards, then resumes
    bob.click("#btn-stop")
    wait(ann, "s.phase === 'stopped' && s.stopped_reason === 'other'")
    settle(bob)
    bob.click("#center [data-reason='fallen_dice']")
    assert "fallen dice" in bob.locator("#phase").inner_text()
    assert ann.locator("#btn-resume").is_visible()
    ann.click("#btn-resume")
    wait(bob, "s.phase === 'playing' && s.on_turn === 'B'")
    # B concedes a single game; A accepts: 2 points (cube 2), the next game is Crawford
    menu(bob, "B", "concede-single")
    wait(ann, "s.phase === 'offer'")
    assert "Bob" in ann.locator("#half-A .ctx").inner_text()
    act(ann, "A", "accept")
    for p in (ann, bob):
        wait(p, "s.phase === 'between_games' && s.score[0] === 2 && s.crawford")
        assert p.locator("#crawford").is_visible()
    d.wait_for_selector(f".card[data-table='{tid}'] .badge.crawford")

    # Game 2, the Crawford game: no doubling
    roll(bob, 1, 6)
    wait(bob, "s.phase === 'playing' && s.on_turn === 'B' && s.game === 2")
    assert bob.locator("#half-B [data-act='double']").count() == 0
    press(bob, "B")
    wait(ann, "s.on_turn === 'A'")
    # Ann calls the director: a stop with reason `director`, an alert on the dashboard
    settle(ann)
    ann.click("#btn-director")
    settle(ann)
    ann.click("#center [data-act='confirm']")
    # who called (the summons, just after the stop), in one alert
    d.wait_for_selector(
        f".alert[data-kind='director'][data-table='{tid}']:has-text('Ann called the director')")
    assert d.locator(f".alert[data-table='{tid}']").count() == 1
    d.click(f".alert[data-table='{tid}'] [data-act='open']")
    director_confirm(d, "resume")
    wait(ann, "s.phase === 'playing' && s.on_turn === 'A'")
    d.wait_for_selector(f".alert[data-table='{tid}']", state="detached")
    # the director gives B three seconds
    d.select_option("#adj-side", "B")
    d.fill("#adj-amount", "0:03")
    director_confirm(d, "adjust-add")
    wait(bob, "s.B.reserve_ms === 8000")
    ann.keyboard.press("a")  # a laptop: `a` or Left Shift is A's half
    wait(bob, "s.on_turn === 'B'")
    menu(bob, "B", "game_over-single")
    for p in (ann, bob):
        wait(p, "s.phase === 'between_games' && s.score[1] === 1 && !s.crawford")

    # Game 3: A lets the clock run out (4 s of delay, then 5 s of reserve)
    roll(ann, 3, 4)
    wait(ann, "s.on_turn === 'B'")
    bob.keyboard.press("l")  # `l` or Right Shift is B's half
    wait(ann, "s.on_turn === 'A'")
    ann.wait_for_selector("#half-A.low", timeout=8000)  # under 4 s: the warning colour
    for p in (ann, bob):
        wait(p, "s.phase === 'match_over' && s.winner === 'B'", timeout=15000)
        p.wait_for_selector("#half-A.flag")
        assert p.locator("#half-B.winner").is_visible()
    warnings = ann.evaluate("__bgclock.app.warnings.map((w) => [w.side, w.threshold_ms])")
    assert [w for w in warnings if w[0] == "A"] == [["A", 4000], ["A", 2000], ["A", 0]]
    assert "FLAG" in ann.locator("#half-A .status").inner_text()
    d.wait_for_selector(f".alert[data-kind='flag'][data-table='{tid}']")
    d.click(f".alert[data-kind='flag'][data-table='{tid}'] [data-act='handled']")
    d.wait_for_selector(f".alert[data-table='{tid}']", state="detached")
    # the dashboard's log shows every event, the director's in its own colour
    d.wait_for_selector("#log tr.dir")
    dos = [e["event"]["do"] for e in events(live, tid)]
    assert dos == ["opening_roll", "hit", "double", "take", "stop", "resume", "concede", "accept",
                   "opening_roll", "hit", "stop", "resume", "adjust", "hit", "game_over",
                   "opening_roll", "hit"]


def test_presses_while_the_link_is_down_are_sent_on_reconnect_with_their_lag(
        live: LiveServer, pages: Pages) -> None:
    table = live.table(players=["Ann", "Bob"], length=5)
    port = int(live.url.rsplit(":", 1)[1])
    proxy = Proxy(port)
    try:
        ann = table_page(pages, live, table, base=proxy.url)
        watcher = table_page(pages, live, table)
        roll(ann, 6, 1)
        wait(watcher, "s.on_turn === 'A'")
        wait(ann, "s.on_turn === 'A'")  # through the relay too, before it is cut
        proxy.cut()
        ann.wait_for_selector("#conn[data-status='offline']")
        press(ann, "A")  # shown at once, queued
        assert ann.evaluate("__bgclock.display().state.on_turn") == "B"
        assert "1" in ann.locator("#conn").inner_text()
        pending = ann.evaluate("__bgclock.conn.pending.map((p) => p.id)")
        assert len(pending) == 1
        pressed = ann.evaluate("__bgclock.conn.tableMs(__bgclock.conn.pending[0].pressedAt)")
        time.sleep(1.5)
        assert state(watcher)["on_turn"] == "A"  # the server has not heard of it
        proxy.restore()
        wait(watcher, "s.on_turn === 'B'", timeout=10000)
        ann.wait_for_selector("#conn[data-status='online']")
        hit = events(live, table["id"])[-1]
        assert hit["event"] == {"v": 1, "do": "hit", "side": "A", "at_ms": hit["at_ms"]}
        assert hit["idem_key"] == pending[0]           # the same id as at the press
        # this page keeps the table's time (its first device): the press counts
        # at the instant it was made, not capped like a lag credit
        assert abs(hit["at_ms"] - pressed) <= 5, (hit, pressed)
        assert hit["lag_credit_ms"] > 1500
        # its ack follows the update the watcher saw: then nothing is pending
        until(ann, "__bgclock.conn.pending.length === 0", 10000)
        # resending an accepted id changes nothing
        ann.evaluate("(id) => __bgclock.conn.transmit({id: id, cmd: {do: 'hit', side: 'A'}, "
                     "pressedAt: performance.now()})", pending[0])
        time.sleep(0.3)
        assert len(events(live, table["id"])) == 2
    finally:
        proxy.close()


def allowances(page: Any) -> list[str]:
    page.wait_for_timeout(150)  # a frame or two
    return [page.locator(f"#half-{side} .allow").inner_text() for side in "AB"]


def test_between_games_and_at_match_over_the_allowance_is_the_engines(
        live: LiveServer, pages: Pages) -> None:
    # the engine gives the allowance the next period starts with (12 s under
    # simple delay), also after the flag: the page shows it, never a made-up 0:00
    table = live.table(players=["Ann", "Bob"], length=3, clock={"reserve_ms": 1500})
    page = table_page(pages, live, table)
    roll(page, 5, 2)
    wait(page, "s.on_turn === 'A'")
    menu(page, "A", "game_over-single")
    wait(page, "s.phase === 'between_games'")
    assert [state(page)[x]["delay_ms"] for x in "AB"] == [12_000, 12_000]
    assert allowances(page) == ["delay 0:12", "delay 0:12"]
    roll(page, 2, 5)  # B's clock runs out: 12 s of delay, then 1.5 s of reserve
    wait(page, "s.phase === 'match_over'", timeout=20_000)
    s = state(page)
    assert s["B"]["expired"] and s["B"]["reserve_ms"] == 0
    assert [s[x]["delay_ms"] for x in "AB"] == [12_000, 12_000]
    assert allowances(page) == ["delay 0:12", "delay 0:12"]
    # a page opened afterwards shows the same
    again = table_page(pages, live, table)
    assert allowances(again) == ["delay 0:12", "delay 0:12"]
    # Bronstein: what the next period could earn
    bron = live.table(rules="usbgf-2007-bronstein", players=["Ann", "Bob"], length=1)
    page = table_page(pages, live, bron)
    roll(page, 5, 2)
    menu(page, "A", "game_over-single")
    wait(page, "s.phase === 'match_over'")
    assert [state(page)[x]["delay_ms"] for x in "AB"] == [12_000, 12_000]
    assert allowances(page) == ["credit up to 0:12", "credit up to 0:12"]


def test_the_director_sets_a_tables_warnings_in_the_form_and_edits_them_before_play(
        live: LiveServer, pages: Pages) -> None:
    tn = live.tournament("Warnings cup")
    d = pages.open(live.director_url(), {"width": 1280, "height": 900})
    d.wait_for_selector("#conn[data-status='online']")
    # the form offers the tournaments the dashboard has loaded
    until(d, f"!!__bgclockDesk.app.tournaments[{tn['id']}]", timeout_ms=10_000)
    d.click("#btn-new-table")
    d.select_option("#tb-tournament", str(tn["id"]))
    d.fill("#tb-name", "Table 12")
    d.fill("#tb-a", "Gus")
    d.fill("#tb-b", "Hal")
    d.fill("#tb-warn", "90, 30")
    d.click("#tb-submit")
    d.wait_for_selector("#detail h2:has-text('Gus')")
    tid = d.evaluate("__bgclockDesk.app.selected")
    info = live.api("GET", f"/api/tables/{tid}")
    assert info["warn_s"] == [90, 30] and info["name"] == "Table 12"
    page = table_page(pages, live, info)
    assert page.evaluate("__bgclock.thresholds()") == [90000, 30000]
    # before play the director edits them; the page follows at once
    d.click("#actions [data-act='edit-table']")
    assert d.input_value("#tb-warn") == "90, 30" and d.input_value("#tb-a") == "Gus"
    d.fill("#tb-warn", "45")
    d.click("#tb-submit")
    until(page, "__bgclock.thresholds().join() === '45000'")
    assert live.api("GET", f"/api/tables/{tid}")["warn_s"] == [45]
    # a wrong figure gets the server's reason in the form
    d.click("#actions [data-act='edit-table']")
    d.fill("#tb-warn", "0")
    d.click("#tb-submit")
    d.wait_for_selector("#tb-msg:has-text('warn_s')")
    d.click("#dlg-table [data-close]")
    # once play has started the table can no longer be edited
    roll(page, 3, 1)
    d.wait_for_selector("#actions [data-act='edit-table']", state="detached")


def test_the_dashboard_raises_alerts_until_the_director_handles_them(live: LiveServer,
                                                                      pages: Pages) -> None:
    table = live.table(name="Table 9", players=["Cleo", "Dan"], length=5)
    tid = table["id"]
    d = pages.open(live.director_url(), {"width": 1280, "height": 900})
    cleo = table_page(pages, live, table)
    dan = screen_of(pages, live, table, cleo, "&swap=1")
    roll(cleo, 2, 4)  # Dan (B) to play
    wait(cleo, "s.on_turn === 'B'")
    # usbgf-2013 §4.1: Cleo picked up her dice before Dan hit his clock; Dan, on
    # turn, stops both clocks and summons the director to claim the penalty
    assert dan.locator("#half-A .more").count() == 1
    dan.click("#half-A .more")
    assert dan.locator("#half-A [data-act='premature']").count() == 0  # not on turn
    dan.click("#half-A [data-act='close']")
    menu(dan, "B", "premature")
    wait(cleo, "s.phase === 'stopped' && s.stopped_reason === 'director'")
    alert = d.wait_for_selector(f".alert[data-kind='premature'][data-table='{tid}']")
    assert "Dan claims a premature action by Cleo" in alert.inner_text()
    # the stop's own "director called" alert is the same call: shown once
    assert d.locator(f".alert[data-table='{tid}']").count() == 1
    stop = events(live, tid)[-1]["event"]
    assert stop["do"] == "stop" and stop["reason"] == "director" and stop["side"] == "B"
    (note,) = [n for n in live.api("GET", f"/api/tables/{tid}/log.json")["notes"] if "why" in n]
    assert (note["why"], note["side"], note["seq"]) == ("premature", "B", 2)
    # the director resumes without ruling yet: the claim stays until handled
    d.click(f".card[data-table='{tid}']")
    director_confirm(d, "resume")
    wait(cleo, "s.phase === 'playing'")
    d.wait_for_selector("#log tr.note")
    assert d.locator(f".alert[data-kind='premature'][data-table='{tid}']").count() == 1
    # confirming it sends the director's `premature` for Cleo, and handles it
    d.click(f".alert[data-table='{tid}'] [data-act='confirm-premature']")
    d.click("#dlg-confirm [data-act='confirm']")
    wait(cleo, "s.A.forfeit_delay")
    d.wait_for_selector(f".alert[data-table='{tid}']", state="detached")
    assert events(live, tid)[-1]["event"]["do"] == "premature"
    assert events(live, tid)[-1]["event"]["side"] == "A"
    # a stop for dice not left on the board (§4.2) is not a call for the director
    press(dan, "B")
    wait(cleo, "s.on_turn === 'A'")
    cleo.click("#btn-stop")
    assert "dice not left" in cleo.locator("#center [data-reason='dice_not_left']").inner_text()
    wait(dan, "s.phase === 'stopped' && s.stopped_reason === 'other'")  # stopped at the tap
    settle(cleo)
    cleo.click("#center [data-reason='dice_not_left']")
    assert "dice not left" in cleo.locator("#phase").inner_text()
    time.sleep(0.3)
    assert d.locator(f".alert[data-table='{tid}']").count() == 0
    cleo.click("#btn-resume")
    # Cleo claims a gammon, Dan rejects: a dispute for the director
    wait(cleo, "s.phase === 'playing' && s.on_turn === 'A'")
    menu(cleo, "A", "claim-gammon")
    wait(cleo, "s.phase === 'offer'")
    act(cleo, "B", "reject")
    d.wait_for_selector(f".alert[data-kind='dispute'][data-table='{tid}']")
    director_confirm(d, "ruling-accept")
    wait(cleo, "s.phase === 'between_games' && s.score[0] === 2")
    d.wait_for_selector(f".alert[data-table='{tid}']", state="detached")
    # a break running over its limit (Italian: 10 minutes) is an alert too
    over = d.evaluate("""() => __bgclockDesk.alertsOf({info: {id: 99, players: ['X', 'Y']}, seq: 3,
        recvAt: performance.now(), state: {at_ms: 700000, phase: 'break', A: {}, B: {},
        break: {side: 'A', started_ms: 60000, limit_ms: 600000}}}).map((a) => a.kind)""")
    assert over == ["break_over"]
    # a refused command shows the engine's reason
    d.fill("#adj-amount", "")
    d.click("#actions [data-act='adjust-add']")
    assert d.locator("#result").inner_text() != ""


def test_a_match_recovered_after_a_restart_is_flagged_on_the_dashboard(
        browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "bgclock.db"
    # the table's phone: the same browser (its device id) before and after
    phone = browser.new_context(viewport=PHONE)
    try:
        with running_server(db) as first:
            table = first.table(players=["Eve", "Fay"], length=3)
            page = phone.new_page()
            page.goto(LiveServer.table_url(table, first.url))
            wait(page, "s.phase === 'setup'")
            roll(page, 4, 1)
            wait(page, "s.phase === 'playing'")
            time.sleep(1.2)  # a checkpoint
            page.close()
        # the laptop restarts the server on the same address (the phone's origin)
        with running_server(db, port=int(first.url.rsplit(":", 1)[1])) as second:
            ctx = browser.new_context(viewport={"width": 1280, "height": 800})
            try:
                d = ctx.new_page()
                d.goto(second.director_url())
                # flagged while the table's device is away ...
                d.wait_for_selector(f".alert[data-kind='restart'][data-table='{table['id']}']")
                # ... and not stopped: the phone kept the table's time meanwhile
                log = second.api("GET", f"/api/tables/{table['id']}/log.json")["events"]
                assert [e["event"]["do"] for e in log] == ["opening_roll"]
                # the phone comes back: reconciled, the alert ends
                page = phone.new_page()
                page.goto(LiveServer.table_url(table, second.url))
                wait(page, "s.phase === 'playing' && s.on_turn === 'A'")
                d.wait_for_selector(".alert[data-kind='restart']", state="detached")
            finally:
                ctx.close()
    finally:
        phone.close()


def test_a_table_token_cannot_open_the_dashboard_nor_another_table(live: LiveServer,
                                                                    pages: Pages) -> None:
    t1 = live.table()
    t2 = live.table()
    for url in (f"{live.url}/director?key={t1['token']}",
                f"{live.url}/t/{t2['id']}?token={t1['token']}"):
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(url, timeout=5)
        err.value.close()  # its socket, else finalized by a later test's collection
        assert err.value.code in (401, 403)
    page = pages.open(f"{live.url}/director?key={t1['token']}")
    assert "Director's dashboard" not in page.content()
    # the API refuses the token too
    with pytest.raises(urllib.error.HTTPError) as err:
        live.api("GET", "/api/tournaments", key=t1["token"])
    err.value.close()
    assert err.value.code == 401
    # a dashboard given a table's token over the WebSocket is told so
    good = pages.open(live.director_url())
    good.wait_for_selector("#conn[data-status='online']")
    bad = pages.open(live.director_url())
    bad.evaluate("(tok) => { __bgclockDesk.conn.stopped = false; __bgclockDesk.conn.hello = () => "
                 "({type: 'hello', v: 1, key: tok}); __bgclockDesk.conn.drop(); }", t1["token"])
    bad.wait_for_selector("#fatal:not([hidden])")
    assert "cannot open" in bad.locator("#fatal").inner_text()


def test_the_overtime_option_from_the_form_to_the_mark_and_the_alert(live: LiveServer,
                                                                      pages: Pages) -> None:
    # USBGF Rules Options, Overtime: the director sets it in the table form; a
    # side's first expiry stops the clocks and grants it; the table page marks
    # that side and the dashboard says overtime was granted.
    tn = live.tournament("Overtime cup")
    d = pages.open(live.director_url(), {"width": 1280, "height": 900})
    d.wait_for_selector("#conn[data-status='online']")
    # the form offers the tournaments the dashboard has loaded
    until(d, f"!!__bgclockDesk.app.tournaments[{tn['id']}]", timeout_ms=10_000)
    d.click("#btn-new-table")
    d.select_option("#tb-tournament", str(tn["id"]))
    d.select_option("#tb-rules", "usbgf-2007-bronstein")
    d.fill("#tb-a", "Ivy")
    d.fill("#tb-b", "Jo")
    d.fill("#tb-reserve", "0:01")
    d.fill("#tb-overtime", "1:00")
    d.click("#tb-submit")
    d.wait_for_selector("#detail h2:has-text('Ivy')")
    tid = d.evaluate("__bgclockDesk.app.selected")
    info = live.api("GET", f"/api/tables/{tid}")
    assert info["clock"]["overtime_ms"] == 60_000
    page = table_page(pages, live, info)
    assert "overtime" not in (page.get_attribute("#half-A", "class") or "")
    roll(page, 5, 2)  # Ivy's 1 s runs out: both clocks stop, 1:00 of overtime
    wait(page, "s.phase === 'stopped' && s.A.overtime", timeout=10_000)
    s = state(page)
    assert s["stopped_reason"] == "time_expired" and s["A"]["reserve_ms"] == 60_000
    assert not s["A"]["expired"]
    page.wait_for_selector("#half-A.overtime")
    assert "OVERTIME" in page.inner_text("#half-A .status")
    assert "overtime" not in (page.get_attribute("#half-B", "class") or "")
    alert = f".alert[data-kind='overtime'][data-table='{tid}']"
    d.wait_for_selector(alert)
    assert "overtime granted to Ivy" in d.inner_text(alert)
    assert d.locator(f".alert[data-kind='flag'][data-table='{tid}']").count() == 0
