"""The pages' pure JavaScript (the kit, the table's rules, the countdown), run in Chromium.

Formatting, the local countdown between two server states, low-time
threshold crossings, what a player may press, and the dictionary.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, launch_chromium, until
from bgclock.server.render.pages import STATIC_DIR, presets_json

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        browser = launch_chromium(p)
        pg = browser.new_page()
        # the kit's ES modules served from the static folder (_serve_static);
        # the harness gathers them on `kit` (the test's own name: the pages
        # themselves set no globals but their one debug object)
        pg.route(f"{ENGINE_ORIGIN}/**", _serve_static)
        pg.goto(f"{ENGINE_ORIGIN}/")
        pg.evaluate("""async () => {
            const parts = await Promise.all(["kit/format.js", "kit/link.js", "kit/dom.js",
                "engine/countdown.js", "table/warnings.js", "table/options.js", "kit/i18n.js",
                "dir-strings.js", "timekeeper-strings.js", "table/strings.js"
            ].map((p) => import("/static/" + p)));
            window.kit = Object.assign({}, ...parts);
        }""")
        until(pg, "!!kit.I18N.STRINGS.en['dir.sending'] && !!kit.I18N.STRINGS.en['kp.ask']")
        yield pg
        browser.close()


def js(page: Any, expr: str, arg: Any = None) -> Any:
    return page.evaluate(f"(arg) => {expr}", arg)


@pytest.mark.parametrize(("ms", "shown"), [
    (600_000, "10:00"), (59_999, "0:59"), (20_000, "0:20"), (19_999, "0:19.9"),
    (9_050, "0:09.0"), (100, "0:00.1"), (99, "0:00.0"), (0, "0:00.0"), (-5, "0:00.0"),
    (3_600_000, "1:00:00"), (4_695_000, "1:18:15"),
])
def test_reserve_shows_m_ss_and_tenths_under_20_s(page: Any, ms: int, shown: str) -> None:
    assert js(page, "kit.fmtClock(arg)", ms) == shown


def test_allowance_rounds_up_and_inputs_parse(page: Any) -> None:
    assert js(page, "[12000, 11001, 1, 0].map(kit.fmtShort)") == ["0:12", "0:12", "0:01", "0:00"]
    assert js(page, '["1:30", "90", "0:05.5", "x", "2:00"].map(kit.parseClock)') == [
        90_000, 90_000, 5_500, None, 120_000]
    assert js(page, "kit.fmtSigned(-30000) + ' ' + kit.fmtSigned(90000)") == "−0:30 +1:30"
    assert js(page, 'kit.parseThresholds("60, 20 10")') == [60_000, 20_000, 10_000]
    assert js(page, 'kit.parseThresholds("junk")') == [60_000, 20_000, 10_000]


STATE = {
    "at_ms": 1000, "rules": "usbgf-2013-delay", "teams": False, "phase": "playing",
    "A": {"reserve_ms": 30_000, "delay_ms": 12_000, "running": True},
    "B": {"reserve_ms": 40_000, "delay_ms": 12_000, "running": False},
    "expires_at_ms": 1000 + 42_000,
}


def test_simple_delay_spends_the_delay_then_the_reserve(page: Any) -> None:
    # usbgf-2013 §2.1: the reserve is untouched while the delay runs
    v = js(page, "[5000, 12000, 20000].map((e) => kit.viewAt(arg, 'simple_delay', e).A)", STATE)
    assert [(x["reserve_ms"], x["delay_ms"]) for x in v] == [
        (30_000, 7_000), (30_000, 0), (22_000, 0)]
    # the idle side does not move
    assert js(page, "kit.viewAt(arg, 'simple_delay', 20000).B.reserve_ms", STATE) == 40_000


def test_bronstein_spends_the_reserve_from_the_first_ms(page: Any) -> None:
    state = {**STATE, "rules": "usbgf-2007-bronstein", "expires_at_ms": 1000 + 30_000}
    v = js(page, "kit.viewAt(arg, 'bronstein', 5000).A", state)
    assert (v["reserve_ms"], v["delay_ms"]) == (25_000, 7_000)
    assert js(page, "kit.modeOf(arg, null, kit.readPresets())", state) == "bronstein"
    assert js(page, "kit.allowanceOf(arg, null, kit.readPresets())", state) == 12_000
    teams = "Object.assign({}, arg, {teams: true})"
    assert js(page, f"kit.allowanceOf({teams}, null, kit.readPresets())", state) == 18_000


def test_a_press_not_yet_confirmed_is_shown_as_the_rules_will_apply_it(page: Any) -> None:
    # usbgf-2007 Bronstein: 5 s used, 5 s credited back; B runs with a fresh 12 s
    state = {**STATE, "rules": "usbgf-2007-bronstein", "expires_at_ms": 1000 + 30_000}
    after = js(page, "kit.afterPress(arg, 'A', 5000, 'bronstein', 12000)", state)
    assert (after["A"]["reserve_ms"], after["A"]["delay_ms"], after["A"]["running"]) == (
        30_000, 12_000, False)
    assert after["B"]["running"] and after["on_turn"] == "B" and after["at_ms"] == 6000
    assert after["expires_at_ms"] == 6000 + 40_000
    # simple delay: the delay spent first, nothing credited; B's expiry includes its delay
    after = js(page, "kit.afterPress(arg, 'A', 20000, 'simple_delay', 12000)", STATE)
    assert (after["A"]["reserve_ms"], after["A"]["delay_ms"]) == (22_000, 12_000)
    assert after["expires_at_ms"] == 21_000 + 40_000 + 12_000
    # increment: D added whatever was used; standard: no allowance at all
    increment = "kit.afterPress(arg, 'A', 5000, 'increment', 3000).A.reserve_ms"
    assert js(page, increment, STATE) == 28_000
    assert js(page, "kit.afterPress(arg, 'A', 5000, 'standard', 0).A.delay_ms", STATE) == 0


def test_a_breaks_time_runs_from_its_start(page: Any) -> None:
    # bgclock's break: its clock counts on the table's line from `started_ms`
    state = {**STATE, "phase": "break", "at_ms": 70_000,
             "break": {"side": "A", "started_ms": 10_000, "limit_ms": 600_000}}
    assert js(page, "kit.breakUsed(arg, 5000)", state) == 65_000
    assert js(page, "kit.breakUsed(arg, 0)", STATE) == 0


def test_the_page_never_counts_past_the_expiry_nor_while_stopped(page: Any) -> None:
    v = js(page, "kit.viewAt(arg, 'simple_delay', 99000)", STATE)
    assert v["A"]["reserve_ms"] == 0 and v["at_ms"] == STATE["expires_at_ms"]
    stopped = {**STATE, "phase": "stopped", "A": {**STATE["A"], "running": False}}
    assert js(page, "kit.viewAt(arg, 'simple_delay', 9000).A.reserve_ms", stopped) == 30_000


def test_mode_comes_from_the_override_then_the_preset_then_the_state(page: Any) -> None:
    assert js(page, "kit.modeOf(arg, {clock: {mode: 'standard'}}, kit.readPresets())",
              STATE) == "standard"
    assert js(page, "kit.modeOf(arg, {}, kit.readPresets())", STATE) == "simple_delay"
    unknown = {**STATE, "rules": "nowhere"}
    # expiry = delay + reserve
    assert js(page, "kit.modeOf(arg, {}, {})", unknown) == "simple_delay"
    assert js(page, "kit.allowanceOf(arg, {clock: {delay_ms: 5000}}, kit.readPresets())",
              STATE) == 5_000


def test_a_threshold_fires_once_never_missed_never_repeated(page: Any) -> None:
    th = [60_000, 20_000, 10_000]
    run = js(page, """(() => {
        let fired = [], out = [];
        for (const ms of arg.samples) {
            const r = kit.crossings(ms, arg.th, fired, 30000);
            fired = r.fired; out.push(r.fire);
        }
        return out;
    })()""", {"th": th, "samples": [
        70_000, 60_001, 60_000, 59_000,   # 60 s crossed exactly once
        61_000, 55_000,                   # a Bronstein credit back over 60 s: not again
        15_000,                           # a jump past 20 s (a late state): 20 s sounds
        12_000, 5_000,                    # 10 s
        55_000, 45_000,                   # the director adds time: 10 and 20 s armed again
        19_000,
    ]})
    assert run == [None, None, 60_000, None, None, None, 20_000, None, 10_000, None, None, 20_000]
    # several crossed at once: the lowest sounds, all are marked
    r = js(page, "kit.crossings(5000, arg, [], 30000)", th)
    assert r == {"fire": 10_000, "fired": [60_000, 20_000, 10_000]}


def test_the_thresholds_are_the_players_then_the_links_then_the_tables(page: Any) -> None:
    info = {"warn_s": [30, 90, 5]}
    assert js(page, "kit.thresholdsFor(null, null, arg)", info) == [90_000, 30_000, 5_000]
    assert js(page, "kit.thresholdsFor(null, '40,4', arg)", info) == [40_000, 4_000]
    assert js(page, "kit.thresholdsFor([7000], '40,4', arg)", info) == [7_000]
    assert js(page, "kit.thresholdsFor([], null, {})") == [60_000, 20_000, 10_000]
    assert js(page, "kit.thresholdsFor(null, null, null)") == [60_000, 20_000, 10_000]


def test_what_a_player_may_press(page: Any) -> None:
    base = {"phase": "playing", "game": 1, "crawford": False, "cube_frozen": False,
            "cube": {"value": 1, "owner": None}, "double_offered_by": None, "offer": None,
            "A": {"running": True}, "B": {"running": False}}
    a = js(page, "kit.playerOptions(arg, 'A')", base)
    b = js(page, "kit.playerOptions(arg, 'B')", base)
    assert a["hit"] and a["double"] and not b["hit"] and not b["double"]
    assert not js(page, "kit.playerOptions(arg, 'A').double", {**base, "crawford": True})
    assert not js(page, "kit.playerOptions(arg, 'A').double", {**base, "cube_frozen": True})
    owned = {**base, "cube": {"value": 2, "owner": "B"}}
    assert not js(page, "kit.playerOptions(arg, 'A').double", owned)
    doubled = {**base, "double_offered_by": "A", "A": {"running": False}, "B": {"running": True}}
    b = js(page, "kit.playerOptions(arg, 'B')", doubled)
    assert b["take"] and b["pass"] and not b["hit"] and not b["concede"]
    offer = {**base, "phase": "offer",
             "offer": {"kind": "concede", "side": "A", "result": "single"}}
    assert js(page, "kit.playerOptions(arg, 'B').accept", offer)
    assert not js(page, "kit.playerOptions(arg, 'A').accept", offer)
    late = {**base, "game": 0}
    assert not js(page, "kit.playerOptions(arg, 'A').double", late)
    assert js(page, "kit.playerOptions(arg, 'A').break", {**base, "phase": "between_games"})


def _keys_used() -> set[str]:
    """The keys the table page and the dashboard's own modules use (the
    tournament screens' are in their strings modules, tested apart)."""
    keys: set[str] = set()
    screens = ("tourney/", "contests/", "register/", "room/", "public/")
    files = [f for f in sorted(STATIC_DIR.rglob("*.js"))
             if not f.relative_to(STATIC_DIR).as_posix().startswith(screens)]
    for file in files:
        text = file.read_text()
        keys |= set(re.findall(r'\bt\("([a-z_]+\.[a-z_.]+)"', text))
    keys = {k for k in keys if not k.endswith(".")}  # built at run time
    for name in ("table.html", "director.html"):
        html = (STATIC_DIR / name).read_text()
        keys |= set(re.findall(r'data-i18n(?:-title|-aria)?="([^"]+)"', html))
    return keys


