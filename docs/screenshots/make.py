"""Regenerate the pages' screenshots (docs/pages.md shows them).

    python docs/screenshots/make.py
    python docs/screenshots/make.py two-dashboards   # that screenshot only
    python docs/screenshots/make.py outage           # the outage and reload ones only

Starts a server with a few tables in telling states, opens the table page and
the director's dashboard in Debian's chromium at phone (360x640, 412x915),
tablet (1024x768, landscape) and desktop (1920x1080) sizes, and saves PNGs
beside this script.
"""

from __future__ import annotations

import base64
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from bench.web_kit import CHROMIUM, LiveServer, launch_chromium, running_server, until  # noqa: E402

SIZES = {"360x640": (360, 640), "640x360": (640, 360), "412x915": (412, 915),
         "1024x768": (1024, 768), "1920x1080": (1920, 1080)}


def open_page(browser: Any, url: str, size: str, lang: str = "en") -> Any:
    w, h = SIZES[size]
    ctx = browser.new_context(viewport={"width": w, "height": h}, locale=lang)
    page = ctx.new_page()
    page.goto(url + ("&" if "?" in url else "?") + "lang=" + lang)
    until(page, "(window.__bgclock && __bgclock.app.state) || window.__bgclockDesk")
    return page


def cmd(page: Any, **command: Any) -> None:
    seq = page.evaluate("__bgclock.app.seq")
    page.evaluate("(c) => __bgclock.command(c)", command)
    until(page, f"__bgclock.app.seq > {seq}")


def shot(page: Any, name: str) -> None:
    page.wait_for_timeout(350)
    page.screenshot(path=str(HERE / f"{name}.png"))
    print("wrote", name + ".png")


def side_by_side(browser: Any, shots: list[tuple[str, bytes]], name: str) -> None:
    """Screenshots side by side, each under its caption, as one PNG."""
    figures = "".join(
        f'<figure><figcaption>{caption}</figcaption>'
        f'<img src="data:image/png;base64,{base64.b64encode(png).decode()}"></figure>'
        for caption, png in shots)
    ctx = browser.new_context(viewport={"width": 800, "height": 600})
    page = ctx.new_page()
    page.set_content(
        "<style>body{margin:0;display:flex;gap:16px;padding:12px;background:#444;"
        "align-items:flex-start;width:max-content}figure{margin:0}figcaption{color:#fff;"
        "font:bold 16px sans-serif;padding:0 0 6px}img{display:block;"
        "box-shadow:0 0 0 1px #000}</style>" + figures)
    page.wait_for_timeout(200)
    page.screenshot(path=str(HERE / f"{name}.png"), full_page=True)
    print("wrote", name + ".png")
    ctx.close()


def two_dashboards(browser: Any, live: LiveServer) -> None:
    """Two dashboards of one director (a laptop and a phone): a call handled on
    the laptop has left the phone too; both show the same premature claim."""
    tn = int(live.tournament("Two dashboards")["id"])
    calm = live.table(tn, name="Table 1", players=["Kim", "Lou"])
    claim = live.table(tn, name="Table 2", players=["Mia", "Ned"], length=5)
    for t, dice in ((calm, [5, 2]), (claim, [2, 4])):
        pg = open_page(browser, LiveServer.table_url(t, live.url), "412x915")
        cmd(pg, do="opening_roll", dice=dice)
        if t is calm:
            pg.evaluate("__bgclock.callDirector('A', 'director')")
        else:
            pg.evaluate("__bgclock.callDirector('B', 'premature')")
        until(pg, "__bgclock.app.state.phase === 'stopped' && __bgclock.conn.pending.length === 0")
        pg.context.close()
    laptop = open_page(browser, live.director_url(), "1024x768")
    phone = open_page(browser, live.director_url(), "412x915")
    for d in (laptop, phone):
        d.wait_for_selector(f".alert[data-table='{calm['id']}']")
        d.wait_for_selector(f".alert[data-kind='premature'][data-table='{claim['id']}']")
    laptop.click(f".alert[data-table='{calm['id']}'] [data-act='handled']")
    for d in (laptop, phone):
        d.wait_for_selector(f".alert[data-table='{calm['id']}']", state="detached")
    phone.wait_for_timeout(350)
    laptop.wait_for_timeout(350)
    side_by_side(browser, [("Dashboard 1 (laptop): Handled pressed for Table 1",
                            laptop.screenshot()),
                           ("Dashboard 2 (phone): the same alerts", phone.screenshot())],
                 "director-two-dashboards")
    laptop.context.close()
    phone.context.close()


