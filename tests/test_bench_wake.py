"""``bench/wake_cost.py`` stays runnable: it prints a row for each sleep,
the first one back to back (the ratio's base, 1.00)."""

from __future__ import annotations

import sys

import pytest

from bench import wake_cost


def test_a_short_wake_cost_run(monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["wake_cost", "--rounds", "10", "--work", "100"])
    wake_cost.main()
    rows = [line for line in capsys.readouterr().out.splitlines()
            if line.startswith("| ") and not line.startswith("| sleep")]
    assert len(rows) == len(wake_cost.SLEEPS_S)
    assert rows[0].startswith("| none (back to back) |") and "| 1.00 |" in rows[0]
    assert all(float(row.split("|")[2]) > 0 for row in rows)


def test_bad_bounds_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["wake_cost", "--rounds", "0"])
    with pytest.raises(SystemExit):
        wake_cost.main()