def test_every_string_is_in_the_dictionary_in_both_languages(page: Any) -> None:
    strings = js(page, "kit.I18N.STRINGS")
    used = _keys_used()
    assert len(used) > 60
    assert not used - set(strings["en"]), "missing in English"
    # Italian: everything a player or the director reads (names of sides are letters)
    missing_it = {k for k in set(strings["en"]) - set(strings["it"])
                  if not k.startswith(("side.", "log.seq", "match.score", "err.generic",
                                       "bar.menu", "bar.fullscreen", "act.more"))}
    assert not missing_it
    assert js(page, "(kit.I18N.setLang('it'), kit.I18N.t('act.double'))") == "Raddoppia"
    assert js(page, "kit.I18N.t('ask.double', {name: 'Bob', v: 4})") == "Bob: raddoppi a 4?"
    assert js(page, "(kit.I18N.setLang('en'), kit.I18N.t('ask.double', {name: 'Bob', v: 4}))") == (
        "Bob: double to 4?")
    for phase in ("setup", "playing", "stopped", "offer", "dispute", "between_games", "break",
                  "match_over"):
        assert "phase." + phase in strings["it"]
    for reason in ("concession", "break", "fallen_dice", "dispute", "director", "dice_not_left",
                   "other", "restart", "time_expired"):
        assert "reason." + reason in strings["it"]