NAMES = ["Anna Rossi", "Bruno Bianchi", "Carla Verdi", "Dario Neri", "Elena Gallo",
         "Fabio Conti", "Giulia Marino", "Ivan Greco", "Laura Bruno", "Marco Costa",
         "Nadia Fontana", "Oscar Moretti", "Paola Barbieri", "Renato Lombardi",
         "Sara Giordano", "Tommaso Rinaldi", "Ugo Ferrari", "Vera Colombo", "Walter Ricci",
         "Zoe Mancini", "Alberto Leone", "Bianca Longo", "Cesare Gentile", "Diana Martini"]


def room(browser: Any, live: LiveServer) -> None:
    """The room display's views at 1920x1080 (a 24-player Main, 4 late slots)."""
    tn = int(live.tournament("Campionato Italiano 2026")["id"])
    base = f"/api/tournaments/{tn}"
    live.api("POST", f"{base}/settings", {"late_slots": 4, "seed": 2026, "rounds": [
        {"length": 7, "rules": "it-tournament", "clock": "on_request"}]})
    for name in NAMES:
        live.api("POST", f"{base}/players", {"name": name})
    for pid in range(1, len(NAMES)):
        live.api("POST", f"{base}/players/{pid}/check-in")
    live.api("POST", f"{base}/draw", {})
    live.api("POST", f"{base}/late/arrive", {"player": len(NAMES)})
    live.api("POST", f"{base}/late/close", {})
    state = live.api("POST", f"{base}/rounds", {"round": 0})["state"]
    for m in state["matches"]:
        live.api("POST", f"{base}/results", {"round": 0, "match": m["match"],
                                             "winner": m["a"], "score": [7, m["match"] % 6]})
    state = live.api("POST", f"{base}/rounds", {"round": 1})["state"]
    # the matches of the players who had a bye first: then the consolation is drawn
    r0 = state["main"]["rounds"][0]
    byes = {m["a"] or m["b"] for m in r0 if not (m["a"] and m["b"])}
    r1 = [m for m in state["matches"] if m["round"] == 1 and not m["winner"]]
    for m in sorted(r1, key=lambda m: not ({m["a"], m["b"]} & byes)):
        if state["consolation"] is not None:
            break
        state = live.api("POST", f"{base}/results", {"round": 1, "match": m["match"],
                                                     "winner": m["b"], "score": [3, 7]})["state"]
    state = live.api("POST", f"{base}/rounds", {"event": "consolation", "round": 0})["state"]
    live_main = [m for m in state["matches"] if not m["winner"]][::-1]
    late = live_main[0]
    ids = {p["name"]: p["id"] for p in state["players"]}
    now = int(time.time() * 1000)
    live.api("POST", f"{base}/late/absent", {"event": late["event"], "round": late["round"],
                                            "match": late["match"],
                                            "player": ids[late["b"]], "from_ms": now - 7 * 60_000})
    late2 = live_main[1]
    live.api("POST", f"{base}/late/absent", {"event": late2["event"],
                                            "round": late2["round"], "match": late2["match"],
                                            "player": ids[late2["a"]], "from_ms": now + 9 * 60_000})
    live.api("POST", f"{base}/committee", {"members": [ids[n] for n in NAMES[:3]]})
    first = live_main[2]
    playing = {first["a"], first["b"]}
    subs = [ids[n] for n in NAMES if n not in playing and ids[n] not in
            [ids[x] for x in NAMES[:3]]][:1]
    live.api("POST", f"{base}/appeals", {"event": first["event"], "round": first["round"],
                                         "match": first["match"],
                                         "by": ids[first["a"]],
                                         "ruling": "A die on the bar: roll again",
                                         "substitutes": subs if playing & set(NAMES[:3]) else []})
    state = live.api("GET", f"{base}/state")
    room_url = state["room_url"]
    # the late player's table page: the count in the centre panel
    at = next(m for m in state["matches"] if m["match"] == late["match"]
              and m["event"] == late["event"] and m["round"] == late["round"])
    info = live.api("GET", f"/api/tables/{at['table_id']}")
    page = open_page(browser, LiveServer.table_url(info, live.url), "412x915")
    until(page, "!!document.getElementById('late-note')")
    shot(page, "table-412x915-late-count")
    page.context.close()
    for v in ("tables", "names", "results", "late", "committee", "main", "consolation"):
        ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en")
        page = ctx.new_page()
        page.goto(room_url + "&view=" + v)
        until(page, f"document.body.dataset.view === {v!r}")
        shot(page, f"room-1920x1080-{v}")
        ctx.close()


