"""The table page's bar and toast never hide a clock, on a 360×640 phone in
Italian, on an insecure LAN-like origin (``http://tables.lan:PORT``) against
``bgclock serve``.

- After a reconnect where four queued presses were refused, the bar says so
  once with its count ("4 pressioni: rifiutate (…)"), takes no more room
  than before (two or three lines beside its tools, the whole in its title
  and shown over the bar on a tap), and both reserve figures keep their size.
- A refused press's toast sits over the bar, turned to its player, and never
  covers a reserve figure.
- "ripristinato su questo dispositivo" is said of a queue a reload brought
  back only until it is all decided: a later outage does not say it.
- The page's title follows its language.
- The words themselves (counted, the Italian participle agreeing):
  tests/js/words_count_check.mjs in Node.

``BGCLOCK_SHOTS=/some/dir`` keeps screenshots.  Debian's chromium only; waits
are on state, never on wall time.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, until
from tests._web import Pages
from tests.js_engine import NODE
from tests.test_web_device import Served, engine_ready
from tests.test_web_match import press, roll, wait
from tests.test_web_reload import (  # noqa: F401 - fixture
    LAN,
    Gate,
    browser,
    lan_page,
    rolled_then_cut,
)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing")

ROOT = Path(__file__).resolve().parent.parent
SHOTS = os.environ.get("BGCLOCK_SHOTS")
#: What the boxes are read as: [x, y, width, height], CSS px.
BOXES = """() => { const r = (sel) => { const n = document.querySelector(sel);
    if (!n || n.hidden) return null; const b = n.getBoundingClientRect();
    return [b.x, b.y, b.width, b.height]; };
  return {bar: r('#bar'), conn: r('#conn'), A: r('#half-A .reserve'), B: r('#half-B .reserve'),
          toast: r('#toast')}; }"""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    s = Served(["--db", str(tmp_path / "b.db"), "--allow-host", LAN])
    s.start()
    try:
        yield s
    finally:
        s.stop()


def boxes(page: Any) -> dict[str, list[float] | None]:
    return dict(page.evaluate(BOXES))


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png")


def kept_elsewhere(served: Served, pages: Pages) -> tuple[Any, Gate, dict[str, Any]]:
    """A table whose time another device keeps (it made the opening roll),
    and the phone on it (360×640, Italian, its link gated): the phone's
    presses are refused (not_keeper).  Bronstein: each reserve is its half's
    big figure all along."""
    live = served.live
    assert live is not None
    table = live.table(players=["Ann", "Bob"], length=5, rules="usbgf-2007-bronstein")
    keeper = pages.open(LiveServer.table_url(table, live.url))
    wait(keeper, "s.phase !== undefined")
    engine_ready(keeper)
    roll(keeper, 6, 1)
    wait(keeper, "s.on_turn === 'A'")
    phone, gate = lan_page(pages, served, table)
    engine_ready(phone)
    phone.wait_for_selector("#keeper [data-act='keep']")
    wait(phone, "s.on_turn === 'A'")
    until(phone, "__bgclock.conn.offset !== null && __bgclock.conn.pending.length === 0", 5000)
    return phone, gate, table


def test_refused_presses_are_said_once_and_the_bar_never_hides_the_clocks(
        served: Served, pages: Pages) -> None:
    phone, gate, _ = kept_elsewhere(served, pages)
    before = boxes(phone)
    assert before["A"] and before["B"] and before["bar"]
    assert before["A"][3] > 30 and before["B"][3] > 30
    gate.cut()
    phone.wait_for_selector("#conn[data-status='offline']", timeout=5000)
    for side, then in ("AB", "BA", "AB", "BA"):
        press(phone, side)
        until(phone, f"__bgclock.display().state.on_turn === '{then}'", 2000)
    phone.wait_for_selector("#conn[data-queued='4']")
    gate.open = True
    phone.wait_for_selector("#conn[data-synced='1']", timeout=15_000)
    phone.evaluate("document.getElementById('toast').hidden = true")
    shot(phone, "bar-synced-360x640-it")
    after = boxes(phone)
    assert after["bar"] and after["conn"] and after["A"] and after["B"]
    # the bar is as tall as it was, the link's words in the tools' row (48 px)
    assert after["bar"][3] <= before["bar"][3] + 1, (before, after)
    assert after["conn"][3] <= 48, after
    # and both reserve figures keep their size
    for side in ("A", "B"):
        assert abs(after[side][3] - before[side][3]) <= 1, (side, before, after)  # type: ignore[index]
    # the four refusals, said once with their count, the participle agreeing
    said = phone.locator("#conn .conn-text").inner_text()
    assert "4 pressioni: rifiutate (" in said, said
    assert said.count("rifiutat") == 1, said
    assert phone.locator("#conn").get_attribute("title") == said
    # a tap shows the words whole, over the bar (which does not grow); a tap again, back
    phone.click("#conn")
    phone.wait_for_selector("#conn[data-open='1']")
    shown = phone.evaluate("""(() => {
      const s = getComputedStyle(document.getElementById('conn'), '::after');
      return [s.content, parseFloat(s.height)]; })()""")
    assert said in shown[0] and shown[1] > after["conn"][3], shown
    shot(phone, "bar-synced-open-360x640-it")
    opened = boxes(phone)
    assert opened == after, (opened, after)
    phone.click("#conn")
    phone.wait_for_selector("#conn:not([data-open])")


def test_a_refusals_toast_never_covers_a_reserve(served: Served, pages: Pages) -> None:
    phone, _, _ = kept_elsewhere(served, pages)
    # A presses on this device, which does not keep the time: the server refuses it
    press(phone, "A")
    phone.wait_for_selector("#toast:not([hidden])[data-side='A']")
    shot(phone, "toast-near-360x640-it")
    seen = boxes(phone)
    assert seen["toast"] and seen["A"] and seen["B"] and seen["bar"]
    for side in ("A", "B"):
        assert not overlap(seen["toast"], seen[side]), (side, seen)  # type: ignore[arg-type]
    # a few lines at most, over the bar, the whole refusal in its title
    assert seen["toast"][3] <= 80, seen
    middle = seen["toast"][1] + seen["toast"][3] / 2
    assert seen["bar"][1] - 4 <= middle <= seen["bar"][1] + seen["bar"][3] + 4, seen
    assert "near" in (phone.locator("#toast").get_attribute("class") or "")
    assert "Chiedi il tempo" in (phone.locator("#toast").get_attribute("title") or "")
    # B's refused double faces B (the far half, turned), over the bar too
    assert phone.evaluate("__bgclock.command({do: 'double', side: 'B'})") is None
    phone.wait_for_selector("#toast:not([hidden])[data-side='B']")
    assert "far" in (phone.locator("#toast").get_attribute("class") or "")
    turned = phone.evaluate("getComputedStyle(document.getElementById('toast')).transform")
    assert turned not in ("none", "")
    shot(phone, "toast-far-360x640-it")
    seen = boxes(phone)
    assert seen["toast"] and seen["A"] and seen["B"]
    for side in ("A", "B"):
        assert not overlap(seen["toast"], seen[side]), (side, seen)  # type: ignore[arg-type]


def test_restored_is_said_only_until_the_restored_queue_is_decided(
        served: Served, pages: Pages) -> None:
    _, _, page, gate = rolled_then_cut(pages, served, (6, 1))
    press(page, "A")
    page.wait_for_selector("#conn[data-queued='1']")
    page.reload()
    # back from the device's storage: said so while offline
    page.wait_for_selector("#conn[data-status='offline'][data-restored='1']", timeout=5000)
    assert "ripristinato" in page.locator("#conn").inner_text()
    gate.open = True
    page.wait_for_selector("#conn[data-synced='1']", timeout=15_000)
    page.wait_for_selector("#conn[data-restored='0']")
    # a later outage has nothing to do with that restore
    gate.cut()
    page.wait_for_selector("#conn[data-status='offline']", timeout=5000)
    assert page.locator("#conn").get_attribute("data-restored") == "0"
    assert "ripristinato" not in page.locator("#conn").inner_text()
    shot(page, "offline-later-360x640-it")


def test_the_page_title_follows_its_language(served: Served, pages: Pages) -> None:
    live = served.live
    assert live is not None
    table = live.table(players=["Ann", "Bob"], length=5)
    page, _ = lan_page(pages, served, table)
    until(page, f"document.title === 'bgclock — tavolo {table['id']}'", 5000)
    # the language switched (IT/EN in the bar; hidden on a phone, where ⚙ has it)
    page.evaluate("document.getElementById('btn-lang').click()")
    until(page, f"document.title === 'bgclock — table {table['id']}'", 5000)


@pytest.mark.skipif(NODE is None, reason="node is missing")
def test_the_words_count_each_outcome_once_and_agree() -> None:
    """tests/js/words_count_check.mjs: table/words.js and table/strings.js in Node."""
    assert NODE is not None
    done = subprocess.run([NODE, str(ROOT / "tests" / "js" / "words_count_check.mjs")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["words", "count:", "ok"]