def test_a_summons_is_queued_like_a_press_and_sent_without_lag(page: Any) -> None:
    sent = js(page, """(() => {
        const c = new kit.Connection({url: "ws://127.0.0.1:9/ws", prefix: "t1-"});
        const out = [];
        c.sendRaw = (m) => { out.push(m); return true; };
        const stop = c.send({do: "stop", side: "B", reason: "director"});
        const call = c.summon({why: "premature", side: "B"});
        c.ready = true;   // the link comes back: both go, in order, with their ids
        c.flush();
        return {out: out, ids: [stop, call], pending: c.pending.length};
    })()""")
    stop, call = sent["out"]
    assert stop["type"] == "cmd" and stop["id"] == sent["ids"][0] and "lag_ms" in stop
    assert call == {"type": "summon", "v": 1, "id": sent["ids"][1], "why": "premature",
                    "side": "B"}
    assert sent["pending"] == 2  # until their acks


def test_the_link_sends_no_faster_than_the_server_takes_pings_apart(page: Any) -> None:
    got = js(page, """(() => {
        let now = 0;
        const c = new kit.Connection({url: "ws://127.0.0.1:9/ws", prefix: "t1-", now: () => now});
        const out = [];
        c.sendRaw = (m) => {
            out.push(m.type + (m.id ? ":" + m.id.split("-").pop() : ""));
            return true;
        };
        c.ready = true;
        for (let i = 0; i < 30; i++) c.send({do: "hit", side: "A"});
        const first = out.length;
        c.ping();
        now = 1000;   // a second later: SEND_RATE more, in order
        c.pump();
        return {first: first, out: out, burst: kit.SEND_BURST, rate: kit.SEND_RATE};
    })()""")
    assert got["first"] == got["burst"]
    assert got["out"][got["burst"]] == "ping"  # never held back by the commands' bucket
    numbers = [int(x[4:]) for x in got["out"] if x != "ping"]  # ids count on across links
    assert numbers == list(range(numbers[0], numbers[0] + got["burst"] + got["rate"]))


