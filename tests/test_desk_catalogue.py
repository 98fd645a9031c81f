"""Every stable code a tournament refusal can carry (the rules' and the
server's tournament routes') is in the tournament screen's catalogue, in
English and Italian (issue 19 §3): a code raised but not catalogued fails."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STRINGS = ROOT / "bgclock/web/static/tourney-strings.js"
RAISERS = [*sorted((ROOT / "bgclock/tournament").glob("*.py")),
           *sorted((ROOT / "bgclock/server/tournaments").glob("*.py")),
           *(ROOT / "bgclock/server/routes" / f
             for f in ("common.py", "tourney.py", "desk.py", "contests.py", "standings.py"))]
#: The fallbacks of refusals that name no code yet: the page shows the server's words.
GENERIC = {"illegal", "invalid"}


def _codes() -> dict[str, str]:
    """code -> where it is raised."""
    found: dict[str, str] = {}
    for path in RAISERS:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            if node.func.id in ("IllegalContest", "InvalidContest", "ApiError"):
                arg = node.args[1] if len(node.args) > 1 else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.setdefault(arg.value, f"{path.name}:{node.lineno}")
    return found


def _catalogue() -> dict[str, set[str]]:
    text = STRINGS.read_text()
    en, it = text.split("\n  it: {", 1)
    return {lang: set(re.findall(r'"err\.([a-z_]+)":', part)) for lang, part in
            (("en", en), ("it", it))}


def test_every_refusal_code_is_catalogued_in_english_and_italian() -> None:
    codes = _codes()
    assert {"already_drawn", "round_not_ready", "next_match_started", "consolation_drawn",
            "not_withdrawn", "no_result", "not_reversible", "closed"} <= set(codes)
    catalogue = _catalogue()
    for lang, keys in catalogue.items():
        missing = {c: w for c, w in codes.items() if c not in keys and c not in GENERIC}
        assert not missing, (lang, missing)
    assert catalogue["en"] == catalogue["it"]
