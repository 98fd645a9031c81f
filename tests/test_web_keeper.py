"""The table's timekeeper claim in a real browser, on an insecure LAN-like
origin (``http://tables.lan:PORT``, Chromium's host resolver mapping it to
127.0.0.1), against ``bgclock serve`` on SQLite and PostgreSQL (issue 17 §1).

- The director opens the table's link first, then the phone plays: the phone
  keeps the time (the laptop never claims by looking), and its presses made
  while the server is down (``kill -9``) are stored at the instants of the
  taps.
- A second phone while the keeper is offline: its presses are refused until
  the keeper has been silent past the bound and it asks for the time; the
  dashboard shows the keeper offline and the clocks as the server's estimate.
- The time changes hands only with consent (issue 33 §3): a player's own
  phone asks; the table's phone refuses, ignores or agrees; the director
  hands the time over from the dashboard.
- Round 2 at the same table with ``kill -9``: the claim is carried, presses
  made meanwhile are stored at their instants, no restart stop.
- A flag during the phone's outage, the tournament's draw polled every
  0.5 s: never the provisional flag, then the reconciled log's result.

``BGCLOCK_SHOTS=docs/screenshots`` refreshes the docs' pictures (Italian,
360×640). Waits are on state, never on wall time.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from tests._server_kit import STORES
from tests._web import Pages, until_api
from tests.test_web_device import Served, db_args, engine_ready, hits
from tests.test_web_match import press, roll, wait

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing")

HOST = "tables.lan"
#: A venue name the server was not started with (neither --public-url nor --allow-host).
OTHER = "bgclock.lan"
SMALL = {"width": 360, "height": 640}
LAPTOP = {"width": 1280, "height": 800}
#: The keeper's silence bound the tests' server is started with (seconds).
SILENT_S = 2
#: BGCLOCK_SHOTS=docs/screenshots refreshes the docs' pictures.
SHOTS = os.environ.get("BGCLOCK_SHOTS")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, resolving the venue's name to this machine."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=[
            "--no-sandbox", f"--host-resolver-rules=MAP {HOST} 127.0.0.1, MAP {OTHER} 127.0.0.1"])
        yield b
        b.close()


@pytest.fixture(params=STORES)
def served(request: Any, tmp_path: Path) -> Iterator[Served]:
    with db_args(request.param, tmp_path) as args:
        s = Served(args)
        # a short silence bound: a keeper online is never silent, whatever the bound
        s.args = [*args, "--public-url", f"http://{HOST}:{s.port}",
                  "--keeper-silent-s", str(SILENT_S)]
        s.start()
        try:
            yield s
        finally:
            s.stop()


def lan(served: Served) -> str:
    return f"http://{HOST}:{served.port}"


def open_table(pages: Pages, served: Served, table: dict[str, Any],
               viewport: dict[str, int], lang: str = "en") -> Any:
    page = pages.open(LiveServer.table_url(table, lan(served)) + f"&lang={lang}", viewport)
    wait(page, "s.phase !== undefined")
    return page


def link(live: LiveServer, table_id: int) -> dict[str, Any]:
    return dict(live.api("GET", f"/api/tables/{table_id}")["link"])


def kept_in_italian(live: LiveServer, pages: Pages,
                    served: Served) -> tuple[dict[str, Any], Any, str]:
    """An Italian table whose phone (360×640) made the opening roll and so
    keeps the time: the table, the phone's page and its device id."""
    table = live.table(players=["Ann", "Bob"], length=5, rules="it-tournament")
    keeper = open_table(pages, served, table, SMALL, "it")
    engine_ready(keeper)
    roll(keeper, 6, 2)
    wait(keeper, "s.on_turn === 'A'")
    keeper_id = str(keeper.evaluate("__bgclock.link.deviceId()"))
    until_api(lambda: link(live, table["id"])["keeper_device"] == keeper_id)
    return table, keeper, keeper_id


def a_then_b_offline(page: Any) -> list[tuple[str, int]]:
    """A's press then B's on a page whose link is down: the two commands
    waiting, as ``(id, instant the device applied it at)``."""
    press(page, "A")
    until(page, "__bgclock.display().state.on_turn === 'B'", 2000)
    press(page, "B")
    until(page, "__bgclock.display().state.on_turn === 'A'", 2000)
    made = [(str(i), int(at)) for i, at in
            page.evaluate("__bgclock.app.engine.pending.map((p) => [p.id, p.at_ms])")]
    assert len(made) == 2
    return made


