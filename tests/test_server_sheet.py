"""The score sheet of a match's report: game by game and at each break, folded
from the stored log (a scripted match with known times)."""

from __future__ import annotations

from typing import Any

from bgclock.server.render.sheet import sheet
from bgclock.store import StoredEvent, TableSpec

SPEC = TableSpec(rules="it-tournament", length=3, players=("Ann", "Bob"),
                 clock={"reserve_ms": 300_000, "delay_ms": 0})


def log(*steps: tuple[int, str, dict[str, Any]]) -> list[StoredEvent]:
    return [StoredEvent(table_id=1, seq=i, idem_key=None, at_ms=at,
                        event={"v": 1, "do": do, "at_ms": at, **fields}, source="table",
                        lag_credit_ms=0, received_ms=0)
            for i, (at, do, fields) in enumerate(steps, start=1)]


MATCH = log(
    (1_000, "opening_roll", {"dice": [5, 2]}),           # Ann (5) on turn
    (4_000, "hit", {"side": "A"}),                       # Ann 3 s
    (9_000, "hit", {"side": "B"}),                       # Bob 5 s
    (12_000, "game_over", {"winner": "A", "result": "gammon"}),  # Ann 3 s; 2-0
    (13_000, "break", {"side": "A"}),
    (15_000, "resume", {}),
    (16_000, "opening_roll", {"dice": [6, 1]}),          # Ann on turn
    (17_000, "hit", {"side": "A"}),                      # Ann 1 s
    (20_000, "game_over", {"winner": "B", "result": "single"}),  # Bob 3 s; 2-1
)


def test_each_game_has_its_cube_result_running_score_and_reserves() -> None:
    out = sheet(SPEC, MATCH)
    g1, g2 = out["games"]
    assert (g1["game"], g1["kind"], g1["cube"], g1["winner"], g1["points"], g1["result"]) == (
        1, "game", 1, "A", 2, "gammon")
    assert g1["score"] == [2, 0]
    assert g1["reserves_ms"] == [300_000 - 3_000 - 3_000, 300_000 - 5_000]
    assert (g2["game"], g2["winner"], g2["points"], g2["result"]) == (2, "B", 1, "single")
    assert g2["score"] == [2, 1]
    assert g2["reserves_ms"] == [294_000 - 1_000, 295_000 - 3_000]


def test_a_break_has_its_reserves_length_and_limit() -> None:
    (b,) = sheet(SPEC, MATCH)["breaks"]
    assert (b["side"], b["game"], b["at_ms"], b["length_ms"]) == ("A", 1, 13_000, 2_000)
    assert b["reserves_ms"] == [294_000, 295_000]
    assert b["limit_ms"] == 10 * 60_000


def test_each_players_time_per_move() -> None:
    assert sheet(SPEC, MATCH)["moves"] == {"A": [3_000, 3_000, 1_000], "B": [5_000, 3_000]}


def test_an_empty_log_has_an_empty_sheet() -> None:
    assert sheet(SPEC, []) == {"games": [], "breaks": [], "moves": {"A": [], "B": []}}


def test_the_printable_sheet_shows_the_figures() -> None:
    from bgclock.server.render.sheet import sheet_html
    report = {"table": {"id": 1, "name": "Table 2", "players": ["Ann", "Bob"],
                        "rules": "it-tournament", "length": 3},
              "score": [2, 1], "winner": None, "sheet": sheet(SPEC, MATCH)}
    page = sheet_html(report)
    assert "<td>2–0</td><td>4:54</td><td>4:55</td>" in page   # game 1: score, both reserves
    assert "<td>Ann</td><td>1</td><td>0:02</td><td>10:00</td>" in page  # the break
    assert page.count('<svg viewBox="0 0 640 120"') == 2 and "@page" in page


def test_the_printable_sheet_in_italian_has_no_english_words_and_its_plurals() -> None:
    import re

    from bgclock.server.render.sheet import WORDS, sheet_html
    report = {"table": {"id": 1, "name": "Tavolo 2", "players": ["Ann", "Bob"],
                        "rules": "it-tournament", "length": 3},
              "score": [2, 1], "winner": "A", "sheet": sheet(SPEC, MATCH)}
    page = sheet_html(report, "it")
    assert '<html lang="it">' in page and "3 punti" in page and "vincitore Ann" in page
    assert "<td>Ann +2</td><td>gammon</td>" in page and "semplice" in page
    body = page.split("</style>", 1)[1]
    english = {part.strip() for k, w in WORDS["en"].items() if w != WORDS["it"][k]
               for part in re.split(r"\{\w+\}", w) if len(part.strip()) > 2}
    assert [w for w in english if re.search(rf"\b{re.escape(w)}\b", body)] == []
    one = sheet_html({**report, "table": {**report["table"], "length": 1}}, "it")
    assert "1 punto" in one and "1 punti" not in one
    assert "1 point ·" in sheet_html({**report, "table": {**report["table"], "length": 1}})
    assert '<html lang="en">' in sheet_html(report, 'fr"><script>')
