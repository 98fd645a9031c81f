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


START = "-b----E-C---eE---c-e----B-"  # the opening position's XGID board, O's bar first
ODD = [
    "", " ", "-", ":", "::::::::::", "XGID=", "xgid=", "XGID=" + START,
    f"XGID={START}:0:0:1:00:0:0:0:0",  # 9 fields
    f"XGID={START}:{'9' * 5000}:0:1:00:0:0:0:0:10",  # a number past int()'s digit limit
    f"XGID={START}:0:0:1:00:0:0:0:{'9' * 12}:10",
    f"XGID={START}:0:0:1:77:0:0:0:7:10",  # dice 7-7
    f"XGID={START}:0:0:1:00:7:0:0:7:10",  # a score that has ended the match
    f"XGID={START}:1:0:1:00:6:2:1:7:10",  # cube 2 in the Crawford game
    f"XGID={START}:0:0:1:00:0:0:1:0:10:x",
    "4HPwATDgc/ABMA:", ":cIkmAQAAAAAA", "4HPwATDgc/ABMA:cIkmAQAAAAAA:x",
    "4HPwATDgc/ABMA:cIkmAQAAAAA=", "\x00", "é" * 30, "A" * 100_000, "4HPwATDgc/ABMA\n-x",
    "-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10:",
]


@pytest.mark.parametrize(
    "args",
    [
        ["not-an-id"],
        [OFF_NEXT_TURN, "--length", "3", "--score", "3", "0"],
        [OFF_NEXT_TURN, "--cube", "3"],
        [OFF_NEXT_TURN, "--cube", "0"],
        [OFF_NEXT_TURN, "--length", "-3"],
        [OFF_NEXT_TURN, "--length", "7", "--score", "2", "-1"],
        [OFF_NEXT_TURN, "--length", "7", "--score", "3", "2", "--crawford"],
        [OFF_NEXT_TURN, "--match-id", "cIkmAQAAAAA"],
        [OFF_NEXT_TURN, "--names", "A", "A"],
        [OFF_NEXT_TURN, "--nodes", "-1"],
        *([text] for text in ODD),
    ],
)
def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    # one clear line on standard error, exit 2, never a traceback
    assert main(["adjudicate", *args]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("bgclock adjudicate: ")
    assert captured.err.count("\n") == 1 and len(captured.err) < 500
    assert "Traceback" not in captured.err and captured.out == ""


@pytest.mark.parametrize(
    "args",
    [
        [OFF_NEXT_TURN, "--dice", "77"],
        [OFF_NEXT_TURN, "--cube", "two"],
        [OFF_NEXT_TURN, "--concede", "everything"],
        [OFF_NEXT_TURN, "--json", "--brief"],
        [OFF_NEXT_TURN, "--score", "1"],
        [OFF_NEXT_TURN, "--foo"],
        [OFF_NEXT_TURN, "4HPwATDgc/ABMA"],
        [],
    ],
)
def test_bad_options_exit_2_in_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["adjudicate", *args])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("bgclock adjudicate: ") and err.count("\n") == 1


def test_score_without_length_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["adjudicate", OFF_NEXT_TURN, "--score", "4", "2"]) == 2
    err = capsys.readouterr().err
    assert err == ("bgclock adjudicate: --score needs a match length: give --length (a score "
                   "means nothing in a money game)\n")


def test_money_game_said_out_loud(capsys: pytest.CaptureFixture[str]) -> None:
    # BIBA gin needs a match: without one the judgement is a money game's, and says so
    assert main(["adjudicate", OFF_NEXT_TURN]) == 0
    text = capsys.readouterr().out
    assert text.startswith("MONEY GAME: no match length was given")
    assert main(["adjudicate", OFF_NEXT_TURN, "--brief"]) == 0
    assert capsys.readouterr().out.startswith("MONEY GAME")
    out = run_json(capsys, OFF_NEXT_TURN)
    assert out["money_game"] is True and out["warning"].startswith("MONEY GAME")
    assert out["ruling"] == "lost" and "money game" in out["reason"]
    assert run_json(capsys, OFF_NEXT_TURN, "--length", "3")["warning"] is None


