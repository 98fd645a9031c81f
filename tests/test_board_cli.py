"""``bgclock adjudicate``: rulings by the rule texts, text and JSON output."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bgclock.board import MatchState, Position, match_id, position_id, xgid
from bgclock.cli import main

# we are off next turn whatever the dice (two checkers on our 1 and 2 points);
# the opponent has one checker off, so no gammon
OFF_NEXT_TURN = position_id(Position.from_points({1: 1, 2: 1}, {6: 12, 5: 2}))
# we need two turns; the opponent's stragglers cannot get a checker off in one
GAMMON_LOCKED = position_id(Position.from_points({1: 2, 2: 2}, {22: 2, 6: 13}))
# a 2-1 leaves us a checker; the opponent is off in one turn
NEAR_GIN = position_id(Position.from_points({6: 1, 5: 1}, {1: 2}))
# contact: the opponent is on the bar while we bear off our last two checkers
CONTACT_WIN = position_id(Position.from_points({1: 1, 2: 1}, {25: 1, 6: 14}))


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["adjudicate", *args, "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_biba_gin_at_match_point(capsys: pytest.CaptureFixture[str]) -> None:
    # BIBA 2014 Time Expiration: 1 point needed, a win the opponent cannot prevent
    out = run_json(capsys, OFF_NEXT_TURN, "--length", "5", "--score", "4", "2")
    assert out["ruling"] == "gin"
    assert out["result"] == "single"  # the opponent has a checker off: no gammon
    assert "no contact" in out["reason"]
    assert out["outcomes"]["on_roll"]["single"]["certain"]["answer"] == "yes"
    assert out["outcomes"]["opponent"]["single"]["possible"]["answer"] == "no"


def test_biba_gin_needs_the_gammon(capsys: pytest.CaptureFixture[str]) -> None:
    # 2 points needed with the cube at 1: the gammon must be unavoidable, and it is
    out = run_json(capsys, GAMMON_LOCKED, "--length", "7", "--score", "5", "3")
    assert (out["ruling"], out["result"]) == ("gin", "gammon")


def test_biba_not_at_match_point_loses(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, OFF_NEXT_TURN, "--length", "7", "--score", "0", "0", "--cube", "2")
    assert out["ruling"] == "lost"
    assert "not at match point" in out["reason"]


def test_biba_near_gin_is_lost(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, NEAR_GIN, "--length", "3", "--score", "2", "2")
    assert out["ruling"] == "lost"
    assert "can still avoid" in out["reason"]


def test_other_presets_lose_or_give_penalty_points(capsys: pytest.CaptureFixture[str]) -> None:
    args = [OFF_NEXT_TURN, "--length", "5", "--score", "4", "2"]
    assert run_json(capsys, *args, "--rules", "usbgf-2013-delay")["ruling"] == "lost"
    assert run_json(capsys, *args, "--rules", "aba-2003-standard")["ruling"] == "penalty"


def test_concession_must_be_accepted_when_nothing_better(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the side on roll has 14 checkers off: the acceptor cannot win a gammon
    conceder = position_id(Position.from_points({6: 1}, {1: 1}))
    out = run_json(capsys, conceder, "--concede", "single", "--rules", "usbgf-2013-delay")
    assert out["ruling"] == "must_accept"  # USBGF 5.1: no outcome more favorable
    assert out["offer"] == {"kind": "concede", "result": "single"}


def test_concession_invalid_when_a_gammon_is_still_possible(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # all our 15 checkers are on our 13 point; the opponent has three left on its 1 point
    pos = position_id(Position.from_points({13: 15}, {1: 3}))
    out = run_json(capsys, pos, "--concede", "single", "--rules", "aba-2003-bronstein")
    assert out["ruling"] == "invalid"
    assert "gammon" in out["reason"]


def test_concession_that_already_wins_the_match(capsys: pytest.CaptureFixture[str]) -> None:
    pos = position_id(Position.from_points({13: 15}, {1: 3}))
    out = run_json(capsys, pos, "--concede", "single", "--length", "5", "--score", "0", "4")
    assert out["ruling"] == "must_accept"
    assert "wins the opponent the match" in out["reason"]


def test_claims(capsys: pytest.CaptureFixture[str]) -> None:
    # ABA 2003 3.6 / Italian rules: a claim is valid when its result is certain
    valid = run_json(capsys, CONTACT_WIN, "--claim", "single", "--rules", "aba-2003-standard")
    assert valid["ruling"] == "valid"
    assert valid["reason"].startswith("A single game for the side on roll is certain")
    assert "contact:" in valid["reason"]
    invalid = run_json(capsys, NEAR_GIN, "--claim", "single", "--rules", "it-tournament")
    assert invalid["ruling"] == "invalid"


def test_contact_unknown_with_a_small_budget(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(
        capsys, "4HPwATDgc/ABMA", "--claim", "single", "--nodes", "20",
        "--rules", "aba-2003-bronstein",
    )
    assert out["ruling"] == "unknown"


def test_match_id_and_xgid_inputs(capsys: pytest.CaptureFixture[str]) -> None:
    pos = Position.from_points({1: 1, 2: 1}, {6: 12, 5: 2})
    m = MatchState(length=5, score=(2, 4), cube=1, on_roll=1)
    by_match_id = run_json(capsys, position_id(pos), "--match-id", match_id(m))
    by_xgid = run_json(capsys, xgid(pos, m))
    combined = run_json(capsys, f"{position_id(pos)}:{match_id(m)}")
    for out in (by_match_id, by_xgid, combined):
        assert out["ruling"] == "gin"
        assert out["match"] == {"length": 5, "score": {"on_roll": 4, "opponent": 2}, "cube": 1}


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["adjudicate", OFF_NEXT_TURN, "--length", "3", "--score", "2", "0"]) == 0
    text = capsys.readouterr().out
    assert "Ruling (biba-2014): gin (single)" in text
    assert "What can still happen" in text
    assert "BIBA 2014 Time Expiration" in text


@pytest.mark.parametrize(
    "args",
    [
        ["not-an-id"],
        [OFF_NEXT_TURN, "--length", "3", "--score", "3", "0"],
        [OFF_NEXT_TURN, "--cube", "3"],
    ],
)
def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    assert main(["adjudicate", *args]) == 2
    assert "bgclock adjudicate:" in capsys.readouterr().err


def test_help_exits_cleanly(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["adjudicate", "--help"])
    assert exc.value.code == 0
    assert "--concede" in capsys.readouterr().out


def test_biba_gin_with_contact(capsys: pytest.CaptureFixture[str]) -> None:
    # two checkers on our ace point, the opponent on the bar with none off: the
    # gammon (and the backgammon) cannot be avoided; 2 points needed
    gin = position_id(Position.from_points({1: 2}, {25: 1, 6: 14}))
    out = run_json(capsys, gin, "--length", "7", "--score", "5", "3")
    assert (out["ruling"], out["result"]) == ("gin", "backgammon")
    assert out["contact"] is True


def test_opening_position_at_match_point_is_not_gin(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "4HPwATDgc/ABMA", "--length", "5", "--score", "4", "0")
    assert out["ruling"] == "lost"
    assert "avoids it" in out["reason"]
    for side in ("on_roll", "opponent"):
        for result in ("single", "gammon", "backgammon"):
            assert out["outcomes"][side][result]["possible"]["answer"] == "yes"
            assert out["outcomes"][side][result]["certain"]["answer"] == "no"
