"""The one convertor of a path's id: ``{tournament_id:id}``, ``{table_id:id}``...

Digits only (ASCII), 0 .. 2**63 - 1 (what the stores keep): anything else
matches no route, and the API answers 404 ``not_found`` (``errors.no_route``).
Registered with Starlette when this module is imported (``app`` does).
"""

from __future__ import annotations

from starlette.convertors import Convertor, register_url_convertor

from bgclock.server.edge.limits import MAX_ID


def at_most(limit: int) -> str:
    """A regular expression for the decimal numbers 0 .. ``limit`` (no
    leading zeros past the first digit are refused: ``007`` is 7)."""
    top = str(limit)
    shorter = f"[0-9]{{1,{len(top) - 1}}}" if len(top) > 1 else ""
    same: list[str] = []
    for k, digit in enumerate(top):
        if digit != "0":
            below = "0" if digit == "1" else f"0-{int(digit) - 1}"
            rest = len(top) - k - 1
            same.append(top[:k] + f"[{below}]" + (f"[0-9]{{{rest}}}" if rest else ""))
    same.append(top)
    return "(?:" + "|".join(([shorter] if shorter else []) + same) + ")"


class IdConvertor(Convertor[int]):
    regex = at_most(MAX_ID)

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        if not 0 <= value <= MAX_ID:
            raise ValueError(f"an id is 0..{MAX_ID}")
        return str(value)


register_url_convertor("id", IdConvertor())


class ClubConvertor(Convertor[str]):
    """A club's name in a published page's path (``/p/{club}/{id}``,
    ``edge.named_keys.NAME_PATTERN``): lower-case, starting with a letter,
    so that it never reads as a tournament's id."""

    regex = "[a-z][a-z0-9-]{0,31}"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("club", ClubConvertor())
