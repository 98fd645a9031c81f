"""Seeds marked on the draw sheet (issue 32 §5): "[1] Rossi" wherever a
seed of the Main stands, numbered in the order the draw had them."""

from __future__ import annotations

import re
from typing import Any

from bgclock.server.render.drawsheet import draw_html, seed_marks
from bgclock.tournament import Tournament


def _run(actions: list[dict[str, Any]]) -> Tournament:
    t = Tournament()
    for a in actions:
        t, _ = t.after(a)
    return t


NAMES = ["Anna Bianchi", "Bruno Rossi", "Carla Verdi", "Dario Neri", "Elena Gallo",
         "Fabio Conti", "Gina Greco", "Ugo Fois"]


def _drawn(seeds: list[int], checked: int = 8) -> Tournament:
    return _run([*({"do": "register", "name": n} for n in NAMES),
                 {"do": "settings", "seed": 5, "seeds": seeds},
                 *({"do": "check_in", "player": i} for i in range(1, checked + 1)),
                 {"do": "draw"}])


def test_the_main_sheet_marks_each_seed_with_its_number() -> None:
    t = _drawn([2, 7, 4])
    assert seed_marks(t) == {"Bruno Rossi": 1, "Gina Greco": 2, "Dario Neri": 3}
    page = draw_html("Open", "main", t, "it")
    for name, k in seed_marks(t).items():
        assert re.search(rf'<b class="s">\[{k}\]</b> {name}<', page), name
    assert page.count('class="s"') == 3  # nobody else is marked


def test_a_seed_not_in_the_draw_is_left_out_and_the_others_keep_their_order() -> None:
    t = _drawn([8, 2, 3], checked=7)  # Ugo Fois (8) is not checked in
    assert seed_marks(t) == {"Bruno Rossi": 1, "Carla Verdi": 2}


def test_no_seeds_no_marks_and_none_before_the_draw() -> None:
    assert 'class="s"' not in draw_html("Open", "main", _drawn([]), "en")
    undrawn = _run([{"do": "register", "name": "Anna"}, {"do": "settings", "seeds": [1]}])
    assert seed_marks(undrawn) == {}