def outage(browser: Any, live: LiveServer) -> None:
    """The table page through an outage and a reload, in Italian at 360x640:
    commands waiting (counted by kind), the page reloaded from the device's
    storage with the link still down, and synced once it is back."""
    t = live.table(players=["Anna", "Bruno"], length=7, rules="it-tournament")
    ctx = browser.new_context(viewport={"width": 360, "height": 640}, locale="it")
    link = {"up": True}

    def gate(ws: Any) -> None:
        if link["up"]:
            ws.connect_to_server()
        else:
            ws.close()

    ctx.route_web_socket("**/ws", gate)
    page = ctx.new_page()
    page.goto(LiveServer.table_url(t, live.url) + "&lang=it")
    until(page, "window.__bgclock && __bgclock.app.engine"
                " && __bgclock.app.engine.seq === __bgclock.app.seq")
    page.click("#center .dice[data-die='A'] .die[data-n='5']")
    page.click("#center .dice[data-die='B'] .die[data-n='3']")
    page.click("#roll-start")
    until(page, "__bgclock.conn.offset !== null && __bgclock.conn.pending.length === 0"
                " && __bgclock.app.state.phase === 'playing'")
    link["up"] = False
    page.evaluate("__bgclock.conn.drop()")
    until(page, "__bgclock.conn.status === 'offline'")
    for side in "ABA":
        page.evaluate(f"__bgclock.press('{side}')")
    page.evaluate("__bgclock.command({do: 'double', side: 'B'})")
    until(page, "__bgclock.conn.pending.length === 4")
    shot(page, "table-360x640-waiting-it")
    page.reload()
    until(page, "window.__bgclock && __bgclock.app.restored !== null"
                " && __bgclock.conn.status === 'offline'")
    shot(page, "table-360x640-reloaded-it")
    link["up"] = True
    until(page, "document.getElementById('conn').dataset.synced === '1'", 20_000)
    shot(page, "table-360x640-synced-it")
    ctx.close()


