"""Rulings on clock disputes computed from the position (bgclock.board.rule_dispute).

The clock engine brings the match to its dispute; the board engine says what
the director must rule; the ruling event then ends the dispute.
"""

from __future__ import annotations

import pytest

from bgclock.board import BoardError, Position, rule_dispute
from bgclock.core import Claim, Concede, Match, OpeningRoll, Reject


def _biba_expired(score: tuple[int, int], cube_steps: bool = False) -> Match:
    """biba-2014: A, on roll, flags at 12 s (reserve 0) with the score given."""
    m = Match.new("biba-2014", length=5, score=score, clock={"reserve_ms": 0})
    m.apply(OpeningRoll(at_ms=0, dice=(6, 1)))
    assert m.state(12_000).phase == "dispute"
    return m


def test_biba_gin_with_a_gammon_that_cannot_be_saved() -> None:
    # biba-2014 Time Expiration: A needs 1; A bears off its last two checkers
    # with any roll, B has none off and cannot move before: a gammon is certain.
    m = _biba_expired((4, 0))
    position = Position.from_points({1: 2}, {6: 15})
    ruling = rule_dispute(m.state(), position)
    assert (ruling.decision, ruling.result) == ("gin", "gammon")
    event = ruling.event(13_000)
    assert event is not None
    m.apply(event)
    s = m.state()
    assert (s.phase, s.winner, s.score) == ("match_over", "A", (6, 0))


def test_biba_not_gin_when_the_opponent_can_still_win() -> None:
    # A needs 2 at 3-0 (cube 1): only a gammon saves it, and B, on a 1-point
    # race, can bear off first... A has 15 checkers far from home: lost.
    m = _biba_expired((3, 0))
    position = Position.from_points({12: 15}, {1: 1})
    ruling = rule_dispute(m.state(), position)
    assert ruling.decision == "lost"
    assert "avoid" in ruling.adjudication.reason
    event = ruling.event(13_000)
    assert event is not None
    m.apply(event)
    assert (m.state().phase, m.state().winner) == ("match_over", "B")


def _rejected(kind: str, result: str) -> Match:
    """usbgf-2013: A, on roll, offers; B rejects; the director is summoned."""
    m = Match.new("usbgf-2013-delay", length=7)
    m.apply(OpeningRoll(at_ms=0, dice=(6, 1)))
    offer = Concede if kind == "concede" else Claim
    m.apply(offer(at_ms=1_000, side="A", result=result))
    m.apply(Reject(at_ms=2_000, side="B"))
    return m


# A, on roll, has 15 checkers on its 12 point; B has one checker left on its
# 1 point: B is off next turn, A cannot bear off a checker before: B's gammon
# is certain, its backgammon impossible (none of A's checkers in B's home).
FAR_BEHIND = Position.from_points({12: 15}, {1: 1})


def test_usbgf_single_concession_invalid_when_a_gammon_can_happen() -> None:
    ruling = rule_dispute(_rejected("concede", "single").state(), FAR_BEHIND)
    assert ruling.decision == "invalid"  # usbgf-2013 5.1: a better outcome can occur


def test_usbgf_gammon_concession_must_be_accepted() -> None:
    m = _rejected("concede", "gammon")
    ruling = rule_dispute(m.state(), FAR_BEHIND)
    assert ruling.decision == "accept"
    event = ruling.event(3_000)
    assert event is not None
    m.apply(event)
    assert m.state().score == (0, 2)


def test_claim_valid_only_when_certain() -> None:
    winning = Position.from_points({1: 2}, {6: 15})
    assert rule_dispute(_rejected("claim", "gammon").state(), winning).decision == "accept"
    assert rule_dispute(_rejected("claim", "backgammon").state(), winning).decision == (
        "invalid")


def test_offer_by_the_side_not_on_roll() -> None:
    # Italian / BIBA: a concession after completing the turn. B offers while A is
    # on roll; seen from A (on roll), B far behind: B concedes a gammon.
    m = Match.new("it-tournament", length=7)
    m.apply(OpeningRoll(at_ms=0, dice=(6, 1)))
    m.apply(Concede(at_ms=1_000, side="B", result="gammon"))
    m.apply(Reject(at_ms=2_000, side="A"))
    position = Position.from_points({1: 1}, {12: 15})  # A on roll, about to finish
    assert rule_dispute(m.state(), position).decision == "accept"
    m2 = Match.new("it-tournament", length=7)
    m2.apply(OpeningRoll(at_ms=0, dice=(6, 1)))
    m2.apply(Concede(at_ms=1_000, side="B", result="single"))
    m2.apply(Reject(at_ms=2_000, side="A"))
    assert rule_dispute(m2.state(), position).decision == "invalid"


def test_no_dispute() -> None:
    m = Match.new("biba-2014", length=3)
    with pytest.raises(BoardError, match="no dispute"):
        rule_dispute(m.state(), FAR_BEHIND)


def test_undecided_search_leaves_the_ruling_to_the_director() -> None:
    m = _biba_expired((4, 0))
    opening = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    ruling = rule_dispute(m.state(), opening, node_budget=50)
    assert ruling.decision is None and ruling.event(13_000) is None
    assert ruling.adjudication.ruling == "unknown"


def test_dice_already_rolled_decide_a_biba_expiry() -> None:
    # biba-2014 Time Expiration: A needs 1 and flagged with 6-5 already rolled: both
    # its checkers come off this turn, B cannot avoid the loss; with 2-1 it can
    m = _biba_expired((4, 0))
    position = Position.from_points({6: 1, 5: 1}, {1: 2})
    assert rule_dispute(m.state(), position).decision == "lost"
    rolled = rule_dispute(m.state(), position, dice=(6, 5))
    assert (rolled.decision, rolled.result) == ("gin", "single")
    assert rolled.adjudication.headline == "A, whose time expired, keeps the match: gin (single)"
    assert "A has rolled 6-5" in rolled.adjudication.reason
    assert rule_dispute(m.state(), position, dice=(2, 1)).decision == "lost"
