"""The match engine read like rulebook cases; the scripts in tests/scripts
cover each clause, these cover the API around them."""

from __future__ import annotations

import pytest

from bgclock.core import (
    PRESETS,
    Adjust,
    ClockSettings,
    Double,
    GameOver,
    Hit,
    IllegalCommand,
    InvalidCommand,
    Match,
    OpeningRoll,
    Resume,
    Start,
    Stop,
    Take,
    replay,
)


@pytest.mark.parametrize(
    "rules, teams, length, score, reserve, delay",
    [
        ("usbgf-2013-delay", False, 7, (0, 0), 840_000, 12_000),  # usbgf-2013 2.1
        ("usbgf-2013-delay", True, 7, (2, 1), 7 * 150_000 - 3 * 75_000, 18_000),  # 2.2
        ("usbgf-2007-bronstein", True, 5, (0, 0), 750_000, 18_000),  # usbgf-2007 2.2
        ("aba-2003-standard", False, 5, (1, 1), 5 * 360_000 - 2 * 180_000, 0),  # aba 2.1
        ("aba-2003-bronstein", True, 5, (0, 0), 600_000, 12_000),  # aba 2.1, no team figures
        ("biba-2014", False, 11, (3, 4), 11 * 120_000 - 7 * 60_000, 12_000),  # biba allowances
        ("it-tournament", False, 7, (0, 0), 21 * 60_000, 12_000),  # "7 points ... 21 minutes"
    ],
)
def test_reserve_from_length_and_score(
    rules: str, teams: bool, length: int, score: tuple[int, int], reserve: int, delay: int
) -> None:
    s = ClockSettings.resolve(rules, length=length, score=score, teams=teams)
    assert (s.reserve_ms, s.delay_ms) == (reserve, delay)
    state = Match(s).state(0)
    assert state.A.reserve_ms == state.B.reserve_ms == reserve


def test_standard_has_no_allowance_even_if_overridden() -> None:
    s = ClockSettings.resolve("aba-2003-standard", length=3, overrides={"delay_ms": 9000})
    assert s.delay_ms == 0


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(length=0), "at least 1"),
        (dict(length=3, score=(3, 0)), "0 to length - 1"),
        (dict(length=3, overrides={"mode": "hourglass"}), "unknown time mode"),
        (dict(length=3, overrides={"per_poin_ms": 1}), "unknown clock override"),
        (dict(length=3, overrides={"reserve_ms": -1}), ">= 0"),
        (dict(length=3, score=(2, 2), overrides={"per_point_ms": 60_000}), "below zero"),
    ],
)
def test_bad_settings_are_invalid(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(InvalidCommand, match=words):
        ClockSettings.resolve("usbgf-2013-delay", **kwargs)  # type: ignore[arg-type]


def test_unknown_preset() -> None:
    with pytest.raises(InvalidCommand, match="unknown rules preset"):
        Match.new("fibs-1999", length=3)


def test_every_preset_cites_its_source_and_clauses() -> None:
    for preset in PRESETS.values():
        assert preset.source.endswith(".txt") and preset.clauses


def test_expires_at_is_exact_for_simple_delay() -> None:
    m = Match.new("usbgf-2013-delay", length=1, clock={"reserve_ms": 5_000})
    assert m.expires_at() is None
    m.apply(OpeningRoll(at_ms=100, dice=(6, 1)))
    assert m.expires_at() == 100 + 12_000 + 5_000  # spec: expires at e = D + R0
    m.apply(Stop(at_ms=1_100, side="A", reason="fallen_dice"))
    assert m.expires_at() is None
    m.apply(Resume(at_ms=61_100))
    assert m.expires_at() == 61_100 + 11_000 + 5_000


def test_expires_at_is_exact_for_bronstein_below_allowance() -> None:
    m = Match.new("usbgf-2007-bronstein", length=1, clock={"reserve_ms": 4_000})
    m.apply(OpeningRoll(at_ms=0, dice=(1, 6)))
    assert m.expires_at() == 4_000  # R0 < D: still expires at e = R0


def test_flag_at_its_millisecond() -> None:
    m = Match.new("usbgf-2007-bronstein", length=3, clock={"reserve_ms": 4_000})
    m.apply(OpeningRoll(at_ms=0, dice=(1, 6)))
    assert m.state(3_999).B.running
    s = m.state(4_000)
    assert (s.phase, s.winner, s.B.expired) == ("match_over", "A", True)


def test_refusal_names_the_rule_and_changes_nothing() -> None:
    m = Match.new("usbgf-2013-delay", length=3, score=(1, 0))
    m.apply(OpeningRoll(at_ms=0, dice=(5, 2)))
    m.apply(GameOver(at_ms=1_000, winner="A", result="single"))
    m.apply(OpeningRoll(at_ms=2_000, dice=(2, 5)))
    before = m.state(3_000)
    with pytest.raises(IllegalCommand, match="B cannot double: this is the Crawford game"):
        m.apply(Double(at_ms=3_000, side="B"))
    assert m.state(3_000) == before


def test_time_cannot_go_backwards() -> None:
    m = Match.new("usbgf-2013-delay", length=3)
    m.apply(OpeningRoll(at_ms=5_000, dice=(5, 2)))
    with pytest.raises(InvalidCommand, match="backwards"):
        m.apply(Hit(at_ms=4_999, side="A"))


def test_start_is_refused_where_clocks_start_only_with_a_game() -> None:
    for rules in ("usbgf-2013-delay", "usbgf-2007-bronstein", "aba-2003-standard"):
        m = Match.new(rules, length=5)
        with pytest.raises(IllegalCommand, match=r"only at the start of a game \(1.1\)"):
            m.apply(Start(at_ms=0, side="A"))
    for rules in ("biba-2014", "it-tournament"):
        m = Match.new(rules, length=5)
        m.apply(Start(at_ms=0, side="B"))
        assert (m.state().game, m.state().on_turn) == (1, "B")


def test_copy_is_independent() -> None:
    m = Match.new("usbgf-2007-bronstein", length=5)
    m.apply(OpeningRoll(at_ms=0, dice=(6, 5)))
    c = m.copy()
    c.apply(Hit(at_ms=1_000, side="A"))
    c.apply(Adjust(at_ms=1_000, side="A", delta_ms=-10_000))
    assert m.state(1_000).on_turn == "A" and c.state(1_000).on_turn == "B"
    assert m.state(1_000).A.reserve_ms == 599_000
    assert c.state(1_000).A.reserve_ms == 590_000


def test_replay_equals_live() -> None:
    events = [
        OpeningRoll(at_ms=0, dice=(3, 1)),
        Double(at_ms=4_000, side="A"),
        Take(at_ms=9_000, side="B"),
        Stop(at_ms=10_000, side="A", reason="restart"),
        Resume(at_ms=20_000),
        Hit(at_ms=25_000, side="A"),
    ]
    live = Match.new("it-tournament", length=7)
    for e in events:
        live.apply(e)
    rebuilt = replay(events, "it-tournament", length=7)
    assert rebuilt.state(30_000) == live.state(30_000)
    s = live.state(30_000)
    assert (s.cube_value, s.cube_owner, s.on_turn) == (2, "B", "B")


def test_state_to_dict_has_the_script_fields() -> None:
    m = Match.new("biba-2014", length=3)
    d = m.state(0).to_dict()
    for key in ("A", "B", "phase", "stopped_reason", "on_turn", "score", "cube", "crawford",
                "cube_frozen", "winner", "game"):
        assert key in d
    assert d["cube"] == {"value": 1, "owner": None}