def test_a_refusal_of_the_moment_keeps_the_press_and_sends_it_again_in_order(page: Any) -> None:
    got = js(page, """(() => {
        let now = 0;
        const told = [];
        const c = new kit.Connection({url: "ws://127.0.0.1:9/ws", prefix: "t1-", now: () => now,
                                      onMessage: (m) => told.push(m)});
        const out = [];
        c.sendRaw = (m) => { out.push(m.id); return true; };
        c.ready = true;
        const ids = [0, 1, 2, 3, 4].map(() => c.send({do: "hit", side: "A"}));
        c.handle({type: "ack", id: ids[0], seq: 2});
        const shed = {type: "error", code: "rate_limited", message: "slow down", retry_ms: 500};
        c.handle({...shed, id: ids[2]});
        c.handle({...shed, id: ids[3]});
        const during = out.length;
        now = 400; c.pump();
        const early = out.length;
        now = 600; c.pump();
        return {ids: ids, out: out, during: during, early: early,
                pending: c.pending.map((p) => p.id), told: told.map((m) => [m.type, !!m.retrying])};
    })()""")
    ids = got["ids"]
    assert got["pending"] == ids[1:]  # refused for the moment: not dropped
    assert got["during"] == got["early"] == 5  # nothing goes before retry_ms
    assert got["out"][5:] == ids[2:]  # then the shed one and those after it, in order
    assert got["told"][1:] == [["error", True], ["error", True]]
    it = js(page, "(kit.I18N.setLang('it'), kit.I18N.t('conn.retry'))")
    js(page, "kit.I18N.setLang('en')")
    assert it.startswith("il server è occupato")