def silent_past_the_bound(live: LiveServer, table_id: int) -> None:
    """Until the server has heard nothing of the keeper for the bound (its
    own reading: ``offline_since_ms`` and ``silent_bound_ms``)."""
    def silent() -> bool:
        now = link(live, table_id)
        since = now["offline_since_ms"]
        return (now["state"] == "offline" and since is not None
                and time.time() * 1000 >= since + now["silent_bound_ms"] + 50)
    until_api(silent, timeout_s=SILENT_S + 10.0)


def test_the_director_opens_the_link_first_then_the_phone_keeps_the_time(
        served: Served, pages: Pages) -> None:
    live = served.live
    assert live is not None
    table = live.table(players=["Ann", "Bob"], length=5, rules="usbgf-2007-bronstein")
    laptop = open_table(pages, served, table, LAPTOP)          # the director checks the link
    assert link(live, table["id"])["keeper"] is False           # looking claims nothing
    phone = open_table(pages, served, table, SMALL)
    phone_id = phone.evaluate("__bgclock.link.deviceId()")
    engine_ready(phone)
    roll(phone, 4, 2)
    wait(phone, "s.on_turn === 'A'")
    until_api(lambda: link(live, table["id"])["keeper_device"] == phone_id)
    # the laptop says who keeps the time and offers the claim
    laptop.wait_for_selector("#keeper [data-act='keep']")
    assert f"Table {table['id']}" in laptop.locator("#keeper .keeper-who").inner_text()
    until(phone, "__bgclock.conn.offset !== null", 5000)
    served.kill9()                                              # the outage
    phone.wait_for_selector("#conn[data-status='offline']", timeout=5000)
    made = a_then_b_offline(phone)
    served.start()
    phone.wait_for_selector("#conn[data-synced='1']", timeout=30_000)
    stored = {h["idem_key"]: h["at_ms"] for h in hits(live, table["id"])}
    for cmd_id, at in made:
        assert abs(stored[cmd_id] - at) <= 250, (cmd_id, at, stored)
    # the laptop is still no keeper; the restart stopped nothing
    assert link(live, table["id"])["keeper_device"] == phone_id
    server = live.api("GET", f"/api/tables/{table['id']}")["state"]
    assert server["phase"] == "playing" and server["on_turn"] == "A"


def test_a_second_phone_while_the_keeper_is_offline(served: Served, pages: Pages) -> None:
    live = served.live
    assert live is not None
    table, keeper, keeper_id = kept_in_italian(live, pages, served)
    if SHOTS:
        keeper.screenshot(path=f"{SHOTS}/keeper-phone-it.png")
    director = pages.open(live.director_url(lan(served)) + "&lang=it", SMALL)
    director.wait_for_selector("[data-badge='keeper'][data-keeper='online']")
    keeper.context.close()                                     # the keeper's phone is gone
    pages.contexts.remove(keeper.context)
    until_api(lambda: link(live, table["id"])["state"] == "offline")
    second = open_table(pages, served, table, SMALL, "it")
    engine_ready(second)
    # a second device is connected: the dashboard still shows the keeper offline
    director.wait_for_selector("[data-badge='offline'][data-keeper='offline']")
    director.wait_for_selector("[data-badge='estimate']")
    # the second phone's hello reaches the server after its page is ready
    until_api(lambda: link(live, table["id"])["devices"] == 1)
    second.wait_for_selector("#keeper [data-act='keep']")
    assert "non in linea" in second.locator("#keeper .keeper-who").inner_text()
    if SHOTS:
        second.screenshot(path=f"{SHOTS}/keeper-second-phone-it.png")
        director.screenshot(path=f"{SHOTS}/keeper-dashboard-it.png", full_page=True)
    press(second, "A")                                         # refused: not the keeper
    second.wait_for_selector("#toast:not([hidden])")
    assert "Chiedi il tempo" in second.locator("#toast").inner_text()
    until(second, "__bgclock.app.engine.pending.length === 0", 5000)
    assert hits(live, table["id"]) == []
    silent_past_the_bound(live, table["id"])
    second.click("#keeper [data-act='keep']")
    until_api(lambda: link(live, table["id"])["keeper_device"] != keeper_id)
    second.wait_for_selector("#keeper", state="hidden")
    director.wait_for_selector("[data-badge='keeper'][data-keeper='online']")
    wait(second, "s.on_turn === 'A'")
    until(second, "__bgclock.conn.offset !== null", 5000)
    # the press as a tap sends it, with the instant the device applied it at
    cmd_id, made = second.evaluate("""(() => {
      const id = __bgclock.command({do: "hit", side: "A"});
      const p = __bgclock.app.engine.pending.find((x) => x.id === id);
      return [id, p ? p.at_ms : null]; })()""")
    assert made is not None
    until_api(lambda: len(hits(live, table["id"])) == 1)
    [stored] = hits(live, table["id"])
    assert stored["idem_key"] == cmd_id and abs(stored["at_ms"] - made) <= 250
    if SHOTS:
        second.screenshot(path=f"{SHOTS}/keeper-claimed-phone-it.png")


