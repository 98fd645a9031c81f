"""The players' register's refusals have stable codes and params, and the
register screen says each in English and Italian from them (as the
tournament screen's catalogue, tests/test_desk_catalogue.py): every code
``bgclock/server/routes/register.py`` raises has a line in
``register/strings.js`` (``reg.err.CODE``, or ``reg.err.CODE.FIELD`` for the
field it names) whose placeholders the raise gives; the server keeps its
English ``message``."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from tests._server_kit import DIRECTOR, anyio_backend, live

__all__ = ["anyio_backend", "live"]
ROOT = Path(__file__).resolve().parent.parent
ROUTES = ROOT / "bgclock/server/routes/register.py"
STRINGS = ROOT / "bgclock/web/static/register/strings.js"
#: Codes the page says through the tournament screen's catalogue (a body the
#: page never sends, too large) or in the server's words (``invalid``: a
#: body or query off its schema, which the page's own fields keep from).
GENERIC = {"invalid", "bad_request", "too_large"}
CSV = {**DIRECTOR, "content-type": "text/csv"}


def _const(node: ast.AST | None) -> Any:
    return node.value if isinstance(node, ast.Constant) else None


def _raises() -> list[tuple[str, str, set[str], set[str]]]:
    """Each refusal raised: (where, code, its params' names, the fields it may name)."""
    out: list[tuple[str, str, set[str], set[str]]] = []
    for node in ast.walk(ast.parse(ROUTES.read_text(), str(ROUTES))):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        where = f"register.py:{node.lineno}"
        if node.func.id == "ApiError" and len(node.args) > 1:
            if isinstance(node.args[1], ast.Name):
                continue  # ``bad``'s own: its calls below
            if isinstance(node.args[1], ast.IfExp):  # one of two generic codes
                assert {_const(node.args[1].body), _const(node.args[1].orelse)} <= GENERIC, where
                continue
            code = _const(node.args[1])
            assert isinstance(code, str), where
            params = node.args[3] if len(node.args) > 3 else None
            if params is not None and not isinstance(params, ast.Dict):
                raise AssertionError(f"{where}: params built elsewhere")
            keys = {_const(k) for k in (params.keys if params else [])}
            field = {_const(v) for k, v in zip(params.keys, params.values, strict=True)
                     if _const(k) == "field"} if params else set()
            out.append((where, code, {k for k in keys if isinstance(k, str)},
                        {f for f in field if isinstance(f, str)}))
        elif node.func.id == "bad":  # a CSV row's refusal: row and field among its params
            code = _const(node.args[1])
            assert isinstance(code, str), where
            first = node.args[0]
            fields = {_const(first)} if isinstance(first, ast.Constant) else {
                _const(first.body), _const(first.orelse)} if isinstance(first, ast.IfExp) else set()
            keys = {"row", "field"} | {k.arg for k in node.keywords if k.arg}
            out.append((where, code, keys, {f for f in fields if isinstance(f, str)}))
    return out


def _catalogue() -> dict[str, dict[str, set[str]]]:
    """lang -> key (after ``reg.err.``) -> its placeholders."""
    en, it = STRINGS.read_text().split("\n  it: {", 1)
    out: dict[str, dict[str, set[str]]] = {}
    for lang, part in (("en", en), ("it", it)):
        out[lang] = {key: set(re.findall(r"\{([a-z_]+)\}", text)) for key, text in
                     re.findall(r'"reg\.err\.([a-z_.]+)": "((?:[^"\\]|\\.)*)"', part)}
    return out


def test_every_register_refusal_has_its_line_in_english_and_italian() -> None:
    raises = _raises()
    codes = {code for _, code, _, _ in raises}
    assert {"taken", "full", "rated", "blank", "csv_rating", "csv_unknown_column",
            "csv_same_person", "csv_same_entry"} <= codes
    catalogue = _catalogue()
    assert catalogue["en"].keys() == catalogue["it"].keys()
    for lang, lines in catalogue.items():
        for where, code, keys, fields in raises:
            if code in GENERIC:
                continue
            for field in fields or {""}:
                # the page's choice: the field's line, else the code's, each
                # only when the refusal gives every name the line holds
                keys_tried = [f"{code}.{field}", code] if field else [code]
                usable = [k for k in keys_tried if k in lines and lines[k] <= keys]
                assert usable, (lang, where, code, field, keys)


@pytest.mark.anyio
async def test_the_register_s_refusals_carry_their_codes_and_params(live: Any) -> None:
    r = await live.http.post("/api/register.csv", content=b"name,rating\nEva,mille\n",
                             headers=CSV)
    assert r.status_code == 422 and r.json() == {
        "error": "csv_rating", "message": "row 2: rating: must be a rating such as 1500 or 1522.36",
        "params": {"row": 2, "field": "rating", "min": "-10000.00", "max": "10000.00"}}
    r = await live.http.post("/api/register.csv", content=b"name\nAnn\nann\n", headers=CSV)
    assert r.json()["error"] == "csv_same_person"
    assert r.json()["params"] == {"row": 3, "field": "name", "other_row": 2}
    ugo = (await live.http.post("/api/register", json={"name": "Ugo Tognazzi"},
                                headers=DIRECTOR)).json()
    r = await live.http.post("/api/register", json={"name": "UGO  tognazzi"}, headers=DIRECTOR)
    assert r.status_code == 409 and r.json()["error"] == "taken"
    assert r.json()["message"].startswith("body.name: UGO tognazzi is already in the register")
    assert r.json()["params"] == {"field": "name", "name": "UGO tognazzi",
                                  "other": "Ugo Tognazzi", "id": ugo["id"]}
    r = await live.http.post("/api/register", json={"name": "  "}, headers=DIRECTOR)
    assert r.json() == {"error": "blank", "message": "body.name: must not be blank",
                        "params": {"field": "name"}}
