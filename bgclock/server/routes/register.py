"""The players' register on the server (issue 23 §4): routes and rating a
closed tournament.

Theory of operation
-------------------
The register is kept by the store (``RegisterStore``): one entry per person
across the server's tournaments, with a rating in hundredths of a point and
the history of the matches it was rated on.  The director searches it, adds
and edits entries, imports and exports it as CSV and prints the rating list.

One register per club (issue 37 §4): on a hosted server of many clubs each
club's director keeps the club's own register, and the server's director the
server's own (``owner`` in the store: the principal's ``club``, None for the
server's director).  Every route here reads and changes the register of the
request's principal only; an entry of another register answers as an id
never given.  A tournament's register is its club's (``Server.owner``): its
register search, the ``register_id`` of an entry, a players' CSV linked to
entries, the seeding and the rating at its close all use that one, whoever
directs it.

Identity: an entry is matched by its federation id first, else by the
*register key* of its name (``bgclock.tournament.register_key``: NFKC, case
folded, single spaces), so "Mario  ROSSI" is not added beside "Mario Rossi".
Two people of one name are told apart by federation ids.

A tournament's player is linked to an entry by ``register_id`` on the
registration body (stored in the ``register`` action).  Closing the
tournament (``POST /api/tournaments/{id}/close``) rates it: the pure
``rated_matches`` picks the matches played out between two linked players,
in the order their results came in, ``rate_all`` works out the FIBS changes
from the entries' ratings, and the store records them with the tournament in
one transaction, once (closing again rates nothing), in the tournament's
club's register.
"""

from __future__ import annotations

import asyncio
import csv
import html
import io
import logging
import unicodedata
import weakref
import zlib
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

import msgspec
import orjson
from msgspec import UNSET, Meta, Struct, UnsetType
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from bgclock.server.context import Server, server_of
from bgclock.server.edge.limits import LimitError, check_name, read_bounded
from bgclock.server.edge.schema import PRINTABLE, BodyError, decode_body
from bgclock.server.errors import ApiError, BodyTooLarge
from bgclock.server.routes.common import raw_body
from bgclock.store import MAX_REGISTER, NotFound, RegisterEntry, RegisterLine, StoreError
from bgclock.tournament import InvalidContest, Rated, rate_all, rated_matches, register_key
from bgclock.tournament._rating import (
    MAX_EXPERIENCE,
    MAX_RATING,
    MIN_RATING,
    START_RATING,
    parse_points,
    points,
)
from bgclock.tournament._running import MAX_FEDERATION_ID, MAX_PLAYER_NAME

log = logging.getLogger("bgclock.server")

#: A register CSV: at most this many bytes and rows (as the players' CSV).
MAX_CSV_BYTES = 256 * 1024
MAX_CSV_ROWS = 2048
#: A club's name.
MAX_CLUB = 100
#: A search's text and a page of results.
MAX_QUERY = 100
MAX_PAGE = 200
#: The register holds at most this many entries.
MAX_ENTRIES = MAX_REGISTER
#: The columns of the register's CSV (export and import).
CSV_COLUMNS = ("id", "name", "federation_id", "club", "rating", "experience")
#: The rows an import's preview shows (the counts cover them all).
PREVIEW_ROWS = 20

_OPTS: dict[str, Any] = {"frozen": True, "forbid_unknown_fields": True, "kw_only": True}
Name = Annotated[str, Meta(min_length=1, max_length=MAX_PLAYER_NAME, pattern=PRINTABLE)]
FederationId = Annotated[str, Meta(min_length=1, max_length=MAX_FEDERATION_ID,
                                   pattern=PRINTABLE)]
Club = Annotated[str, Meta(min_length=1, max_length=MAX_CLUB, pattern=PRINTABLE)]
Rating = Annotated[int, Meta(ge=MIN_RATING, le=MAX_RATING,
                             description="hundredths of a point (1500.00 is 150000)")]
Experience = Annotated[int, Meta(ge=0, le=MAX_EXPERIENCE)]


class RegisterBody(Struct, **_OPTS):
    """``POST /api/register``: a new entry (rating and experience: a
    newcomer's 1500.00 and 0 unless given)."""

    name: Name
    federation_id: FederationId | None | UnsetType = UNSET
    club: Club | None | UnsetType = UNSET
    rating: Rating | UnsetType = UNSET
    experience: Experience | UnsetType = UNSET


class RegisterPatch(Struct, **_OPTS):
    """``PATCH /api/register/{id}``: what changes (rating and experience only
    while the entry has no rated match)."""

    name: Name | UnsetType = UNSET
    federation_id: FederationId | None | UnsetType = UNSET
    club: Club | None | UnsetType = UNSET
    rating: Rating | UnsetType = UNSET
    experience: Experience | UnsetType = UNSET


REGISTER_REQUESTS = (RegisterBody, RegisterPatch)


def _clean(text: str | None) -> str | None:
    """Outer white space off; empty is none."""
    if text is None:
        return None
    text = " ".join(text.split())
    return text or None


