"""Entries, money and points at the desk (issue 36): the director's routes
under ``/api/tournaments/{tournament_id}`` and their OpenAPI paths.

Four actions (``money``, ``payment``, ``refund``, ``reentry``; folded by
``bgclock.tournament._ledger``) and what is read from the state: the ledger
(JSON, and CSV for the club's books), the payouts worked out from the
entries, the prize-giving sheet (``?lang=it|en``) and the master points
(JSON, and CSV a federation reads)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from bgclock.server.context import server_of
from bgclock.server.edge.tourney_bodies import MoneyBody, PaymentBody, ReentryBody, RefundBody
from bgclock.server.render.prizegiving import ledger_csv, points_csv, prize_giving_html
from bgclock.server.routes.common import json_response, one_action, tournament_hub
from bgclock.server.routes.standings import _lang
from bgclock.tournament import final_standings
from bgclock.tournament._awards import event_payouts, event_points
from bgclock.tournament._ledger import ledger_view

#: The money's settings: fee, currency, return, money added, payout structure, points.
post_money = one_action(MoneyBody, "money")
#: A payment at the desk (cash, or a note).
post_payment = one_action(PaymentBody, "payment")
post_refund = one_action(RefundBody, "refund")
post_reentry = one_action(ReentryBody, "reentry")


def _csv(text: str, name: str) -> Response:
    return Response(text, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def get_ledger_json(request: Request) -> Response:
    """Every player's entries, what they owe and paid, the totals per event
    and per side pool, the unpaid, and the lines in order."""
    server = server_of(request)
    hub = await tournament_hub(server, request)
    st = hub.state
    view = ledger_view(st.ledger, st.players, st.draw_names(), list(st.side_pools.values()))
    return json_response({**view, "entries": [x.to_dict() for x in st.ledger.lines]})


async def get_ledger_csv(request: Request) -> Response:
    server = server_of(request)
    hub = await tournament_hub(server, request)
    stored = await server.store.actions(hub.id)
    return _csv(ledger_csv(hub.state, stored), f"ledger-{hub.id}.csv")


async def get_payouts(request: Request) -> Response:
    """The pool and each place's amount, who receives it, and the side pools."""
    server = server_of(request)
    hub = await tournament_hub(server, request)
    st = final_standings(hub.state)
    return json_response({**event_payouts(hub.state, st), "side_pools": st.side_pools})


async def get_prize_giving(request: Request) -> Response:
    server = server_of(request)
    lang = _lang(request)
    hub = await tournament_hub(server, request)
    row = await server.store.tournament(hub.id)
    return HTMLResponse(prize_giving_html(row.name, hub.state, lang, row.closed_ms is not None))


async def get_points_json(request: Request) -> Response:
    server = server_of(request)
    hub = await tournament_hub(server, request)
    row = await server.store.tournament(hub.id)
    return json_response({**event_points(hub.state), "closed": row.closed_ms is not None})


async def get_points_csv(request: Request) -> Response:
    server = server_of(request)
    hub = await tournament_hub(server, request)
    return _csv(points_csv(hub.state), f"master-points-{hub.id}.csv")


async def points_at_close(server: Any, tournament_id: int) -> dict[str, Any]:
    """What closing says of the master points (beside the rating run):
    ``{"on", "players", "rows"}`` (``on`` false: switched off)."""
    hub = await server.tourneys.get(tournament_id)
    pts = event_points(hub.state)
    return {"on": pts["on"], "players": pts["players"], "rows": len(pts["rows"])}


#: Director routes under ``/api/tournaments/{tournament_id:id}``.
routes = [
    Route("/money", post_money, methods=["POST"]),
    Route("/payments", post_payment, methods=["POST"]),
    Route("/refunds", post_refund, methods=["POST"]),
    Route("/reentries", post_reentry, methods=["POST"]),
    Route("/ledger.json", get_ledger_json, methods=["GET"]),
    Route("/ledger.csv", get_ledger_csv, methods=["GET"]),
    Route("/payouts.json", get_payouts, methods=["GET"]),
    Route("/prize-giving.html", get_prize_giving, methods=["GET"]),
    Route("/points.json", get_points_json, methods=["GET"]),
    Route("/points.csv", get_points_csv, methods=["GET"]),
]


def openapi_paths(ok: Any, errors: Any, op: Any, ref: Any) -> dict[str, Any]:
    """These routes in ``/openapi.json`` (``render.openapi``'s helpers passed in)."""
    tid = ["tournament_id"]
    base = "/api/tournaments/{tournament_id}"
    state = {"type": "object", "properties": {"done": {"type": "array"},
                                              "state": {"type": "object"}}}
    obj = {"type": "object"}

    def post(what: str, body: str) -> dict[str, Any]:
        return {"post": op(what, {"200": ok(state), **errors(404, 409, 422)}, params=tid,
                           body=ref(body))}

    def get(what: str, media: str | None = None, *codes: int) -> dict[str, Any]:
        answer = ok(obj) if media is None else ok({"type": "string"}, media=media)
        return {"get": op(what, {"200": answer, **errors(404, *codes)}, params=tid)}

    return {
        f"{base}/money": post("the money: currency, entry fee (cents), return (per cent), "
                              "money added, shares or places paid by field size, the "
                              "brackets' hierarchy, master points on or off", "MoneyBody"),
        f"{base}/payments": post("a payment at the desk (cash, or a note), never above "
                                 "what the player owes", "PaymentBody"),
        f"{base}/refunds": post("money given back to a player (never above what they paid)",
                                "RefundBody"),
        f"{base}/reentries": post("a player enters again (one more fee and entry)",
                                  "ReentryBody"),
        f"{base}/ledger.json": get("each player's entries, owed, paid and due; the totals "
                                   "per event and side pool; the unpaid"),
        f"{base}/ledger.csv": get("the payments and refunds for the club's books", "text/csv"),
        f"{base}/payouts.json": get("the prize pool worked out from the entries, each "
                                    "place's amount and who receives it"),
        f"{base}/prize-giving.html": get("the prize-giving sheet, printable on A4 "
                                         "(?lang=en|it)", "text/html", 422),
        f"{base}/points.json": get("the Main's USBGF master points per player"),
        f"{base}/points.csv": get("the master points as CSV for a federation", "text/csv"),
    }


__all__ = ["openapi_paths", "points_at_close", "routes"]
