"""``bgclock payouts`` (issue 36 §3): the pool and each place's amount as
JSON or a table; a bad option is one line naming it, exit code 2."""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgclock.cli import main

LV = ["--entries", "80", "--fee", "40000", "--return", "93.25"]


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["payouts", *argv, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    result: dict[str, Any] = json.loads(out)
    return result


def test_the_las_vegas_main_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    got = _json(capsys, *LV, "--shares", "50,25,12.5,12.5")
    assert got == {"pool": 2_984_000, "places": [
        {"place": 1, "amount": 1_492_000}, {"place": 2, "amount": 746_000},
        {"place": 3, "amount": 373_000}, {"place": 4, "amount": 373_000}]}


def test_places_auto_pays_by_field_size_and_is_the_default(
        capsys: pytest.CaptureFixture[str]) -> None:
    auto = _json(capsys, "--entries", "20", "--fee", "1000", "--return", "90", "--places",
                 "auto")
    # 20 entries: the semi-finals are paid, 50/25/12.5/12.5 of 180.00
    assert [p["amount"] for p in auto["places"]] == [9_000, 4_500, 2_250, 2_250]
    assert _json(capsys, "--entries", "20", "--fee", "1000", "--return", "90") == auto


def test_tied_places_added_money_and_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    got = _json(capsys, "--entries", "9", "--fee", "1001", "--return", "85", "--added", "7",
                "--shares", "40,30,20,10", "--tied", "2,3")
    # 9 x 10.01 x 85 % = 76.5765 -> 76.57, + 0.07 = 76.64
    assert got["pool"] == 7_664
    amounts = [p["amount"] for p in got["places"]]
    assert sum(amounts) == 7_664 and amounts[1] == amounts[2]
    assert main(["payouts", "--entries", "9", "--fee", "1001", "--return", "85", "--tied",
                 "1,2"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "pool 76.57 = 9 x 10.01 x 85 %"
    assert "1-2" in out and "66.67 %" in out and out.splitlines()[-1].endswith("76.57")


@pytest.mark.parametrize(("argv", "option"), [
    (["--entries", "0", "--fee", "100", "--return", "90"], "--entries"),
    (["--entries", "-3", "--fee", "100", "--return", "90"], "--entries"),
    (["--entries", "9" * 40, "--fee", "100", "--return", "90"], "--entries"),
    (["--entries", "10", "--fee", "1.50", "--return", "90"], "--fee"),
    (["--entries", "10", "--fee", "10000001", "--return", "90"], "--fee"),
    (["--entries", "10", "--fee", "100", "--return", "100.01"], "--return"),
    (["--entries", "10", "--fee", "100", "--return", "nan"], "--return"),
    (["--entries", "10", "--fee", "100", "--return", "90", "--added", "-1"], "--added"),
    (["--entries", "10", "--fee", "100", "--return", "90", "--shares", "50,40"], "--shares"),
    (["--entries", "10", "--fee", "100", "--return", "90", "--shares", "40,60"], "--shares"),
    (["--entries", "3", "--fee", "100", "--return", "90", "--shares", "40,30,20,10"],
     "--shares"),
    (["--entries", "10", "--fee", "100", "--return", "90", "--places", "4"], "--places"),
    (["--entries", "20", "--fee", "100", "--return", "90", "--tied", "3,5"], "--tied"),
    (["--entries", "20", "--fee", "100", "--return", "90", "--tied", "4,5"], "--tied"),
    (["--entries", "20", "--fee", "100", "--return", "90", "--unit", "0"], "--unit"),
    (["--entries", "20", "--fee", "100", "--return", "90", "--shares", "100", "--places",
      "auto"], "--places"),
    (["--fee", "100", "--return", "90"], "--entries"),
])
def test_bad_input_is_one_line_naming_the_option_and_exit_2(
        capsys: pytest.CaptureFixture[str], argv: list[str], option: str) -> None:
    try:
        code = main(["payouts", *argv, "--json"])
    except SystemExit as exc:   # argparse's own refusals (bgclock.cli.Parser: one line)
        code = exc.code
    assert code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1 and option in err and "Traceback" not in err


@settings(max_examples=60, deadline=None)
@given(entries=st.integers(1, 100_000), fee=st.integers(0, 10_000_000),
       back=st.integers(0, 1_000_000), added=st.integers(0, 100_000_000), data=st.data())
def test_any_event_adds_up_never_rises_and_ties_share_equally(
        entries: int, fee: int, back: int, added: int, data: st.DataObject) -> None:
    # places auto: 1 below 8 entries, 2 from 8, 4 from 16, 8 from 32
    places = 1 if entries < 8 else 2 if entries < 16 else 4 if entries < 32 else 8
    argv = ["payouts", "--entries", str(entries), "--fee", str(fee), "--return",
            f"{back // 10_000}.{back % 10_000:04d}", "--added", str(added), "--json"]
    runs: list[list[int]] = []
    place = 2
    while place < places:
        if data.draw(st.booleans()):
            size = data.draw(st.integers(2, places - place + 1))
            runs.append(list(range(place, place + size)))
            argv += ["--tied", ",".join(map(str, runs[-1]))]
            place += size
        else:
            place += 1
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0
    got = json.loads(out.getvalue())
    amounts = [p["amount"] for p in got["places"]]
    assert [p["place"] for p in got["places"]] == list(range(1, places + 1))
    assert got["pool"] == entries * fee * back // 1_000_000 + added == sum(amounts)
    assert all(a >= b for a, b in zip(amounts, amounts[1:], strict=False))
    for run in runs:
        assert len({amounts[p - 1] for p in run}) == 1