# -- the clock engine (bgclock/web/static/engine) as an ES module in Chromium

ENGINE_ORIGIN = "http://engine.test"


def _serve_static(route: Any) -> None:
    """Answer the page's requests from the static folder (no server needed)."""
    path = route.request.url.removeprefix(ENGINE_ORIGIN).split("?")[0]
    if path == "/":
        route.fulfill(status=200, content_type="text/html",
                      body="<!doctype html><title>e</title><script type='application/json' "
                           f"id='bg-presets'>{presets_json()}</script>")
        return
    file = (STATIC_DIR / path.removeprefix("/static/")).resolve()
    if path.startswith("/static/") and file.is_relative_to(STATIC_DIR.resolve()) and file.is_file():
        route.fulfill(status=200, content_type="text/javascript", body=file.read_text())
    else:
        route.fulfill(status=404, body="")


def test_the_engine_loads_as_an_es_module_and_replays_an_example(page: Any) -> None:
    import json

    from bgclock.script import load_script, run_script, state_fields
    from tests.conftest import SHARED

    example = SHARED / "spec" / "examples" / "crawford-and-cube.json"
    data = json.loads(example.read_text())
    outcome = run_script(load_script(data))
    assert outcome.ok
    pg = page.context.browser.new_page()
    try:
        pg.route(f"{ENGINE_ORIGIN}/**", _serve_static)
        pg.goto(f"{ENGINE_ORIGIN}/")
        got = pg.evaluate("""async (script) => {
            const E = await import("/static/engine/index.js");
            const m = E.Match.create(script.rules, script.match);
            const refused = [];
            script.steps.forEach((step, i) => {
                if (!step.do) return;
                const {expect, refused: _r, ...event} = step;
                try { m.apply(event); } catch (e) { refused.push([i, e.code]); }
            });
            return {state: m.state(), refused, presets: Object.keys(E.PRESETS).length};
        }""", data)
    finally:
        pg.close()
    want = state_fields(outcome.state)
    shown = {k: got["state"][k] for k in want}
    for side in ("A", "B"):
        shown[side] = {k: got["state"][side][k] for k in want[side]}
    assert shown == want
    assert [i for i, _ in got["refused"]] == [i for i, _ in outcome.refusals]
    assert got["presets"] == 6