async def _body(request: Request, into: type[Any]) -> dict[str, Any]:
    try:
        raw = await raw_body(request)
    except BodyTooLarge as exc:
        raise ApiError(413, "too_large", str(exc)) from None
    except ValueError as exc:
        raise ApiError(400, "bad_request", str(exc)) from None
    try:
        body = decode_body(raw, into)
    except BodyError as exc:
        raise ApiError(exc.status, "invalid" if exc.status == 422 else "bad_request",
                      str(exc)) from None
    out: dict[str, Any] = msgspec.to_builtins(body)
    for key in ("name", "federation_id", "club"):
        if key in out:
            out[key] = _clean(out[key])
            if key == "name" and out[key] is None:
                raise ApiError(422, "blank", "body.name: must not be blank", {"field": "name"})
    return out


def owner_of(server: Server, request: Request) -> str | None:
    """The register a request of the register's routes reads and changes:
    its principal's club's, or (None) the server's own for the server's
    director (docs/hosting.md, "Many clubs on one hosted bgclock")."""
    return server.principal(request).club


async def _check_identity(server: Server, owner: str | None, name: str, fed: str | None, *,
                          other_than: int = 0, where: str = "body.") -> None:
    """Refuse (409, naming the field) a second entry for one person in the
    register of ``owner``: the same federation id, or (neither having one)
    the same register key."""
    if fed is not None:
        for e in await server.store.register_find(owner=owner, federation_id=fed):
            if e.id != other_than:
                raise ApiError(409, "taken", f"{where}federation_id: {fed} is already in the "
                              f"register ({e.name}, #{e.id})",
                              {"field": "federation_id", "federation_id": fed,
                               "other": e.name, "id": e.id})
        return
    for e in await server.store.register_find(owner=owner, name_key=register_key(name)):
        if e.id != other_than and e.federation_id is None:
            raise ApiError(409, "taken", f"{where}name: {name} is already in the register as "
                          f"{e.name} (#{e.id}); give a federation id to tell two people apart",
                          {"field": "name", "name": name, "other": e.name, "id": e.id})


