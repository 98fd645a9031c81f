"""Refusals say why, with a stable code (issue: refusals that say why).

Each refusal names its reason in words a player understands and carries a
code from ``REFUSALS``; the pages translate the code, so every code must be in
their catalogue in both languages.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bgclock.core import (
    REFUSALS,
    Accept,
    Break,
    Double,
    GameOver,
    Hit,
    IllegalCommand,
    Match,
    OpeningRoll,
    Premature,
    Reject,
    Resume,
    Ruling,
    Start,
)

ROOT = Path(__file__).resolve().parent.parent


def _refusal(match: Match, event: object) -> IllegalCommand:
    at = event.at_ms  # type: ignore[attr-defined]
    before = match.copy().state(at).to_dict()
    with pytest.raises(IllegalCommand) as info:
        match.apply(event)  # type: ignore[arg-type]
    assert match.state(at).to_dict() == before  # a refusal changes nothing
    assert info.value.code in REFUSALS
    return info.value


def _playing(rules: str = "usbgf-2013-delay", **kw: object) -> Match:
    m = Match.new(rules, **{"length": 7, **kw})  # type: ignore[arg-type]
    m.apply(OpeningRoll(at_ms=0, dice=(6, 1)))
    return m


def test_answering_nothing_offered_says_there_is_no_offer() -> None:
    for event in (Accept(at_ms=1, side="B"), Reject(at_ms=1, side="B")):
        err = _refusal(_playing(), event)
        assert err.code == "no_offer" and "there is no offer to answer" in str(err)


def test_a_ruling_without_a_dispute() -> None:
    err = _refusal(_playing(), Ruling(at_ms=1, decision="invalid"))
    assert err.code == "no_dispute" and "no dispute" in str(err)


def test_a_break_during_a_game_is_taken_between_games() -> None:
    err = _refusal(_playing(), Break(at_ms=1, side="A"))
    assert err.code == "break_between_games" and "breaks are taken between games" in str(err)


@pytest.mark.parametrize("rules", ["usbgf-2013-delay", "usbgf-2007-bronstein",
                                   "aba-2003-standard", "aba-2003-bronstein"])
def test_start_between_games_under_usbgf_and_aba_cites_1_1(rules: str) -> None:
    m = _playing(rules)
    m.apply(GameOver(at_ms=1_000, winner="A", result="single"))
    err = _refusal(m, Start(at_ms=2_000, side="A"))
    assert err.code == "start_at_game_start" and "(1.1)" in str(err)


def test_resume_during_a_biba_expiry_dispute_needs_the_director() -> None:
    m = _playing("biba-2014", length=5, score=(4, 0), clock={"reserve_ms": 0})
    assert m.state(12_000).phase == "dispute"
    err = _refusal(m, Resume(at_ms=13_000))
    assert err.code == "director_must_rule" and "gin or lost" in str(err)


def test_cube_refusals_have_their_codes() -> None:
    m = Match.new("usbgf-2013-delay", length=7, score=(6, 0), crawford=True)
    m.apply(OpeningRoll(at_ms=0, dice=(6, 1)))
    assert _refusal(m, Double(at_ms=1, side="A")).code == "crawford_no_double"
    it = _playing("it-tournament")
    it.apply(Premature(at_ms=1, side="B"))
    assert _refusal(it, Double(at_ms=2, side="B")).code == "double_not_turn"
    it.apply(Hit(at_ms=3, side="A"))
    assert _refusal(it, Double(at_ms=4, side="B")).code == "premature_no_cube"


def test_premature_outside_a_game_is_worded_like_every_no_game_refusal() -> None:
    m = Match.new("usbgf-2013-delay", length=7)
    err = _refusal(m, Premature(at_ms=1, side="A"))
    assert err.code == "no_game" and str(err) == "premature is not allowed: no game is in progress"


def test_every_code_raised_in_core_is_in_the_catalogue() -> None:
    source = "".join(p.read_text() for p in (ROOT / "bgclock" / "core").glob("*.py"))
    raised = set(re.findall(r'refuse\(\s*"(\w+)"', source))
    raised |= set(re.findall(r'code="(\w+)"', source))
    assert raised, "no refusal found: the scan is broken"
    assert raised <= set(REFUSALS), raised - set(REFUSALS)


def _page_catalogue() -> dict[str, dict[str, str]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    # the pages' dictionary is an ES module (kit/i18n.js): import it in node
    module = (ROOT / "bgclock/web/static/kit/i18n.js").as_uri()
    script = (f"const m = await import({json.dumps(module)});"
              "process.stdout.write(JSON.stringify(m.I18N.STRINGS))")
    out = subprocess.run([node, "--input-type=module", "-e", script],
                         capture_output=True, text=True, check=True, timeout=30).stdout
    strings: dict[str, dict[str, str]] = json.loads(out)
    return strings


def test_the_pages_catalogue_has_every_code_in_both_languages() -> None:
    strings = _page_catalogue()
    for lang in ("en", "it"):
        missing = [code for code in REFUSALS if f"ref.{code}" not in strings[lang]]
        assert not missing, f"{lang}: refusal codes without words: {missing}"
    for code, template in REFUSALS.items():
        fields = set(re.findall(r"\{(\w+)\}", template))
        assert set(re.findall(r"\{(\w+)\}", strings["en"][f"ref.{code}"])) == fields, code
        italian = strings["it"][f"ref.{code}"]
        assert set(re.findall(r"\{(\w+)\}", italian)) <= fields | {"when"}, code


def test_the_protocol_page_lists_every_refusal_code() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text()
    listed = set(re.findall(r"^\| `(\w+)` \|", text, flags=re.MULTILINE))
    missing = set(REFUSALS) - listed
    assert not missing, f"docs/protocol.md lacks refusal codes: {sorted(missing)}"