@pytest.mark.parametrize("pressed_since", [False, True], ids=["kept", "pressed-since"])
def test_a_hand_over_while_the_keeper_is_offline(served: Served, pages: Pages,
                                                 pressed_since: bool) -> None:
    """The keeper's Wi-Fi drops and the players go on pressing it; a second
    phone takes the time over.  When the keeper comes back, its presses
    made before the hand-over are stored at their taps' instants, unless the
    second phone has been pressed since: then none is, the keeper's page
    says why in Italian, and the dashboard's card counts them."""
    live = served.live
    assert live is not None
    table, keeper, keeper_id = kept_in_italian(live, pages, served)
    until(keeper, "__bgclock.conn.offset !== null", 5000)
    director = pages.open(live.director_url(lan(served)) + "&lang=it", LAPTOP)
    director.wait_for_selector("[data-badge='keeper'][data-keeper='online']")
    keeper.context.set_offline(True)                            # the Wi-Fi drops
    keeper.wait_for_selector("#conn[data-status='offline']", timeout=10_000)
    until_api(lambda: link(live, table["id"])["state"] == "offline")
    made = a_then_b_offline(keeper)
    second = open_table(pages, served, table, SMALL, "it")
    engine_ready(second)
    silent_past_the_bound(live, table["id"])
    second.click("#keeper [data-act='keep']")
    second_id = second.evaluate("__bgclock.link.deviceId()")
    until_api(lambda: link(live, table["id"])["keeper_device"] == second_id)
    if pressed_since:
        # the second phone's players press on from the clocks it shows
        wait(second, "s.on_turn === 'A'")
        until(second, "__bgclock.conn.offset !== null", 5000)
        press(second, "A")
        until_api(lambda: len(hits(live, table["id"])) == 1)
    keeper.context.set_offline(False)                           # the keeper is back
    keeper.wait_for_selector("#conn[data-synced='1']", timeout=30_000)
    until(keeper, "__bgclock.app.engine.pending.length === 0", 10_000)
    stored = {h["idem_key"]: h["at_ms"] for h in hits(live, table["id"])}
    handover = link(live, table["id"])["handover"]
    if not pressed_since:
        assert len(stored) == 2
        for cmd_id, at in made:
            assert abs(stored[cmd_id] - at) <= 250, (cmd_id, at, stored)
        assert handover["refused"] == 0
        wait(second, "s.on_turn === 'A'")                     # it follows the keeper's presses
        assert director.locator("[data-badge='handover']").count() == 0
    else:
        assert len(stored) == 1 and not {cmd_id for cmd_id, _ in made} & set(stored)
        assert handover["refused"] == 2
        badge = director.wait_for_selector("[data-badge='handover']")
        assert "2" in badge.inner_text() and "non contate" in badge.inner_text()
        assert "non conta" in keeper.locator("#conn, #toast").all_inner_texts().__str__()
    assert link(live, table["id"])["keeper_device"] == second_id
    if SHOTS:
        which = "pressed" if pressed_since else "kept"
        keeper.screenshot(path=f"{SHOTS}/keeper-handover-{which}-it.png")


