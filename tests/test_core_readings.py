"""The readings bgclock chose where the spec is silent (docs/rules.md, R1-R15)."""

from __future__ import annotations

import pytest

from bgclock.core import (
    Accept,
    Adjust,
    Concede,
    Double,
    GameOver,
    Hit,
    IllegalCommand,
    InvalidCommand,
    LateStart,
    Match,
    OpeningRoll,
    Pass,
    Penalty,
    Premature,
    Reject,
    Resume,
    Ruling,
    Stop,
    Take,
)


def _playing(rules: str = "usbgf-2013-delay", **kw: object) -> Match:
    m = Match.new(rules, **{"length": 7, **kw})  # type: ignore[arg-type]
    m.apply(OpeningRoll(at_ms=0, dice=(6, 1)))  # A on turn
    return m


def test_r1_cube_kept_until_next_game() -> None:
    m = _playing()
    m.apply(Double(at_ms=1_000, side="A"))
    m.apply(Take(at_ms=2_000, side="B"))
    m.apply(GameOver(at_ms=3_000, winner="A", result="single"))
    s = m.state()
    assert (s.phase, s.score, s.cube_value, s.cube_owner) == ("between_games", (2, 0), 2, "B")
    m.apply(OpeningRoll(at_ms=4_000, dice=(1, 6)))
    assert (m.state().cube_value, m.state().cube_owner) == (1, None)


def test_r2_cube_frozen_shows_the_next_game_between_games() -> None:
    m = _playing("aba-2003-standard", length=5)
    m.apply(GameOver(at_ms=1_000, winner="A", result="single"))
    m.apply(Penalty(at_ms=2_000, side="B", points=4))  # B now needs 1: aba 5.2
    s = m.state()
    assert (s.phase, s.cube_frozen, s.crawford) == ("between_games", True, True)
    m.apply(OpeningRoll(at_ms=3_000, dice=(6, 1)))
    assert m.state().cube_frozen


def test_r3_aba_expiry_follows_the_clock_in_use() -> None:
    standard = _playing("aba-2003-bronstein", length=5, clock={"mode": "standard",
                                                               "reserve_ms": 1_000})
    s = standard.state(1_000)
    assert (s.phase, s.stopped_reason, s.score, s.A.reserve_ms) == (
        "stopped", "time_expired", (0, 2), 300_000)
    bronstein = _playing("aba-2003-standard", length=5, clock={"mode": "bronstein",
                                                               "reserve_ms": 1_000})
    s = bronstein.state(1_000)
    assert (s.phase, s.winner) == ("match_over", "B")


def test_r4_biba_gin_stopped_reason() -> None:
    won = _playing("biba-2014", length=5, score=(4, 0), clock={"reserve_ms": 0})
    won.apply(Ruling(at_ms=13_000, decision="gin", result="single"))
    assert (won.state().winner, won.state().stopped_reason) == ("A", None)
    short = _playing("biba-2014", length=5, score=(2, 0), clock={"reserve_ms": 0})
    assert short.state(12_000).phase == "dispute"
    short.apply(Ruling(at_ms=13_000, decision="gin", result="gammon"))
    s = short.state()
    assert (s.score, s.winner, s.stopped_reason) == ((4, 0), "B", "time_expired")


def test_r5_adjust_to_zero_under_simple_delay_expires_when_the_delay_runs_out() -> None:
    # clock-script "adjust": under simple delay a running side left at 0 with
    # delay still to run expires when the delay runs out, not at the adjust.
    m = _playing()
    m.apply(Adjust(at_ms=1_000, side="A", delta_ms=-10**9))
    s = m.state()
    assert (s.phase, s.A.expired, s.A.reserve_ms, s.A.delay_ms) == ("playing", False, 0, 11_000)
    m.apply(Adjust(at_ms=5_000, side="A", delta_ms=0))  # an adjust of 0 changes nothing
    assert m.state(11_999).phase == "playing"
    s = m.state(12_000)
    assert (s.phase, s.winner, s.A.expired, s.A.reserve_ms) == ("match_over", "B", True, 0)


def test_r5_adjust_to_zero_under_bronstein_expires_at_once() -> None:
    m = _playing("usbgf-2007-bronstein")
    m.apply(Adjust(at_ms=1_000, side="A", delta_ms=-10**9))
    s = m.state()
    assert (s.phase, s.winner, s.A.expired) == ("match_over", "B", True)