def test_a_confirmation_has_one_id_on_every_dashboard(page: Any) -> None:
    # protocol "Many dashboards, one director": an alert's fix and a ruling get
    # ids derived from what they settle; the same id is queued once
    sent = js(page, """(() => {
        const c = new kit.Connection({url: "ws://127.0.0.1:9/ws", prefix: "dir-"});
        const out = [];
        c.sendRaw = (m) => { out.push(m); return true; };
        c.ready = true;
        const fix = {table: 3, do: "premature", side: "A", handles: "3:summon:2"};
        const ids = [c.send(fix, null, "cmd", "al.3:summon:2.0.premature"),
                     c.send(fix, null, "cmd", "al.3:summon:2.0.premature"),
                     c.send({table: 3, key: "3:flag:4"}, null, "handle", "hd.3:flag:4")];
        return {out: out, ids: ids, pending: c.pending.length};
    })()""")
    assert sent["ids"] == ["al.3:summon:2.0.premature"] * 2 + ["hd.3:flag:4"]
    assert sent["pending"] == 2
    fix, mark = sent["out"]
    assert fix["id"] == "al.3:summon:2.0.premature" and fix["handles"] == "3:summon:2"
    assert mark == {"type": "handle", "v": 1, "id": "hd.3:flag:4", "table": 3, "key": "3:flag:4"}
    pg = page.context.browser.new_page()
    try:
        pg.route(f"{ENGINE_ORIGIN}/**", _serve_static)
        pg.goto(f"{ENGINE_ORIGIN}/")
        got = pg.evaluate("""async () => {
            const A = await import("/static/alerts.js");
            const long = "9".repeat(19) + ":dispute_expiry:" + "9".repeat(19);
            const at = (handles, seq) => ({table: 3, seq: seq, handles: handles, index: 0});
            return [A.confirmId({do: "premature"}, at("3:summon:2", 7)),
                    A.confirmId({do: "ruling", decision: "gin", result: "gammon"}, at(null, 7)),
                    A.confirmId({do: "ruling", decision: "lost"}, at(null, 7)),
                    A.confirmId({do: "adjust"}, at(null, 7)),
                    A.confirmId({do: "premature"}, at(long, 7)),
                    A.confirmId({do: "premature"}, at(long.replace(/9$/, "8"), 7))];
        }""")
    finally:
        pg.close()
    assert got[:4] == ["al.3:summon:2.0.premature", "rl.3.7.gin.gammon", "rl.3.7.lost", None]
    # past 64 characters: the prefix and a hash, still a valid id, still distinct
    for long_id in got[4:]:
        assert re.fullmatch(r"al\.[0-9a-f]{8}\.[0-9a-f]{8}", long_id)
    assert got[4] != got[5]


def test_the_couples_standings_show_the_servers_shared_place(page: Any) -> None:
    # tournament.md 3: couples still tied share the place; the table shows the
    # server's `place`, not the line's position
    pg = page.context.browser.new_page()
    try:
        pg.route(f"{ENGINE_ORIGIN}/**", _serve_static)
        pg.goto(f"{ENGINE_ORIGIN}/")
        got = pg.evaluate("""async () => {
            const V = await import("/static/contests/view/parts.js");
            const row = (place, couple) => ({place, couple, encounters: 1, matches: 3, points: 0});
            const cp = {standings: [row(1, "Zeta"), row(1, "Alfa"), row(3, "Mu")],
                        champion: null, encounters: []};
            const table = V.standingsTable(cp, (k) => k);
            return [...table.querySelectorAll("tbody tr")].map(
                (tr) => [tr.cells[0].textContent, tr.cells[1].textContent]);
        }""")
    finally:
        pg.close()
    assert got == [["1", "Zeta"], ["1", "Alfa"], ["3", "Mu"]]


def test_a_time_of_day_is_written_in_the_pages_language(page: Any) -> None:
    # the room's clock and the late desk's times: 24-hour in Italian whatever
    # the browser's own locale (Chromium here speaks en-US)
    at = "new Date(2026, 0, 1, 14, 5, 9).getTime()"
    assert js(page, f"kit.timeOfDay({at}, 'it')") == "14:05"
    assert js(page, f"kit.timeOfDay({at}, 'it', true)") == "14:05:09"
    english = js(page, f"kit.timeOfDay({at}, 'en')")
    assert "PM" in english and english.startswith("02:05")
