"""The prize list (issue 19 §4): the director's prizes (amounts or prizes, as
text) per place and event, set by the ``prizes`` action.  A leaf: the fold
(``_running``) and the standings (``_standings``) both read it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from ._errors import InvalidContest

#: The events a standings and a prize list cover, in print order.
STANDING_EVENTS: Final = ("main", "consolation", "last_chance", "swing", "couples")
#: A prize list: at most this many places per event, each a text this long.
MAX_PRIZES: Final = 64
MAX_PRIZE_TEXT: Final = 100


def set_prizes(prizes: dict[str, list[str]], event: str,
               listed: Sequence[str]) -> dict[str, Any]:
    """The ``prizes`` action (``actions.Prizes``): ``event``'s prize per place
    (1st first; an empty text is no prize for that place).  Replaces that
    event's list."""
    if event not in STANDING_EVENTS:
        raise InvalidContest(f"event: must be one of {', '.join(STANDING_EVENTS)}")
    if len(listed) > MAX_PRIZES:
        raise InvalidContest(f"prizes: must be a list of at most {MAX_PRIZES} texts, 1st first")
    clean: list[str] = []
    for k, text in enumerate(listed):
        if not isinstance(text, str) or len(text) > MAX_PRIZE_TEXT:
            raise InvalidContest(f"prizes[{k}]: must be a text of at most "
                                 f"{MAX_PRIZE_TEXT} characters")
        if any(ord(c) < 32 or ord(c) == 127 for c in text):
            raise InvalidContest(f"prizes[{k}]: must not hold control characters")
        clean.append(text.strip())
    while clean and not clean[-1]:
        clean.pop()
    if clean:
        prizes[str(event)] = clean
    else:
        prizes.pop(str(event), None)
    return {"event": event, "places": len(clean)}