def test_r6_take_needs_a_running_clock_pass_does_not() -> None:
    m = _playing()
    m.apply(Double(at_ms=1_000, side="A"))
    m.apply(Stop(at_ms=2_000, side="B", reason="dispute"))
    with pytest.raises(IllegalCommand):
        m.apply(Take(at_ms=3_000, side="B"))
    m.apply(Pass(at_ms=3_000, side="B"))
    assert m.state().score == (1, 0)


def test_r7_late_start_under_usbgf() -> None:
    m = Match.new("usbgf-2013-delay", length=3, clock={"reserve_ms": 1_000})
    m.apply(LateStart(at_ms=0, side="B"))
    m.apply(Hit(at_ms=500, side="B"))  # no game yet: nothing
    assert m.state(12_999).on_turn == "B"
    s = m.state(13_000)
    assert (s.phase, s.winner, s.game) == ("match_over", "A", 0)


def test_r8_premature_during_the_forfeited_period_forfeits_the_next() -> None:
    m = _playing("usbgf-2007-bronstein")
    m.apply(Premature(at_ms=1_000, side="B"))
    m.apply(Hit(at_ms=2_000, side="A"))  # B's forfeited period starts
    assert m.state().B.delay_ms == 0
    m.apply(Premature(at_ms=3_000, side="B"))
    m.apply(Hit(at_ms=5_000, side="B"))  # no credit
    assert m.state().B.reserve_ms == 840_000 - 3_000
    assert m.state().B.forfeit_delay  # the next one is forfeited too
    m.apply(Hit(at_ms=6_000, side="A"))
    m.apply(Hit(at_ms=8_000, side="B"))
    assert m.state().B.reserve_ms == 840_000 - 3_000 - 2_000
    assert not m.state().B.forfeit_delay


def test_r9_only_the_receiver_reaching_match_point_freezes() -> None:
    m = _playing("aba-2003-bronstein", length=5)
    m.apply(Penalty(at_ms=1_000, side="B", points=2))  # B needs 3: no freeze
    assert not m.state().cube_frozen
    m.apply(Penalty(at_ms=1_000, side="B", points=2))  # B needs 1: frozen
    assert m.state().cube_frozen
    with pytest.raises(IllegalCommand, match="frozen"):
        m.apply(Double(at_ms=2_000, side="A"))


def test_r10_concession_while_a_double_waits() -> None:
    m = _playing()
    m.apply(Double(at_ms=1_000, side="A"))
    m.apply(Concede(at_ms=2_000, side="B", result="gammon"))
    m.apply(Accept(at_ms=3_000, side="A"))
    assert m.state().score == (2, 0)


def test_r11_stop_without_side_and_resume_with_side() -> None:
    m = _playing()
    m.apply(Stop(at_ms=1_000, side="A", reason="other"))
    m.apply(Resume(at_ms=2_000))
    assert m.state(2_000).A.running
    with pytest.raises(InvalidCommand):
        Stop(at_ms=1, side="C", reason="other")


def test_r12_invalid_offer_made_during_a_stop_restarts_the_clock() -> None:
    m = _playing()
    m.apply(Stop(at_ms=1_000, side="A", reason="fallen_dice"))
    m.apply(Concede(at_ms=2_000, side="A", result="single"))
    m.apply(Reject(at_ms=3_000, side="B"))
    m.apply(Ruling(at_ms=4_000, decision="invalid"))
    s = m.state(5_000)
    assert (s.phase, s.on_turn, s.A.running, s.A.delay_ms) == ("playing", "A", True, 10_000)


def test_r13_aba_expiry_before_any_game() -> None:
    m = Match.new("aba-2003-standard", length=3, clock={"reserve_ms": 1_000})
    m.apply(LateStart(at_ms=0, side="A"))
    s = m.state(1_000)
    assert (s.phase, s.score, s.A.reserve_ms, s.cube_frozen) == (
        "stopped", (0, 2), 300_000, True)  # B needs 1: the next game is frozen
    m.apply(Resume(at_ms=2_000))
    m.apply(OpeningRoll(at_ms=3_000, dice=(1, 2)))
    s = m.state()
    assert (s.game, s.cube_frozen, s.crawford) == (1, True, True)


def test_r14_crawford_shown_in_setup() -> None:
    assert Match.new("usbgf-2013-delay", length=3, score=(2, 0), crawford=True).state().crawford
    assert not Match.new("usbgf-2013-delay", length=3, score=(2, 0)).state().crawford


def test_r15_restart_is_a_server_reason() -> None:
    m = _playing()
    m.apply(Stop(at_ms=1_000, reason="restart"))
    assert m.state().stopped_reason == "restart"
