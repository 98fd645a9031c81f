"""The printed draw sheet (issue 19 §4): each match level with its two
feeders and joined to them, open late slots written as such."""

from __future__ import annotations

import re
from typing import Any

from bgclock.server.render.drawsheet import draw_html
from bgclock.tournament import Tournament


def _run(actions: list[dict[str, Any]]) -> Tournament:
    t = Tournament()
    for a in actions:
        t, _ = t.after(a)
    return t


def _players(n: int) -> list[dict[str, Any]]:
    return ([{"do": "register", "name": f"P{i}"} for i in range(1, n + 1)]
            + [{"do": "check_in", "player": i} for i in range(1, n + 1)])


def test_each_match_spans_the_rows_of_its_two_feeders_with_a_connector() -> None:
    t = _run([{"do": "settings", "seed": 2}, *_players(8), {"do": "draw"}])
    page = draw_html("Open", "main", t)
    boxes = re.findall(r'class="m" style="grid-column:(\d+);grid-row:(\d+) / span (\d+)"', page)
    by_col: dict[int, list[tuple[int, int]]] = {}
    for col, start, span in boxes:
        by_col.setdefault(int(col), []).append((int(start), int(span)))
    cols = sorted(by_col)
    assert [len(by_col[c]) for c in cols] == [4, 2, 1]
    for left, right in zip(cols, cols[1:], strict=False):
        for k, (start, span) in enumerate(by_col[right]):
            a, b = by_col[left][2 * k], by_col[left][2 * k + 1]
            assert start == a[0] and span == a[1] + b[1]  # level with its two feeders
    connectors = re.findall(r'class="c" style="grid-column:(\d+);grid-row:(\d+) / span (\d+)"',
                            page)
    assert len(connectors) == 2 + 1  # one per match of rounds 2 and 3
    assert "late arrival" not in page


def test_open_late_slots_are_written_as_such_and_byes_once_closed() -> None:
    t = _run([{"do": "settings", "seed": 4, "late_slots": 2}, *_players(6), {"do": "draw"}])
    page = draw_html("Open", "main", t)
    assert page.count('class="late">late arrival<') == 2 and ">bye<" not in page
    t, _ = t.after({"do": "close_late"})
    page = draw_html("Open", "main", t)
    assert "late arrival" not in page and page.count(">bye<") == 2