def main() -> int:
    if not CHROMIUM.exists():
        print("make.py: /usr/bin/chromium is missing", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    if sys.argv[1:] == ["room"]:
        with running_server() as live, sync_playwright() as p:
            browser = launch_chromium(p)
            room(browser, live)
            browser.close()
        return 0
    if sys.argv[1:] == ["outage"]:
        with running_server() as live, sync_playwright() as p:
            browser = launch_chromium(p)
            outage(browser, live)
            browser.close()
        return 0
    if sys.argv[1:] == ["two-dashboards"]:
        with running_server() as live, sync_playwright() as p:
            browser = launch_chromium(p)
            two_dashboards(browser, live)
            browser.close()
        return 0
    with running_server() as live, sync_playwright() as p:
        browser = launch_chromium(p)
        tn = int(live.tournament("Milano Open 2025")["id"])
        main_t = live.table(tn, name="Table 1", players=["Anna Rossi", "Bruno Bianchi"],
                            rules="it-tournament", length=7, score=[2, 3])
        low_t = live.table(tn, name="Table 2", players=["Carla", "Dario"], length=5,
                           rules="usbgf-2013-delay", clock={"reserve_ms": 25_000})
        flag_t = live.table(tn, name="Table 3", players=["Elena", "Fabio"], length=3,
                            clock={"reserve_ms": 1_500, "delay_ms": 0})
        setup_t = live.table(tn, name="Table 4", players=["Gino", "Ilaria"], length=11,
                             rules="usbgf-2007-bronstein")
        dir_t = live.table(tn, name="Table 5", players=["Luca", "Marta"], length=9,
                           rules="aba-2003-bronstein")
        url = lambda t: LiveServer.table_url(t, live.url)  # noqa: E731

        # Table 1: Bronstein, cube 2 owned by A, B to play
        a = open_page(browser, url(main_t), "412x915")
        cmd(a, do="opening_roll", dice=[5, 3])
        time.sleep(1.2)
        cmd(a, do="double", side="A")
        cmd(a, do="take", side="B")
        time.sleep(1.5)
        cmd(a, do="hit", side="A")
        time.sleep(0.8)
        shot(a, "table-412x915-playing")
        a.context.close()
        for size in ("360x640", "1024x768", "1920x1080"):
            pg = open_page(browser, url(main_t), size)
            shot(pg, f"table-{size}-playing")
            pg.context.close()
        pg = open_page(browser, url(main_t), "640x360", "it")
        shot(pg, "table-640x360-playing-it")
        pg.context.close()
        # a double waiting for take or pass, small phone, Italian
        pg = open_page(browser, url(main_t), "360x640", "it")
        cmd(pg, do="double", side="B")
        shot(pg, "table-360x640-double-it")
        cmd(pg, do="take", side="A")
        pg.click("#half-B .more")
        shot(pg, "table-360x640-menu-it")
        pg.context.close()
        pg = open_page(browser, url(main_t), "1024x768")
        pg.click("#btn-stop")
        shot(pg, "table-1024x768-stop-reasons")
        pg.context.close()

        # Table 2: low time (under 20 s: tenths, orange, ⚠)
        pg = open_page(browser, url(low_t), "412x915")
        cmd(pg, do="opening_roll", dice=[2, 6])
        cmd(pg, do="hit", side="B")
        until(pg, "__bgclock.display().state.A.running", timeout_ms=5000)
        time.sleep(2)
        shot(pg, "table-412x915-simple-delay")  # the delay in front, the reserve still
        time.sleep(10 + 7)
        shot(pg, "table-412x915-low-time")
        pg.context.close()

        # Table 3: the flag
        pg = open_page(browser, url(flag_t), "1024x768")
        cmd(pg, do="opening_roll", dice=[6, 1])
        until(pg, "__bgclock.app.state.phase === 'match_over'", timeout_ms=10000)
        shot(pg, "table-1024x768-flag")
        pg.context.close()
        pg = open_page(browser, url(flag_t), "360x640")
        shot(pg, "table-360x640-flag")
        pg.context.close()

        # Table 4: the opening roll
        pg = open_page(browser, url(setup_t), "412x915")
        pg.click("#center .dice[data-die='A'] .die[data-n='4']")
        pg.click("#center .dice[data-die='B'] .die[data-n='2']")
        shot(pg, "table-412x915-opening-roll")
        pg.context.close()

        # between games, Italian: the last game and the score
        bg_t = live.table(tn, name="Table 6", players=["Nadia", "Oscar"], length=7,
                          rules="it-tournament")
        pg = open_page(browser, url(bg_t), "360x640", "it")
        cmd(pg, do="opening_roll", dice=[6, 2])
        cmd(pg, do="game_over", winner="A", result="gammon")
        shot(pg, "table-360x640-between-games-it")
        pg.context.close()
        # ABA standard clocks: a flag gives penalty points and a 5:00 reset
        aba_t = live.table(tn, name="Table 7", players=["Paolo", "Rita"], length=5,
                           rules="aba-2003-standard", clock={"reserve_ms": 1_500})
        pg = open_page(browser, url(aba_t), "412x915")
        cmd(pg, do="opening_roll", dice=[5, 1])
        until(pg, "__bgclock.app.state.phase === 'stopped'", timeout_ms=10000)
        shot(pg, "table-412x915-aba-penalty")
        pg.context.close()

        # Table 5: Luca (on turn) claims a premature action by Marta; Table 1
        # has a dispute
        pg = open_page(browser, url(dir_t), "412x915")
        cmd(pg, do="opening_roll", dice=[3, 1])
        pg.evaluate("__bgclock.callDirector('A', 'premature')")
        until(pg, "__bgclock.app.state.phase === 'stopped' "
                             "&& __bgclock.conn.pending.length === 0")
        pg.context.close()
        pg = open_page(browser, url(main_t), "412x915")
        cmd(pg, do="concede", side="B", result="gammon")
        cmd(pg, do="reject", side="A")
        shot(pg, "table-412x915-dispute")
        pg.context.close()

        for size in ("1920x1080", "1024x768", "412x915"):
            d = open_page(browser, live.director_url(), size)
            d.wait_for_selector(".alert")
            d.click(f".card[data-table='{main_t['id']}']")
            d.wait_for_selector("#log tr")
            shot(d, f"director-{size}")
            d.context.close()
        # the dashboard's board, its editor, a confirmation and the set-clock preview
        for size in ("1024x768", "360x640"):
            d = open_page(browser, live.director_url(), size)
            d.click(f".card[data-table='{main_t['id']}']")
            d.wait_for_selector("#sugg-position")
            d.fill("#sugg-position", "4HPwATDgc/ABMA")
            d.click("[data-act='show-board']")
            d.wait_for_selector("#board-view svg")
            d.locator("#board-box").scroll_into_view_if_needed()
            shot(d, f"director-{size}-board")
            d.click("[data-act='enter-board']")
            for p in (1, 1, 6, 6, 6, 8):
                d.click(f"#board-editor .b-hit[data-point='{p}']")
            d.select_option("#be-side", "opponent")
            for p in (19, 19, 20):
                d.click(f"#board-editor .b-hit[data-point='{p}']")
            d.click("[data-act='make-id']")
            d.wait_for_selector("#be-id")
            d.locator("#board-editor").scroll_into_view_if_needed()
            shot(d, f"director-{size}-board-editor")
            d.click("[data-act='ruling-accept']")
            d.wait_for_selector("#dlg-confirm[open]")
            shot(d, f"director-{size}-confirm")
            d.click("#dlg-confirm [data-act='cancel']")
            d.fill("#set-to", "0:00")
            d.locator("#set-to").scroll_into_view_if_needed()
            shot(d, f"director-{size}-set-clock")
            d.context.close()
        d = open_page(browser, live.director_url(), "1024x768")
        d.click("#btn-new-table")
        shot(d, "director-1024x768-new-table")
        d.context.close()
        two_dashboards(browser, live)
        outage(browser, live)
        room(browser, live)
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