def test_bare_xgid_starting_with_a_dash(capsys: pytest.CaptureFixture[str]) -> None:
    pos = Position.from_points({1: 1, 2: 1}, {6: 12, 5: 2})
    text = xgid(pos, MatchState(length=5, score=(2, 4), on_roll=1))[len("XGID="):]
    assert text.startswith("-")
    for args in ([text, "--json"], ["--json", text], ["--json", "--", text]):
        assert main(["adjudicate", *args]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["ruling"] == "gin" and out["position_id"] == position_id(pos)


def test_lowercase_xgid_prefix(capsys: pytest.CaptureFixture[str]) -> None:
    pos = Position.from_points({1: 1, 2: 1}, {6: 12, 5: 2})
    text = xgid(pos, MatchState(length=5, score=(2, 4), on_roll=1))
    upper = run_json(capsys, text)
    lower = run_json(capsys, "xgid=" + text[len("XGID="):])
    assert upper == lower and lower["ruling"] == "gin"


# a 2-1 leaves a checker behind while the opponent is off next turn; a 6-5 bears both off
RACE = Position.from_points({6: 1, 5: 1}, {1: 2})


@pytest.mark.parametrize(
    ("dice", "ruling"), [(None, "lost"), ((6, 5), "gin"), ((5, 6), "gin"), ((2, 1), "lost"),
                         ((6, 6), "gin")],
)
def test_dice_already_rolled_are_played(
    capsys: pytest.CaptureFixture[str], dice: tuple[int, int] | None, ruling: str
) -> None:
    # BIBA 2014 Time Expiration: X needs 1 point; whether X is off this turn is the roll's
    m = MatchState(length=3, score=(2, 2), on_roll=1, dice=dice)
    outs = [run_json(capsys, xgid(RACE, m)),
            run_json(capsys, f"{position_id(RACE)}:{match_id(m)}")]
    if dice is not None:
        outs.append(run_json(capsys, position_id(RACE), "--length", "3", "--score", "2", "2",
                             "--dice", f"{dice[0]}{dice[1]}"))
    for out in outs:
        assert out["ruling"] == ruling
        assert out["dice"] == (sorted(dice, reverse=True) if dice else None)
        if dice:
            assert f"has rolled {max(dice)}-{min(dice)}" in out["reason"]
        assert out["outcomes"]["on_roll"]["single"]["certain"]["answer"] == (
            "yes" if ruling == "gin" else "no")


def test_dice_rolled_with_a_claim_and_a_concession(capsys: pytest.CaptureFixture[str]) -> None:
    m = MatchState(length=7, on_roll=1, dice=(2, 1))
    assert run_json(capsys, xgid(RACE, m), "--claim", "single")["ruling"] == "invalid"
    m = MatchState(length=7, on_roll=1, dice=(6, 5))
    assert run_json(capsys, xgid(RACE, m), "--claim", "single")["ruling"] == "valid"


@pytest.mark.parametrize(
    ("match", "message"),
    [
        (MatchState(length=7, on_roll=1, turn=0, double_offered=True), "double offered"),
        (MatchState(length=7, on_roll=1, turn=0, resigned=1), "resignation"),
        (MatchState(length=7, on_roll=1, game_state=2), "game over"),
        (MatchState(length=7, on_roll=1, game_state=0), "no game started"),
    ],
)
def test_match_states_the_ruling_cannot_use_are_refused(
    capsys: pytest.CaptureFixture[str], match: MatchState, message: str
) -> None:
    assert main(["adjudicate", f"{position_id(RACE)}:{match_id(match)}"]) == 2
    assert message in capsys.readouterr().err


def test_dice_after_the_game_is_over_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    over = Position.from_points({}, {1: 2})
    m = MatchState(length=7, on_roll=1, dice=(5, 2))
    assert main(["adjudicate", xgid(over, m)]) == 2
    assert "already over" in capsys.readouterr().err


def test_the_ruling_names_the_player(capsys: pytest.CaptureFixture[str]) -> None:
    m = MatchState(length=3, score=(2, 2), on_roll=1, dice=(6, 5))
    out = run_json(capsys, xgid(RACE, m))
    assert out["headline"] == "X, whose time expired, keeps the match: gin (single)"
    assert out["names"] == {"on_roll": "X", "opponent": "O"}
    out = run_json(capsys, xgid(RACE, m), "--names", "B", "A")
    assert out["headline"] == "B, whose time expired, keeps the match: gin (single)"
    assert out["reason"].startswith("B needs 1 point with the cube at 1")
    by_id = run_json(capsys, f"{position_id(RACE)}:{match_id(m)}")
    assert by_id["headline"].startswith("player 1, whose time expired")
    conceded = run_json(capsys, position_id(Position.from_points({6: 1}, {1: 1})),
                        "--concede", "single", "--names", "A", "B")
    assert conceded["headline"] == "B must accept A's concession of a single game"


def test_brief(capsys: pytest.CaptureFixture[str]) -> None:
    m = MatchState(length=3, score=(2, 2), on_roll=1, dice=(6, 5))
    assert main(["adjudicate", xgid(RACE, m), "--names", "B", "A", "--brief"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("Ruling (biba-2014): gin (single) - B, whose time expired, keeps "
                        "the match: gin (single).")
    assert len(lines) == 2 and lines[1].startswith("  B needs 1 point")
    assert "B has rolled 6-5 and can play 6/off 5/off" in lines[1]


def test_reasons_read_as_sentences(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["adjudicate", OFF_NEXT_TURN, "--length", "3", "--score", "2", "0",
                 "--names", "B", "A"]) == 0
    text = capsys.readouterr().out
    assert "  B wins, certain: yes. " in text
    reasons = text.split("Reasons:\n")[1].split("\n\n")[0].splitlines()
    assert len(reasons) == 18
    for line in reasons:  # "  <question>: <answer>. <Reason>"
        question, rest = line.strip().split(": ", 1)
        assert question.startswith(("B wins", "A wins"))
        assert rest.split(". ", 1)[0] in ("yes", "no", "unknown") and rest[0].islower()
    ruling = text.split("Ruling (biba-2014): ")[1].splitlines()
    assert ruling[1].strip().startswith("B needs 1 point with the cube at 1: a single game "
                                        "or more wins B the match. A can no longer avoid")
    assert ruling[1].strip().endswith(".")


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