def _int_param(request: Request, name: str, default: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9 or int(raw) > high:
        raise ApiError(422, "invalid", f"query.{name}: must be a whole number 0..{high}")
    return int(raw)


def _query(request: Request) -> str:
    q = request.query_params.get("q", "")
    try:
        check_name("query.q", q, limit=MAX_QUERY)
    except LimitError as exc:
        raise ApiError(422, "invalid", str(exc)) from None
    return q


async def _search(server: Server, request: Request, owner: str | None) -> dict[str, Any]:
    q = _query(request)
    limit = _int_param(request, "limit", 50, MAX_PAGE)
    offset = _int_param(request, "offset", 0, MAX_REGISTER)
    order = request.query_params.get("order", "name")
    if order not in ("name", "rating"):
        raise ApiError(422, "invalid", "query.order: must be name or rating")
    # a name by a part of its key; a federation id whole, in any case
    key = register_key(q)
    entries, total = await server.store.register_search(
        key, owner=owner, limit=limit, offset=offset, order=order)
    return {"entries": [_view(e) for e in entries], "total": total, "limit": limit,
            "offset": offset, "q": q}


def _view(e: RegisterEntry) -> dict[str, Any]:
    return {**e.to_dict(), "rating_points": points(e.rating)}


# ------------------------------------------------------------------ routes

async def get_register(request: Request) -> Response:
    """The register searched (``q``: a name's part or a federation id), paged."""
    server = server_of(request)
    return JSONResponse(await _search(server, request, owner_of(server, request)))


async def post_register(request: Request) -> Response:
    """A new entry."""
    server = server_of(request)
    owner = owner_of(server, request)
    data = await _body(request, RegisterBody)
    await _check_identity(server, owner, data["name"], data.get("federation_id"))
    await _check_room(server, owner, 1, "body")
    now = server.clock.now_ms()
    try:
        entry = await server.store.register_add(RegisterEntry(
            name=data["name"], name_key=register_key(data["name"]),
            federation_id=data.get("federation_id"), club=data.get("club"),
            rating=data.get("rating", START_RATING), experience=data.get("experience", 0),
            created_ms=now, updated_ms=now), owner=owner)
    except StoreError as exc:
        raise ApiError(409, "taken", f"body.federation_id: {exc}") from None
    return JSONResponse(_view(entry), status_code=201)


async def _check_room(server: Server, owner: str | None, more: int, where: str) -> None:
    """Refuse (409) what would take the register of ``owner`` past ``MAX_ENTRIES``."""
    _, total = await server.store.register_search("", owner=owner, limit=0)
    if total + more > MAX_ENTRIES:
        raise ApiError(409, "full", f"{where}: the register holds at most {MAX_ENTRIES} "
                      f"players ({total} now)", {"max": MAX_ENTRIES, "total": total})


async def get_entry(request: Request) -> Response:
    """An entry and its rated matches."""
    server = server_of(request)
    owner = owner_of(server, request)
    entry = await server.store.register_entry(request.path_params["entry_id"], owner=owner)
    history = await server.store.register_history(entry.id, owner=owner)
    return JSONResponse({**_view(entry), "history": [
        {**h.to_dict(), "before_points": points(h.rating_before),
         "after_points": points(h.rating_after)} for h in history]})


async def patch_entry(request: Request) -> Response:
    """Edit an entry's name, federation id, club (and, before its first rated
    match, its rating and experience)."""
    server = server_of(request)
    owner = owner_of(server, request)
    entry = await server.store.register_entry(request.path_params["entry_id"], owner=owner)
    data = await _body(request, RegisterPatch)
    if ("rating" in data or "experience" in data) and \
            await server.store.register_history(entry.id, owner=owner):
        field = "rating" if "rating" in data else "experience"
        raise ApiError(409, "rated", f"body.{field}: this player has rated matches: "
                      "the rating follows from them", {"field": field, "name": entry.name})
    name = data.get("name", entry.name)
    fed = data.get("federation_id", entry.federation_id)
    await _check_identity(server, owner, name, fed, other_than=entry.id)
    new = RegisterEntry(
        id=entry.id, name=name, name_key=register_key(name), federation_id=fed,
        club=data.get("club", entry.club),
        rating=data.get("rating", entry.rating),
        experience=data.get("experience", entry.experience),
        created_ms=entry.created_ms, updated_ms=server.clock.now_ms())
    try:
        saved = await server.store.register_update(new, owner=owner)
    except StoreError as exc:
        raise ApiError(409, "taken", f"body.federation_id: {exc}") from None
    return JSONResponse(_view(saved))


async def _all(server: Server, owner: str | None, order: str = "rating") -> list[RegisterEntry]:
    """The whole register of ``owner``, read off the clocks' way (``register_list``)."""
    return await server.store.register_list(order, owner=owner)


#: Rows rendered per step of a streamed list (each step off the event loop).
CHUNK = 500
#: Whole-register lists built at once per server; more wait their turn
#: (each is a read and some tens of milliseconds of rendering on a thread:
#: ten at once would crowd the clocks' loop out of the interpreter).
LISTS_AT_ONCE = 2
_LISTS: weakref.WeakKeyDictionary[Any, asyncio.Semaphore] = weakref.WeakKeyDictionary()


def _lists(server: Server) -> asyncio.Semaphore:
    sem = _LISTS.get(server)
    if sem is None:
        sem = _LISTS[server] = asyncio.Semaphore(LISTS_AT_ONCE)
    return sem


#: The lists last built, by server, then by register (its owner), kind and
#: gzip or not: (the register's stamp, the chunks as sent).  At most
#: ``KEPT_LISTS`` per server (many clubs' registers: the oldest built goes).
_BUILT: weakref.WeakKeyDictionary[
    Any, dict[tuple[str | None, str, bool], tuple[tuple[int, ...], list[bytes]]]] = \
    weakref.WeakKeyDictionary()
KEPT_LISTS = 24


def _accepts_gzip(request: Request) -> bool:
    return "gzip" in request.headers.get("accept-encoding", "").lower()


def _streamed(request: Request, kind: str, order: str, head: Callable[[bool], bytes],
              rows: Callable[[list[RegisterEntry], int], bytes], tail: Callable[[bool], bytes],
              media_type: str, headers: dict[str, str] | None = None) -> Response:
    """A whole-register list (issue 32 §7): the register read in one snapshot
    off the writer's way, rendered (and gzipped, for a client that takes it:
    the server's gzip would squeeze 2 MB on the event loop) ``CHUNK`` rows at
    a time on a worker thread and streamed, so no part of it holds the
    clocks' event loop.  ``head(empty)`` and ``tail(empty)`` frame the
    rows; ``rows(chunk, first)`` renders the chunk whose first row is the
    list's ``first`` (0-based).  The list of ``kind`` is kept while the
    register's stamp holds: the desk reading it again costs one aggregate
    read.  The register is the principal's (``owner_of``): each its own
    lists, kept apart."""
    server = server_of(request)
    owner = owner_of(server, request)
    gz = _accepts_gzip(request)
    headers = {**(headers or {}), "vary": "Accept-Encoding"}
    if gz:
        headers["content-encoding"] = "gzip"

    async def body() -> AsyncIterator[bytes]:
        async with _lists(server):
            stamp = await server.store.register_stamp(owner=owner)
            built = _BUILT.setdefault(server, {})
            kept = built.get((owner, kind, gz))
            if kept is not None and kept[0] == stamp:
                for chunk in kept[1]:
                    yield chunk
                return
            # read after the stamp: a write between them makes the next stamp
            # differ, so what is kept is never older than its stamp says
            entries = await _all(server, owner, order)
            squeeze = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS) if gz else None

            def packed(text: bytes, last: bool = False) -> bytes:
                if squeeze is None:
                    return text
                return squeeze.compress(text) + (squeeze.flush() if last else b"")

            def part(first: int) -> bytes:
                return packed(rows(entries[first:first + CHUNK], first))

            chunks = [packed(head(not entries))]
            yield chunks[0]
            for first in range(0, len(entries), CHUNK):
                chunks.append(await asyncio.to_thread(part, first))
                yield chunks[-1]
            chunks.append(await asyncio.to_thread(packed, tail(not entries), True))
            yield chunks[-1]
            built.pop((owner, kind, gz), None)
            while len(built) >= KEPT_LISTS:
                built.pop(next(iter(built)))
            built[(owner, kind, gz)] = (stamp, chunks)

    return StreamingResponse(body(), media_type=media_type, headers=headers)


