"""Every stable code a tournament refusal can carry (the rules' and the
server's tournament routes') is in the tournament screen's catalogue, in
English and Italian (issue 19 §3): a code raised but not catalogued fails."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STRINGS = ROOT / "bgclock/web/static/tourney/strings.js"
RAISERS = [*sorted((ROOT / "bgclock/tournament").glob("*.py")),
           *sorted((ROOT / "bgclock/server/tournaments").glob("*.py")),
           *(ROOT / "bgclock/server/routes" / f
             for f in ("common.py", "tourney.py", "desk.py", "contests.py", "standings.py",
                       "flights.py"))]
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
    out: dict[str, set[str]] = {"en": set(), "it": set()}
    en, it = STRINGS.read_text().split("\n  it: {", 1)
    for lang, part in (("en", en), ("it", it)):
        out[lang] |= set(re.findall(r'"err\.([a-z_]+)":', part))
    return out


def test_every_refusal_code_is_catalogued_in_english_and_italian() -> None:
    codes = _codes()
    assert {"already_drawn", "round_not_ready", "next_match_started", "consolation_drawn",
            "not_withdrawn", "no_result", "not_reversible", "closed"} <= set(codes)
    catalogue = _catalogue()
    for lang, keys in catalogue.items():
        missing = {c: w for c, w in codes.items() if c not in keys and c not in GENERIC}
        assert not missing, (lang, missing)
    assert catalogue["en"] == catalogue["it"]


def _raised_params() -> dict[str, list[tuple[str, set[str]]]]:
    """code -> (where, the params' keys) of each tournament refusal raised
    with a literal params dict (or none)."""
    found: dict[str, list[tuple[str, set[str]]]] = {}
    for path in RAISERS:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("IllegalContest", "InvalidContest")
                    and len(node.args) > 1 and isinstance(node.args[1], ast.Constant)):
                continue
            params = node.args[2] if len(node.args) > 2 else None
            if params is not None and not isinstance(params, ast.Dict):
                continue  # built elsewhere: not checked here
            keys = {k.value for k in (params.keys if params else [])
                    if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            found.setdefault(str(node.args[1].value), []).append(
                (f"{path.name}:{node.lineno}", keys))
    return found


def _placeholders() -> dict[str, dict[str, set[str]]]:
    """lang -> code -> the ``{name}`` placeholders of its catalogue line."""
    out: dict[str, dict[str, set[str]]] = {"en": {}, "it": {}}
    en, it = STRINGS.read_text().split("\n  it: {", 1)
    for lang, part in (("en", en), ("it", it)):
        for code, text in re.findall(r'"err\.([a-z_]+)": "((?:[^"\\]|\\.)*)"', part):
            out[lang][code] = set(re.findall(r"\{([a-z_]+)\}", text))
    return out


def test_every_placeholder_of_a_refusal_is_given_by_each_raise() -> None:
    """A catalogue line naming ``{player}`` is only used by refusals that
    give ``player`` (else an Italian page would show "{player}"); the
    Swing's, couples', committee's and late desk's refusals included."""
    raised = _raised_params()
    assert {"no_swing", "phase_order", "encounter_decided", "no_committee",
            "already_arrived", "swing_over", "on_committee"} <= set(raised)
    for lang, lines in _placeholders().items():
        for code, wanted in lines.items():
            for where, keys in raised.get(code, []):
                assert wanted <= keys, (lang, code, where, wanted - keys)


def test_a_cluster_s_refusals_have_their_lines_in_english_and_italian() -> None:
    """``not_owner`` and ``no_answer`` (``cluster.node``: a request whose
    keeping process is away) in both languages, ``no_answer`` by whether the
    request was done (``params.done``: yes, no, unknown)."""
    catalogue = _catalogue()
    for lang in ("en", "it"):
        assert "not_owner" in catalogue[lang]
    text = STRINGS.read_text()
    for lang_part in text.split("\n  it: {", 1):
        for done in ("yes", "no", "unknown"):
            assert f'"err.no_answer.{done}":' in lang_part
