"""The room display's and the dashboard's pure helpers of the tournament's
end (tourney/seats.js), run in node: "on time" for a flag, who waits for
the consolation draw, "where do I play?"."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest

from bgclock.server.render.pages import STATIC_DIR

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is missing")


def run(expr: str) -> Any:
    module = (STATIC_DIR / "tourney" / "seats.js").as_uri()
    code = (f"import * as S from {json.dumps(module)};\n"
            "const t = (k) => '<' + k + '>';\n"
            f"console.log(JSON.stringify({expr}));")
    out = subprocess.run(["node", "--input-type=module", "-e", code], capture_output=True,
                         text=True, check=True, timeout=60)
    return json.loads(out.stdout)


def test_a_flag_is_on_time_and_a_score_is_the_winners_first() -> None:
    m = {"a": "Ann", "b": "Bob", "winner": "Bob", "length": 7}
    assert run(f"S.resultText({json.dumps(m)}, {{source: 'clock', score: [0, 0]}}, t)") \
        == "<st.on_time>"
    assert run(f"S.resultText({json.dumps(m)}, {{source: 'clock', score: [3, 7]}}, t)") \
        == "7 – 3"
    assert run(f"S.resultText({json.dumps(m)}, {{source: 'hand', score: [2, 5]}}, t)") \
        == "5 – 2"
    assert run(f"S.resultText({json.dumps(m)}, {{source: 'disqualified'}}, t)") == "<roomx.dq>"
    assert run(f"S.resultText({json.dumps(m)}, {{source: 'withdrawn'}}, t)") \
        == "<st.withdrawn>"


def test_first_match_losers_wait_for_the_consolation_not_later_losers() -> None:
    main = {"rounds": [
        [{"a": "A", "b": "B", "winner": "A"}, {"a": "C", "b": None, "winner": "C"}],
        [{"a": "A", "b": "C", "winner": "A"}]]}
    # B lost its first match; C had a bye and lost its first *played* match
    assert sorted(run(f"[...S.firstMatchLosers({json.dumps(main)})]")) == ["B", "C"]
    main["rounds"][0][0]["winner"] = None
    main["rounds"][1][0] = {"a": None, "b": "C", "winner": None}
    assert run(f"[...S.firstMatchLosers({json.dumps(main)})]") == []


def test_where_do_i_play_finds_part_of_a_name_at_a_table() -> None:
    matches = [
        {"event": "main", "round": 1, "match": 0, "table": 3, "a": "Anna Rossi",
         "b": "Marco Bianchi", "winner": None},
        {"event": "consolation", "round": 0, "match": 1, "table": 7, "a": "Luca",
         "b": "Giovanna", "winner": None},
        {"event": "main", "round": 0, "match": 0, "table": 1, "a": "Anna Rossi",
         "b": "Bea", "winner": "Anna Rossi"},
        {"event": "main", "round": 1, "match": 1, "table": None, "a": "Annalisa",
         "b": "Zed", "winner": None},
    ]
    found = run(f"S.findSeats({json.dumps(matches)}, 'ANN')")
    assert found == [  # by surname: Giovanna (G) before Anna Rossi (R)
        {"name": "Giovanna", "table": 7, "vs": "Luca", "event": "consolation", "round": 0},
        {"name": "Anna Rossi", "table": 3, "vs": "Marco Bianchi", "event": "main", "round": 1}]
    assert run(f"S.findSeats({json.dumps(matches)}, '  ')") == []