def test_a_name_the_server_was_not_started_with_says_why(served: Served, pages: Pages) -> None:
    """The phone opens the table's link at a venue name the server refuses
    WebSockets at (against DNS rebinding): the bar says so, in Italian, with
    what to do, instead of "reconnecting" for ever; the link as printed works."""
    live = served.live
    assert live is not None
    table = live.table(players=["Ann", "Bob"], length=5, rules="it-tournament")
    url = LiveServer.table_url(table, f"http://{OTHER}:{served.port}") + "&lang=it"
    phone = pages.open(url, SMALL)
    phone.wait_for_selector("#conn[data-status='host_refused']")
    text = phone.locator("#conn").get_attribute("title") or ""
    assert f"«{OTHER}»" in text and f"--allow-host {OTHER}" in text, text
    assert phone.evaluate("__bgclock.conn.stopped") is True
    if SHOTS:
        phone.screenshot(path=f"{SHOTS}/table-host-refused-it.png")
    printed = open_table(pages, served, table, SMALL, "it")     # the link as printed
    printed.wait_for_selector("#conn[data-status='online']")


def test_round_2_at_the_same_table_with_kill_9(served: Served, pages: Pages) -> None:
    """The claim survives the next match at the same link and a ``kill -9``:
    presses made meanwhile are stored at their instants, no restart stop."""
    live = served.live
    assert live is not None
    table = live.table(players=["Ann", "Bob"], length=1, rules="usbgf-2007-bronstein")
    phone = open_table(pages, served, table, SMALL)
    phone_id = phone.evaluate("__bgclock.link.deviceId()")
    engine_ready(phone)
    roll(phone, 4, 2)
    wait(phone, "s.on_turn === 'A'")
    from tests.test_web_device import director_command

    ended = director_command(live, table["id"], do="game_over", winner="A", result="single")
    assert ended["type"] == "ack"
    wait(phone, "s.phase === 'match_over'")
    live.api("POST", f"/api/tables/{table['id']}/next-match",
             {"rules": "usbgf-2007-bronstein", "length": 3, "players": ["Cy", "Di"]})
    wait(phone, "s.phase === 'setup'")
    assert link(live, table["id"])["keeper_device"] == phone_id   # carried to round 2
    engine_ready(phone)
    roll(phone, 5, 1)
    wait(phone, "s.on_turn === 'A'")
    until(phone, "__bgclock.conn.offset !== null", 5000)
    served.kill9()
    phone.wait_for_selector("#conn[data-status='offline']", timeout=5000)
    made = a_then_b_offline(phone)
    served.start()
    phone.wait_for_selector("#conn[data-synced='1']", timeout=30_000)
    events = live.api("GET", f"/api/tables/{table['id']}/log.json")["events"]
    assert [e["event"]["do"] for e in events] == ["opening_roll", "hit", "hit"]  # no restart stop
    stored = {e["idem_key"]: e["at_ms"] for e in events}
    for cmd_id, at in made:
        assert abs(stored[cmd_id] - at) <= 250, (cmd_id, at, stored)
    assert link(live, table["id"])["keeper_device"] == phone_id