def _cell(value: Any) -> Any:
    """A cell a spreadsheet would run as a formula is written as text (a
    leading apostrophe); numbers stay numbers."""
    if isinstance(value, str) and value and value[0] in "=+-@\t\r":
        try:
            float(value)
        except ValueError:
            return "'" + value
    return value


def _csv_lines(rows: list[list[Any]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([_cell(c) for c in row])
    return out.getvalue().encode("utf-8")


def _csv(request: Request, kind: str, order: str, header: list[str],
         row: Callable[[RegisterEntry, int], list[Any]], filename: str) -> Response:
    """A whole-register CSV (UTF-8 with a BOM, for spreadsheets), streamed;
    ``row(entry, rank)``."""
    return _streamed(
        request, kind, order, lambda _: "\ufeff".encode() + _csv_lines([header]),
        lambda chunk, first: _csv_lines([row(e, k) for k, e in
                                         enumerate(chunk, start=first + 1)]),
        lambda _: b"", "text/csv; charset=utf-8",
        {"content-disposition": f'attachment; filename="{filename}"'})


async def get_register_csv(request: Request) -> Response:
    """The whole register as CSV (``CSV_COLUMNS``; ratings in points)."""
    return _csv(request, "register.csv", "id", list(CSV_COLUMNS),
                lambda e, _: [e.id, e.name, e.federation_id or "", e.club or "",
                              points(e.rating), e.experience], "register.csv")


#: A spreadsheet's column names, Italian or English, as the import's columns
#: (``_column``: lower case, accents, spaces, dots and underscores taken out).
#: "cognome" (surname) joins "nome" into the name: "Nome Cognome".
COLUMN_ALIASES: dict[str, str] = {
    "id": "id", "name": "name", "nome": "name", "player": "name", "giocatore": "name",
    "nominativo": "name", "cognome": "surname", "surname": "surname", "lastname": "surname",
    "firstname": "name", "federationid": "federation_id", "tessera": "federation_id",
    "ntessera": "federation_id", "numerotessera": "federation_id", "fibt": "federation_id",
    "club": "club", "circolo": "club", "societa": "club", "rating": "rating",
    "punteggio": "rating", "punti": "rating", "experience": "experience",
    "esperienza": "experience",
}


def _column(cell: str) -> str:
    """A header cell as the import's column (unknown: as written, lower case)."""
    bare = unicodedata.normalize("NFD", cell.strip().lower())
    bare = "".join(c for c in bare if c.isalnum() and not unicodedata.combining(c))
    return COLUMN_ALIASES.get(bare, cell.strip().lower())


def _decode(raw: bytes) -> tuple[str, str]:
    """A spreadsheet export's text and its encoding: UTF-8 (with or without
    a byte-order mark), else Windows-1252 (Excel's "CSV" on an Italian PC)."""
    try:
        return raw.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        raise ApiError(422, "invalid", "body: must be UTF-8 or Windows-1252 text") from None


def _dialect(text: str) -> type[csv.Dialect] | csv.Dialect:
    """The export's separator (semicolon, comma or tab), found by the
    standard library's sniffer on the first lines; a comma when it cannot tell."""
    try:
        return csv.Sniffer().sniff("\n".join(text.splitlines()[:20]), delimiters=";,\t")
    except csv.Error:
        return csv.excel


def _rating_text(text: str) -> str:
    """A rating as an Italian spreadsheet may write it ("1.522,36"): the
    thousands' dots out, the decimal comma kept (``parse_points`` reads it)."""
    t = text.strip()
    return t.replace(".", "") if "," in t and "." in t else t


def _import_rows(text: str) -> tuple[list[dict[str, Any]], int]:
    """The CSV's rows as fields by column (a header naming them is required;
    its names Italian or English, ``COLUMN_ALIASES``; the separator sniffed)."""
    rows = [r for r in csv.reader(io.StringIO(text), _dialect(text))
            if any(c.strip() for c in r)]
    if not rows:
        raise ApiError(422, "csv_empty", "body: no rows in the CSV")
    header = [_column(c) for c in rows[0]]
    if "surname" in header and "name" in header:
        s, n = header.index("surname"), header.index("name")
        joined = [[*r, " ".join(x for x in (r[n].strip() if n < len(r) else "",
                                           r[s].strip() if s < len(r) else "") if x)]
                  for r in rows[1:]]
        header = [("" if h in ("name", "surname") else h) for h in header] + ["name"]
        keep = [i for i, h in enumerate(header) if h]
        rows = [[header[i] for i in keep]] + [[r[i] if i < len(r) else "" for i in keep]
                                              for r in joined]
        header = [header[i] for i in keep]
    elif "surname" in header:
        header[header.index("surname")] = "name"
    unknown = [c for c in header if c not in CSV_COLUMNS]
    if unknown:
        raise ApiError(422, "csv_unknown_column", f"row 1: {unknown[0] or '(empty)'}: unknown "
                      f"column (columns: {', '.join(CSV_COLUMNS)})",
                      {"row": 1, "column": unknown[0], "columns": ", ".join(CSV_COLUMNS)})
    if "name" not in header:
        raise ApiError(422, "csv_no_name_column",
                      "row 1: name: the header must name a name column", {"row": 1})
    if len(set(header)) != len(header):
        twice = next(c for c in header if header.count(c) > 1)
        raise ApiError(422, "csv_column_twice", "row 1: a column is named twice",
                      {"row": 1, "column": twice})
    if len(rows) - 1 > MAX_CSV_ROWS:
        raise ApiError(422, "csv_too_many_rows", f"body: at most {MAX_CSV_ROWS} rows",
                      {"max": MAX_CSV_ROWS})
    out = []
    for k, row in enumerate(rows[1:], start=2):
        if len(row) > len(header):
            raise ApiError(422, "csv_too_many_cells", f"row {k}: more cells than columns",
                          {"row": k})
        fields = {h: (row[i].strip() if i < len(row) else "") for i, h in enumerate(header)}
        if fields.get("rating"):
            fields["rating"] = _rating_text(fields["rating"])
        out.append({"row": k, **fields})
    return out, len(rows) - 1


class _Known:
    """The register as it is, indexed for an import (one read, not one per row)."""

    def __init__(self, entries: list[RegisterEntry]) -> None:
        self.by_id = {e.id: e for e in entries}
        self.by_fed = {e.federation_id: e for e in entries if e.federation_id is not None}
        self.by_key: dict[str, list[RegisterEntry]] = {}
        for e in sorted(entries, key=lambda x: x.id):
            self.by_key.setdefault(e.name_key, []).append(e)


def _import_entry(known: _Known, r: dict[str, Any], now: int,
                  taken: dict[str, int]) -> RegisterEntry:
    """One CSV row as the entry it adds or updates; ``ApiError`` naming row and field."""
    where = f"row {r['row']}: "

    def bad(field: str, code: str, words: str, **params: str | int) -> ApiError:
        """The row's refusal: its words naming row and field; its code, and
        the row and the field among its params (the page's catalogue)."""
        return ApiError(422, code, f"{where}{field}: {words}",
                        {"row": r["row"], "field": field, **params})

    name = _clean(r.get("name"))
    if name is None:
        raise bad("name", "csv_blank", "must not be empty")
    fed = _clean(r.get("federation_id"))
    club = _clean(r.get("club"))
    for field, value, limit in (("name", name, MAX_PLAYER_NAME),
                                ("federation_id", fed, MAX_FEDERATION_ID),
                                ("club", club, MAX_CLUB)):
        if value is None:
            continue
        if len(value) > limit:
            raise bad(field, "csv_too_long", f"must have at most {limit} characters", max=limit)
        try:
            check_name(field, value, limit=limit)
        except LimitError as exc:
            raise ApiError(422, "csv_bad_text", f"{where}{exc}",
                           {"row": r["row"], "field": field}) from None
    rating: int | None = None
    if r.get("rating"):
        try:
            rating = parse_points(r["rating"], "rating")
        except InvalidContest as exc:
            raise ApiError(422, "csv_rating", f"{where}{exc}",
                           {"row": r["row"], "field": "rating", "min": points(MIN_RATING),
                            "max": points(MAX_RATING)}) from None
    experience: int | None = None
    if r.get("experience"):
        raw = r["experience"]
        if not raw.isascii() or not raw.isdigit() or len(raw) > 8 or int(raw) > MAX_EXPERIENCE:
            raise bad("experience", "csv_experience",
                      f"must be a whole number 0..{MAX_EXPERIENCE}", max=MAX_EXPERIENCE)
        experience = int(raw)
    key = register_key(name)
    ident = f"id:{fed}" if fed is not None else f"name:{key}"
    if ident in taken:
        raise bad("federation_id" if fed is not None else "name", "csv_same_person",
                  f"the same person as row {taken[ident]}", other_row=taken[ident])
    taken[ident] = r["row"]
    # the entry it is: by federation id first, else the same name (without an id)
    found = [known.by_fed[fed]] if fed is not None and fed in known.by_fed else []
    if not found:
        found = [e for e in known.by_key.get(key, [])
                 if e.federation_id is None or e.federation_id == fed]
    if r.get("id"):
        raw = r["id"]
        if not raw.isascii() or not raw.isdigit() or len(raw) > 12:
            raise bad("id", "csv_bad_id", "must be a register entry's number")
        if found and found[0].id != int(raw):
            raise bad("id", "csv_id_mismatch",
                      f"{raw} is not the entry of this player (#{found[0].id})",
                      id=raw, entry=found[0].id)
        if not found:
            if int(raw) not in known.by_id:
                raise bad("id", "csv_no_entry", f"no register entry {raw}", id=raw)
            found = [known.by_id[int(raw)]]
            if found[0].federation_id is not None and found[0].federation_id != fed:
                raise bad("federation_id", "csv_id_federation", f"entry {raw} has federation id "
                          f"{found[0].federation_id}", id=raw,
                          federation_id=found[0].federation_id)
    if found:
        old = found[0]
        return RegisterEntry(id=old.id, name=name, name_key=key, federation_id=fed,
                             club=club, rating=old.rating if rating is None else rating,
                             experience=old.experience if experience is None else experience,
                             created_ms=old.created_ms, updated_ms=now)
    return RegisterEntry(name=name, name_key=key, federation_id=fed, club=club,
                         rating=START_RATING if rating is None else rating,
                         experience=0 if experience is None else experience,
                         created_ms=now, updated_ms=now)


async def post_register_csv(request: Request) -> Response:
    """Import a CSV (``CSV_COLUMNS``, a header first; ``name`` required): each
    row updates the entry it matches (federation id, else name) or adds one.
    All rows or none; an error names the row and the field."""
    server = server_of(request)
    owner = owner_of(server, request)
    try:
        raw = await read_bounded(request, MAX_CSV_BYTES)
    except BodyTooLarge as exc:
        raise ApiError(413, "too_large", str(exc)) from None
    text, encoding = _decode(raw)
    preview = request.query_params.get("preview") in ("true", "1")
    now = server.clock.now_ms()
    rows, _ = _import_rows(text)
    async with _lock(server):
        known = _Known(await _all(server, owner, "id"))
        taken: dict[str, int] = {}
        entries = [_import_entry(known, r, now, taken) for r in rows]
        ids = [e.id for e in entries if e.id]
        if len(ids) != len(set(ids)):
            twice = next(i for i in ids if ids.count(i) > 1)
            rows_of = [r["row"] for r, e in zip(rows, entries, strict=True) if e.id == twice]
            raise ApiError(422, "csv_same_entry", f"row {rows_of[1]}: name: the same register "
                          f"entry (#{twice}) as row {rows_of[0]}",
                          {"row": rows_of[1], "field": "name", "entry": twice,
                           "other_row": rows_of[0]})
        added = sum(1 for e in entries if not e.id)
        if len(known.by_id) + added > MAX_ENTRIES:
            raise ApiError(409, "full", f"body: the register holds at most {MAX_ENTRIES} "
                          f"players ({len(known.by_id)} now)",
                          {"max": MAX_ENTRIES, "total": len(known.by_id)})
        if preview:  # what the import will do, nothing saved
            return JSONResponse({
                "preview": True, "encoding": encoding,
                "separator": _dialect(text).delimiter,
                "added": added, "updated": len(entries) - added,
                "rows": [{"row": r["row"], "name": e.name, "federation_id": e.federation_id,
                          "club": e.club, "rating": points(e.rating), "entry": e.id or None}
                         for r, e in list(zip(rows, entries, strict=True))[:PREVIEW_ROWS]]})
        try:
            saved = await server.store.register_save(entries, owner=owner)
        except StoreError as exc:
            raise ApiError(409, "taken", f"body: {exc}") from None
    return JSONResponse({"imported": len(saved),
                         "added": sum(1 for e in entries if not e.id),
                         "updated": sum(1 for e in entries if e.id)}, status_code=201)


async def get_ratings_json(request: Request) -> Response:
    """The rating list: every entry, highest rating first (streamed)."""

    def rows(chunk: list[RegisterEntry], first: int) -> bytes:
        text = orjson.dumps([{"rank": k, **_view(e)}
                             for k, e in enumerate(chunk, start=first + 1)])[1:-1]
        return text if first == 0 else b"," + text

    return _streamed(request, "ratings.json", "rating",
                     lambda _: b'{"ratings":[', rows,
                     lambda _: b"]}", "application/json")


async def get_ratings_csv(request: Request) -> Response:
    return _csv(request, "ratings.csv", "rating",
                ["rank", "name", "federation_id", "club", "rating", "experience"],
                lambda e, k: [k, e.name, e.federation_id or "", e.club or "",
                              points(e.rating), e.experience], "ratings.csv")


WORDS = {
    "en": {"title": "Rating list", "rank": "#", "name": "Player",
           "federation_id": "Federation id", "club": "Club", "rating": "Rating",
           "experience": "Experience", "empty": "The register is empty.",
           "note": "FIBS formula; experience is the points of rated matches played."},
    "it": {"title": "Classifica rating", "rank": "#", "name": "Giocatore",
           "federation_id": "Tessera", "club": "Circolo", "rating": "Rating",
           "experience": "Esperienza", "empty": "Il registro è vuoto.",
           "note": "Formula FIBS; l'esperienza è la somma dei punti delle partite valutate."},
}


async def get_ratings_html(request: Request) -> Response:
    """The rating list as a printable A4 page, in the director's language
    (``lang``: en or it)."""
    lang = request.query_params.get("lang", "en")
    if lang not in WORDS:
        raise ApiError(422, "invalid", "query.lang: must be en or it")
    w = WORDS[lang]

    def number(text: str) -> str:
        """A rating as the page's language writes it (Italian: a decimal comma)."""
        return text.replace(".", ",") if lang == "it" else text

    e_ = html.escape

    def rows(chunk: list[RegisterEntry], first: int) -> bytes:
        return "".join(
            f"<tr><td>{k}</td><td>{e_(e.name)}</td><td>{e_(e.federation_id or '')}</td>"
            f"<td>{e_(e.club or '')}</td><td class=n>{number(points(e.rating))}</td>"
            f"<td class=n>{e.experience}</td></tr>"
            for k, e in enumerate(chunk, start=first + 1)).encode()

    def head(empty: bool) -> bytes:
        table = (f"<p>{w['empty']}</p>" if empty else
                 f"<table><thead><tr><th>{w['rank']}</th><th>{w['name']}</th>"
                 f"<th>{w['federation_id']}</th><th>{w['club']}</th>"
                 f"<th class=n>{w['rating']}</th><th class=n>{w['experience']}</th></tr>"
                 "</thead><tbody>")
        return (f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{w['title']}</title>
<style>
@page {{ size: A4; margin: 15mm; }}
body {{ font: 11pt system-ui, sans-serif; color: #000; margin: 0 auto; max-width: 180mm; }}
h1 {{ font-size: 16pt; margin: 0 0 4mm; }}
table {{ width: 100%; border-collapse: collapse; }}
th, td {{ padding: 1.2mm 2mm; border-bottom: 0.2mm solid #999; text-align: left; }}
thead {{ display: table-header-group; }}
tr {{ break-inside: avoid; }}
.n {{ text-align: right; font-variant-numeric: tabular-nums; }}
p.note {{ font-size: 9pt; color: #444; }}
@media screen {{ body {{ margin: 8mm auto; }} }}
</style></head>
<body><h1>{w['title']}</h1>{table}""").encode()

    def tail(empty: bool) -> bytes:
        return (("" if empty else "</tbody></table>") +
                f"<p class=note>{w['note']}</p></body></html>\n").encode()

    return _streamed(request, f"ratings.{lang}.html", "rating", head, rows, tail,
                     "text/html; charset=utf-8")


async def get_tournament_candidates(request: Request) -> Response:
    """The registration screen's search of the tournament's register (its
    club's): entries matching ``q``, each with the tournament's player it is
    linked to (if any)."""
    server = server_of(request)
    tid = request.path_params["tournament_id"]
    hub = await server.tourneys.get(tid)
    found = await _search(server, request, await server.owner(tid))
    linked = {p.register_id: p.id for p in hub.state.players
              if p.register_id is not None and not p.deleted}
    for e in found["entries"]:
        e["player"] = linked.get(e["id"])
    return JSONResponse(found)


# ------------------------------------------------------- rating a tournament

_LOCKS: weakref.WeakKeyDictionary[Any, asyncio.Lock] = weakref.WeakKeyDictionary()


def _lock(server: Server) -> asyncio.Lock:
    """One lock per server around the register's read-modify-writes."""
    lock = _LOCKS.get(server)
    if lock is None:
        lock = _LOCKS[server] = asyncio.Lock()
    return lock


async def rate_tournament(server: Server, tournament_id: int) -> dict[str, Any]:
    """Rate a closed tournament's matches once (see the module's docstring),
    in its club's register (the server's own for the server director's):
    ``{"rated_ms", "matches", "now": bool}`` (``now`` false: rated before);
    ``{"now": false, "error"}`` when the store refused (nothing was rated:
    closing again rates it)."""
    try:
        return await _rate(server, tournament_id)
    except StoreError as exc:
        log.warning("tournament %d: not rated: %s", tournament_id, exc)
        return {"now": False, "error": f"not rated ({exc}): close it again to rate it"}


async def _rate(server: Server, tournament_id: int) -> dict[str, Any]:
    async with _lock(server):
        done = await server.store.register_rated(tournament_id)
        if done is not None:
            return {"rated_ms": done[0], "matches": done[1], "now": False}
        row = await server.store.tournament(tournament_id)
        owner = row.club  # the tournament's register: never another's
        hub = await server.tourneys.get(tournament_id)
        matches = rated_matches(hub.state)
        start: dict[int, Rated] = {}
        for rid in sorted({m.winner for m in matches} | {m.loser for m in matches}):
            try:
                e = await server.store.register_entry(rid, owner=owner)
            except NotFound:
                continue
            start[rid] = Rated(e.rating, e.experience)
        # an entry not in the register (another's: it cannot be linked) rates nothing
        matches = [m for m in matches if m.winner in start and m.loser in start]
        now = server.clock.now_ms()
        lines = [RegisterLine(
            player_id=c.player, tournament_id=tournament_id, tournament_name=row.name,
            event=c.event, round=c.round, match=c.match, opponent_id=c.opponent,
            opponent_name=c.opponent_name, length=c.length, won=c.won,
            rating_before=c.before.rating, rating_after=c.after.rating,
            experience_before=c.before.experience, experience_after=c.after.experience,
            at_ms=now) for c in rate_all(start, matches)]
        await server.store.register_rate(tournament_id, now, lines, owner=owner)
        return {"rated_ms": now, "matches": len(matches), "now": True}


async def check_link(server: Server, owner: str | None, action: dict[str, Any]) -> None:
    """A registration's ``register_id`` names an entry of the register of
    ``owner``, the tournament's club's (``ApiError`` 422 if not: another
    register's entry is answered as a missing one)."""
    rid = action.get("register_id")
    if rid is None:
        return
    try:
        await server.store.register_entry(rid, owner=owner)
    except NotFound:
        raise ApiError(422, "invalid", f"body.register_id: no register entry {rid}") from None


def register_paths(_ok: Any, _errors: Any, _op: Any, _ref: Any) -> dict[str, Any]:
    """The register's routes in ``/openapi.json`` (``render.openapi``'s
    helpers passed in)."""
    obj = {"type": "object"}
    q = [{"name": n, "in": "query", "required": False, "schema": s} for n, s in (
        ("q", {"type": "string", "maxLength": MAX_QUERY}),
        ("limit", {"type": "integer", "minimum": 0, "maximum": MAX_PAGE}),
        ("offset", {"type": "integer", "minimum": 0, "maximum": MAX_REGISTER}),
        ("order", {"enum": ["name", "rating"]}))]
    csv_ok = {"200": _ok({"type": "string"}, media="text/csv")}
    return {
        "/api/register": {
            "get": {**_op("search the players' register by name or federation id (paged)",
                          {"200": _ok(obj), **_errors(422)}), "parameters": q},
            "post": _op("add a player to the register (1500.00 and experience 0 unless "
                        "given)", {"201": _ok(obj), **_errors(409, 422)},
                        body=_ref("RegisterBody"))},
        "/api/register.csv": {
            "get": _op("the register as CSV (id,name,federation_id,club,rating,experience)",
                       csv_ok),
            "post": _op(f"import the register from CSV (a header first; at most 256 KiB, "
                        f"{MAX_CSV_ROWS} rows; all or none; errors name row and field)",
                        {"201": _ok(obj), **_errors(409, 413, 422)})},
        "/api/register/ratings.json": {"get": _op("the rating list, highest first",
                                                  {"200": _ok(obj)})},
        "/api/register/ratings.csv": {"get": _op("the rating list as CSV", csv_ok)},
        "/api/register/ratings.html": {"get": _op(
            "the rating list as a printable A4 page (lang: en or it)",
            {"200": _ok({"type": "string"}, media="text/html"), **_errors(422)})},
        "/api/register/{entry_id}": {
            "get": _op("a register entry and its rated matches",
                       {"200": _ok(obj), **_errors(404)}, params=["entry_id"]),
            "patch": _op("edit a register entry (rating and experience only before its first "
                         "rated match)", {"200": _ok(obj), **_errors(404, 409, 422)},
                         params=["entry_id"],
                         body=_ref("RegisterPatch"))},
        "/api/tournaments/{tournament_id}/register-search": {"get": {**_op(
            "the registration screen's search of the register (each entry with the "
            "tournament's player linked to it)", {"200": _ok(obj), **_errors(404, 422)},
            params=["tournament_id"])}},
    }


#: The register's routes (the director's key), under ``/api``.
#: The director's (the guard is on the Mount).
routes = [
    Route("/api/register", get_register, methods=["GET"]),
    Route("/api/register", post_register, methods=["POST"]),
    Route("/api/register.csv", get_register_csv, methods=["GET"]),
    Route("/api/register.csv", post_register_csv, methods=["POST"]),
    Route("/api/register/ratings.json", get_ratings_json, methods=["GET"]),
    Route("/api/register/ratings.csv", get_ratings_csv, methods=["GET"]),
    Route("/api/register/ratings.html", get_ratings_html, methods=["GET"]),
    Route("/api/register/{entry_id:id}", get_entry, methods=["GET"]),
    Route("/api/register/{entry_id:id}", patch_entry, methods=["PATCH"]),
]

#: Under ``/api/tournaments/{tournament_id:id}``.
tournament_routes = [
    Route("/register-search", get_tournament_candidates, methods=["GET"]),
]

__all__ = ["REGISTER_REQUESTS", "check_link", "owner_of", "rate_tournament", "routes",
           "tournament_routes"]
