"""The director's dashboard during play: confirmations that a double-click cannot
confirm, the detail that closes, and the dashboard's newer screens.

Debian's chromium only (never a downloaded one); skipped without it.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from tests._web import settle
from tests.test_web_match import press, roll

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]
WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 412, "height": 915}


def wait(page: Any, cond: str) -> None:
    until(page,
        f"(() => {{ const s = window.__bgclock && __bgclock.app.state; "
        f"return !!s && ({cond}); }})()",
        timeout_ms=5000)


def events(live: LiveServer, tid: int) -> list[dict[str, Any]]:
    return list(live.api("GET", f"/api/tables/{tid}/log.json")["events"])


def expired(live: LiveServer, pages: Any) -> tuple[Any, Any, int]:
    """biba-2014, Ann (A) at match point flags after the opening roll: a dispute."""
    table = live.table(name="Table 3", rules="biba-2014", length=5, score=[4, 0],
                       players=["Ann", "Bob"], clock={"reserve_ms": 0, "delay_ms": 300})
    tid = table["id"]
    d = pages(live.director_url(), WIDE)
    clock = pages(LiveServer.table_url(table, live.url), PHONE)
    wait(clock, "s.phase !== undefined")
    clock.click("#center .dice[data-die='A'] .die[data-n='6']")
    clock.click("#center .dice[data-die='B'] .die[data-n='1']")
    clock.click("#roll-start")
    wait(clock, "s.phase === 'dispute'")
    d.click(f".card[data-table='{tid}']")
    d.wait_for_selector("[data-act='ruling-lost']")
    return d, clock, tid


def test_a_double_click_never_confirms_and_one_ruling_is_sent_once(
        live: LiveServer, pages: Any) -> None:
    d, clock, tid = expired(live, pages)
    # a double-click on the opener: the dialog opens, nothing is sent
    d.dblclick("[data-act='ruling-lost']")
    d.wait_for_selector("#dlg-confirm[open]")
    opener = d.locator("[data-act='ruling-lost']").bounding_box()
    ok = d.locator("#dlg-confirm [data-act='confirm']").bounding_box()
    assert opener is not None and ok is not None
    apart = (ok["y"] >= opener["y"] + opener["height"] or opener["y"] >= ok["y"] + ok["height"]
             or ok["x"] >= opener["x"] + opener["width"] or opener["x"] >= ok["x"] + ok["width"])
    assert apart, (opener, ok)
    d.click("#dlg-confirm [data-act='cancel']")
    # the opener and the confirm button clicked in one go: the confirmation is deaf
    d.evaluate("""() => {
        document.querySelector("[data-act='ruling-lost']").click();
        document.querySelector("#dlg-confirm [data-act='confirm']").click();
    }""")
    assert d.locator("#dlg-confirm[open]").count() == 1
    time.sleep(0.3)  # a ruling sent by mistake would be in the log by now
    assert [e["event"]["do"] for e in events(live, tid)] == ["opening_roll"]
    # a double-click on Confirm (once it listens) sends the ruling once
    d.wait_for_selector("#dlg-confirm [data-act='confirm']:not([disabled])")
    d.dblclick("#dlg-confirm [data-act='confirm']")
    wait(clock, "s.phase === 'match_over'")
    d.wait_for_selector("#dlg-confirm[open]", state="detached")
    time.sleep(0.3)
    assert [e["event"]["do"] for e in events(live, tid)] == ["opening_roll", "ruling"]


def test_the_detail_closes_with_its_button_and_with_esc(live: LiveServer, pages: Any) -> None:
    table = live.table(name="Table 9", players=["Cleo", "Dan"])
    d = pages(live.director_url(), WIDE)
    d.click(f".card[data-table='{table['id']}']")
    d.wait_for_selector("#detail:not([hidden])")
    d.click("[data-act='close-detail']")
    d.wait_for_selector("#detail", state="hidden")
    d.click(f".card[data-table='{table['id']}']")
    d.wait_for_selector("#detail:not([hidden])")
    d.keyboard.press("Escape")
    d.wait_for_selector("#detail", state="hidden")
    # Esc in a confirmation closes the dialog only
    d.click(f".card[data-table='{table['id']}']")
    d.click("[data-act='late_start-A']")
    d.wait_for_selector("#dlg-confirm[open]")
    d.keyboard.press("Escape")
    d.wait_for_selector("#dlg-confirm[open]", state="detached")
    assert d.locator("#detail:not([hidden])").count() == 1


def test_rulings_are_named_by_their_outcome(live: LiveServer, pages: Any) -> None:
    d, _clock, _tid = expired(live, pages)
    # biba-2014, 5 points, Ann (on turn, flagged) at 4-0, cube 1
    assert d.inner_text("[data-act='ruling-gin-single']") == "gin: Ann keeps the match, 5–0"
    assert d.inner_text("[data-act='ruling-gin-gammon']") == "gin: Ann keeps the match, 6–0"
    assert d.inner_text("[data-act='ruling-lost']") == "lost: Ann loses the match"
    d.click("#btn-lang")
    assert d.inner_text("[data-act='ruling-lost']") == "perso: Ann perde il match"
    d.click("#btn-lang")


def test_set_clock_previews_the_result_and_warns_of_a_flag(live: LiveServer, pages: Any) -> None:
    table = live.table(name="Table 5", players=["Eve", "Fay"], clock={"reserve_ms": 192_000})
    tid = table["id"]
    d = pages(live.director_url(), WIDE)
    d.click(f".card[data-table='{tid}']")
    d.wait_for_selector("#set-to")
    d.select_option("#set-side", "A")
    d.fill("#set-to", "5:00")
    until(d, "document.querySelector('#set-preview').textContent === 'A: 3:12 → 5:00'")
    assert d.inner_text("#set-warn") == ""
    d.fill("#set-to", "0:00")
    until(d, "document.querySelector('#set-preview').textContent === 'A: 3:12 → 0:00.0'")
    assert "Eve would flag" in d.inner_text("#set-warn")
    d.fill("#set-to", "5:00")
    d.click("[data-act='set-clock']")
    assert "A: 3:12 → 5:00" in d.inner_text("#dlg-confirm")
    d.click("#dlg-confirm [data-act='confirm']")
    until(d,
        f"(__bgclockDesk.app.tables[{tid}].state || {{A: {{}}}}).A.reserve_ms === 300000")
    last = events(live, tid)[-1]["event"]
    assert (last["do"], last["side"], last["delta_ms"]) == ("adjust", "A", 108_000)


def test_alerts_say_who_and_what_most_urgent_first(live: LiveServer, pages: Any) -> None:
    # a call for the director first, then a flag dispute at another table
    calm = live.table(name="Table 7", players=["Gus", "Hal"])
    d = pages(live.director_url(), WIDE)
    g = pages(LiveServer.table_url(calm, live.url), PHONE)
    wait(g, "s.phase !== undefined")
    g.click("#center .dice[data-die='A'] .die[data-n='5']")
    g.click("#center .dice[data-die='B'] .die[data-n='2']")
    g.click("#roll-start")
    wait(g, "s.phase === 'playing'")
    settle(g)
    g.click("#btn-director")
    settle(g)
    g.click("#center [data-act='confirm']")
    d.wait_for_selector(f".alert[data-kind='director'][data-table='{calm['id']}']")
    _d, _clock, tid = expired(live, pages)
    d.wait_for_selector(f".alert[data-table='{tid}']")
    shown = d.locator(".alert").evaluate_all(
        "xs => xs.map(x => [Number(x.dataset.table), x.dataset.kind,"
        " x.querySelector('.grow').textContent])")
    order = [(t, k) for t, k, _ in shown]
    words = {(t, k): w for t, k, w in shown}
    assert words[(tid, "dispute_expiry")] == "Table 3: Ann's time expired: rule gin or lost"
    assert words[(calm["id"], "director")] == "Table 7: Gus called the director"
    # the dispute came later but is more urgent
    assert order.index((tid, "dispute_expiry")) < order.index((calm["id"], "director"))
    # the call's one-click fix: resume (confirmed)
    d.click(f".alert[data-table='{calm['id']}'] [data-act='fix-resume']")
    d.click("#dlg-confirm [data-act='confirm']")
    wait(g, "s.phase === 'playing'")
    d.wait_for_selector(f".alert[data-table='{calm['id']}']", state="detached")


def test_cards_show_the_rule_book_low_time_and_the_winner(live: LiveServer, pages: Any) -> None:
    low = live.table(name="Table 8", players=["Ike", "Jo"], clock={"reserve_ms": 30_000},
                     warn_s=[60, 10])
    d = pages(live.director_url(), WIDE)
    card = d.wait_for_selector(f".card[data-table='{low['id']}']")
    assert card.query_selector("[data-badge='rules']").inner_text() == "usbgf-2013-delay"
    assert "Ike: low time" in card.query_selector("[data-badge='low-A']").inner_text()
    _d, clock, tid = expired(live, pages)
    _d.click("[data-act='ruling-lost']")
    _d.click("#dlg-confirm [data-act='confirm']")
    wait(clock, "s.phase === 'match_over'")
    d.wait_for_selector(f".card[data-table='{tid}'] [data-badge='winner']:has-text('Bob wins')")


def test_a_position_entered_by_clicks_gives_the_typed_id(live: LiveServer, pages: Any) -> None:
    from bgclock.board import Position, position_id
    typed = position_id(Position.from_points({1: 2}, {6: 15}))
    d, _clock, _tid = expired(live, pages)
    # the typed ID drawn as a board: Ann (on roll) 2 on her 1 point, Bob 15 on his 6 point
    d.fill("#sugg-position", typed)
    d.click("[data-act='show-board']")
    view = d.wait_for_selector("#board-view svg")
    assert len(view.query_selector_all(".b-chk.me")) == 2
    assert view.query_selector(".b-count.them").text_content() == "15"
    # the same position by clicks on an empty board
    d.fill("#sugg-position", "")
    d.click("[data-act='enter-board']")
    d.wait_for_selector("#board-editor svg")
    for _ in range(3):
        d.click("#board-editor .b-hit[data-point='1']")
    d.click("#board-editor .b-hit[data-point='1']", button="right")  # one too many: taken off
    d.select_option("#be-side", "opponent")
    for _ in range(15):
        d.click("#board-editor .b-hit[data-point='19']")  # Bob's 6 point
    d.click("[data-act='make-id']")
    assert d.wait_for_selector("#be-id").inner_text() == typed
    assert d.input_value("#sugg-position") == typed


def test_the_director_types_in_a_table_detail_while_other_tables_press(
        live: LiveServer, pages: Any) -> None:
    """Every update rebuilds the dashboard (cards, alerts, the open detail):
    the field the director types in keeps its focus, its text and its caret,
    so the keys typed after another table's press land in it; a card reached
    with the keyboard keeps the focus likewise."""
    t1 = live.table(name="Table 21", players=["Ann", "Bob"], clock={"reserve_ms": 192_000})
    t2 = live.table(name="Table 22", players=["Cyd", "Dee"], clock={"reserve_ms": 192_000})
    d = pages(live.director_url(), WIDE)
    clock = pages(LiveServer.table_url(t2, live.url), PHONE)
    wait(clock, "s.phase !== undefined")
    d.click(f".card[data-table='{t1['id']}']")
    d.wait_for_selector("#adj-amount")
    d.click("#adj-amount")
    d.keyboard.type("0:30")
    d.keyboard.press("Home")
    seq = d.evaluate(f"__bgclockDesk.app.tables[{t2['id']}].seq")
    roll(clock, 6, 1)
    until(d, f"__bgclockDesk.app.tables[{t2['id']}].seq > {seq}")
    # the update is drawn: the card of the table that pressed shows A's clock running
    until(d, f"!!document.querySelector('.card[data-table=\"{t2['id']}\"] .times .run')")
    d.keyboard.type("1")
    assert d.evaluate("document.activeElement.id") == "adj-amount"
    assert d.input_value("#adj-amount") == "10:30"

    d.focus(f"#card-{t1['id']}")
    seq = d.evaluate(f"__bgclockDesk.app.tables[{t2['id']}].seq")
    settle(clock)
    press(clock, "A")
    until(d, f"__bgclockDesk.app.tables[{t2['id']}].seq > {seq}")
    until(d, f"document.querySelector('#card-{t2['id']} .times .run').textContent === 'B'")
    assert d.evaluate("document.activeElement.id") == f"card-{t1['id']}"
    assert pages.errors == []


def test_an_update_draws_its_own_card_and_no_other(live: LiveServer, pages: Any) -> None:
    """An update is drawn on its own table's card only: the other cards, and
    the detail open on another table, are the very nodes drawn before; the
    card drawn again goes on counting its running clock."""
    t1 = live.table(name="Table 31", players=["Ann", "Bob"], clock={"reserve_ms": 192_000})
    # no delay: the running clock's reserve counts down at once
    t2 = live.table(name="Table 32", players=["Cyd", "Dee"],
                    clock={"reserve_ms": 192_000, "delay_ms": 0})
    d = pages(live.director_url(), WIDE)
    clock = pages(LiveServer.table_url(t2, live.url), PHONE)
    wait(clock, "s.phase !== undefined")
    d.click(f"#card-{t1['id']}")
    d.wait_for_selector("#adj-amount")
    # the dashboard's first forecast drawn (a whole redraw, by design): the
    # marks go on after it, and its next read is 30 s away
    until(d, "__bgclockDesk.app.forecastsRead > 0")
    d.evaluate(f"""() => {{
        document.getElementById('card-{t1['id']}').dataset.mark = 'kept';
        document.getElementById('card-{t2['id']}').dataset.mark = 'kept';
        document.getElementById('actions').dataset.mark = 'kept'; }}""")
    roll(clock, 6, 1)
    running = f"#card-{t2['id']} .times .t.run"
    until(d, f"!!document.querySelector('{running}')")
    assert d.evaluate(f"document.getElementById('card-{t2['id']}').dataset.mark") is None
    assert d.evaluate(f"document.getElementById('card-{t1['id']}').dataset.mark") == "kept"
    assert d.evaluate("document.getElementById('actions').dataset.mark") == "kept"
    shown = d.inner_text(running)
    until(d, f"document.querySelector('{running}').textContent !== {shown!r}")
    assert pages.errors == []