def test_a_flag_during_the_outage_never_reaches_the_draw(served: Served, pages: Pages) -> None:
    """The phone is away (its link black-holed); it stopped B's clock before
    the flag the server works out.  The draw, polled every 0.5 s, never shows
    that flag as a result, and ends with the reconciled log's."""
    from tests.test_web_table import BlackHole

    live = served.live
    assert live is not None
    base = f"/api/tournaments/{live.tournament()['id']}"
    live.api("POST", f"{base}/settings", {"rounds": [
        {"length": 3, "rules": "usbgf-2013-delay", "clock": "required"}]})
    for name in ("Ann", "Bob"):
        pid = live.api("POST", f"{base}/players", {"name": name})["done"][0]["player"]
        live.api("POST", f"{base}/players/{pid}/check-in")
    live.api("POST", f"{base}/draw", {"seed": 7})
    started = live.api("POST", f"{base}/rounds", {"round": 0})
    pair = started["state"]["main"]["rounds"][0][0]
    table = live.api("PATCH", f"/api/tables/{started['tables'][0]['table_id']}",
                     {"clock": {"reserve_ms": 8_000, "delay_ms": 0}})
    seen: list[Any] = []

    def poll() -> Any:
        winner = live.api("GET", f"{base}/state")["main"]["rounds"][0][0]["winner"]
        seen.append(winner)
        return winner

    hole = BlackHole(served.port)
    try:
        url = LiveServer.table_url(table, f"http://{HOST}:{hole.url.rsplit(':', 1)[1]}")
        phone = pages.open(url, SMALL)
        wait(phone, "s.phase !== undefined")
        engine_ready(phone)
        roll(phone, 3, 5)                                   # B to play: 8 s
        wait(phone, "s.on_turn === 'B'")
        until(phone, "__bgclock.conn.offset !== null", 5000)
        phone.context.set_offline(True)
        hole.freeze()
        phone.wait_for_selector("#conn[data-status='offline']", timeout=15000)
        press(phone, "B")                                   # B stopped in time, offline
        until(phone, "__bgclock.display().state.on_turn === 'A'", 2000)
        [(cmd_id, made)] = phone.evaluate(
            "__bgclock.app.engine.pending.map((p) => [p.id, p.at_ms])")
        end = time.monotonic() + 30
        while live.api("GET", f"/api/tables/{table['id']}")["provisional"] is None:
            assert time.monotonic() < end, "the server never flagged"
            assert poll() is None
            time.sleep(0.5)
        # the dashboard shows it as provisional, not as a flag to rule on
        director = pages.open(live.director_url(lan(served)) + "&lang=it", SMALL)
        director.wait_for_selector("[data-alert='provisional']")
        assert director.locator("[data-alert='flag']").count() == 0
        director.wait_for_selector("[data-badge='winner'][data-provisional='1']")
        if SHOTS:
            director.screenshot(path=f"{SHOTS}/keeper-provisional-dashboard-it.png", full_page=True)
        for _ in range(3):                                  # the guess stays out of the draw
            assert poll() is None
            time.sleep(0.5)
        phone.context.set_offline(False)
        hole.thaw()
        phone.wait_for_selector("#conn[data-synced='1']", timeout=20_000)
        assert live.api("GET", f"/api/tables/{table['id']}")["provisional"] is None
        [stored] = hits(live, table["id"])
        assert stored["idem_key"] == cmd_id and abs(stored["at_ms"] - made) <= 250
        # A's 8 s run out with the phone online: the draw follows the table's log
        end = time.monotonic() + 30
        while poll() is None:
            assert time.monotonic() < end, "no result"
            time.sleep(0.5)
        assert seen[-1] == pair["b"]
        assert pair["a"] not in seen  # the provisional flag never was a result
    finally:
        hole.close()


# ------------------------------------------------- consent (issue 33 §3)

def own_phone_asks(live: LiveServer, pages: Pages,
                   served: Served) -> tuple[dict[str, Any], Any, str, Any, str]:
    """The table's phone keeps the time; a player's own phone opens the same
    link (the QR code) and asks for the time; the table's phone shows the
    request.  The table, both pages and their device ids."""
    table, keeper, keeper_id = kept_in_italian(live, pages, served)
    own = open_table(pages, served, table, SMALL, "it")
    engine_ready(own)
    own_id = str(own.evaluate("__bgclock.link.deviceId()"))
    own.wait_for_selector("#keeper [data-act='keep']")
    own.click("#keeper [data-act='keep']")
    own.wait_for_selector("#keeper [data-ask='pending']")
    assert "Tavolo" in own.locator("#keeper [data-ask='pending']").inner_text()
    ask = keeper.wait_for_selector(f"#keeper [data-ask='{own_id}']")
    words = ask.inner_text()
    assert f"Tavolo {table['id']}" in words and "Passarglielo?" in words, words
    assert [a["device"] for a in link(live, table["id"])["asks"]] == [own_id]
    return table, keeper, keeper_id, own, own_id


def shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png")


def test_a_players_phone_asks_and_the_table_refuses(served: Served, pages: Pages) -> None:
    live = served.live
    assert live is not None
    table, keeper, keeper_id, own, _ = own_phone_asks(live, pages, served)
    shot(keeper, "consent-asked-keeper-it")
    shot(own, "consent-asked-own-it")
    keeper.click("#keeper [data-act='keep-no']")
    keeper.wait_for_selector("#keeper .keeper-ask", state="detached")
    own.wait_for_selector("#toast:not([hidden])")
    until(own, "document.getElementById('toast').textContent.includes('ha detto no')", 5000)
    own.wait_for_selector("#keeper [data-ask='pending']", state="detached")
    shot(own, "consent-refused-own-it")
    now = link(live, table["id"])
    assert now["keeper_device"] == keeper_id and now["asks"] == []
    # the table's phone goes on keeping the time
    press(keeper, "A")
    until_api(lambda: len(hits(live, table["id"])) == 1)


def test_a_request_the_table_ignores_changes_nothing(served: Served, pages: Pages) -> None:
    live = served.live
    assert live is not None
    table, keeper, keeper_id, own, own_id = own_phone_asks(live, pages, served)
    # the table's players press on; the request waits; the player's phone is refused
    press(keeper, "A")
    until_api(lambda: len(hits(live, table["id"])) == 1)
    wait(own, "s.on_turn === 'B'")
    until(own, "__bgclock.conn.offset !== null", 5000)
    press(own, "B")
    until(own, "__bgclock.app.engine.pending.length === 0", 5000)
    assert len(hits(live, table["id"])) == 1
    press(keeper, "B")
    until_api(lambda: len(hits(live, table["id"])) == 2)
    now = link(live, table["id"])
    assert now["keeper_device"] == keeper_id
    assert [a["device"] for a in now["asks"]] == [own_id]  # still waiting, nothing moved
    keeper.wait_for_selector(f"#keeper [data-ask='{own_id}']")
    shot(keeper, "consent-ignored-keeper-it")


def test_a_players_phone_asks_and_the_table_agrees(served: Served, pages: Pages) -> None:
    live = served.live
    assert live is not None
    table, keeper, _, own, own_id = own_phone_asks(live, pages, served)
    keeper.click("#keeper [data-act='keep-yes']")
    until_api(lambda: link(live, table["id"])["keeper_device"] == own_id)
    own.wait_for_selector("#keeper", state="hidden")
    keeper.wait_for_selector("#keeper [data-act='keep']")         # the table's phone may ask back
    assert f"Tavolo {table['id']}" in keeper.locator("#keeper .keeper-who").inner_text()
    shot(keeper, "consent-agreed-keeper-it")
    wait(own, "s.on_turn === 'A'")
    until(own, "__bgclock.conn.offset !== null", 5000)
    press(own, "A")
    until_api(lambda: len(hits(live, table["id"])) == 1)
    r = live.api("GET", f"/api/tables/{table['id']}/log.json")
    assert [n["by"] for n in r["notes"] if n.get("type") == "keeper"] == ["press", "consent"]


def test_the_director_hands_the_time_over_from_the_dashboard(served: Served,
                                                             pages: Pages) -> None:
    live = served.live
    assert live is not None
    table, keeper, _, own, own_id = own_phone_asks(live, pages, served)
    director = pages.open(live.director_url(lan(served)) + "&lang=it", SMALL)
    badge = director.wait_for_selector(f"[data-badge='asks'][data-device='{own_id}']")
    assert "chiede il tempo" in badge.inner_text()
    shot(director, "consent-dashboard-it")
    director.once("dialog", lambda d: d.accept("Banco di Anna"))
    director.click(f"[data-act='give-time'][data-device='{own_id}']")
    until_api(lambda: link(live, table["id"])["keeper_device"] == own_id)
    assert link(live, table["id"])["keeper_name"] == "Banco di Anna"
    own.wait_for_selector("#keeper", state="hidden")
    keeper.wait_for_selector("#keeper .keeper-who")
    until(keeper, "document.querySelector('#keeper .keeper-who').textContent"
                  ".includes('Banco di Anna')", 5000)
    shot(keeper, "consent-director-keeper-it")
    director.wait_for_selector("[data-badge='asks']", state="detached")
    director.wait_for_selector("[data-badge='keeper'][data-keeper='online']")
