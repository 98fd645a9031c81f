"""The players' register's rating: the FIBS formula, pure.

Source: the First Internet Backgammon Server's ``help formula`` text (quoted
in the Backgammon FAQ, "FIBS Rating Formula [From the FIBS man pages]", and in
rec.games.backgammon, bkgm.com/rgb/rgb.cgi?view+1093)::

    Let D = abs(r1-r2)      (rating difference)
    Let P_upset = 1/(10^(D*sqrt(n)/2000)+1) (probability that underdog wins)
    Let P=1-P_upset if the underdog wins and P=P_upset if the favorite wins.
    For the winner:
      Let K = max ( 1 , -experience/100+5 )
      The rating change is: 4*K*sqrt(n)*P
    For the loser:
      Let K = max ( 1 , -experience/100+5 )
      The rating change is: -4*K*sqrt(n)*P
    The 'experience' of a player is the sum of the lengths of all matches
    a player has finished. Every player starts with a rating of 1500 and
    an experience of 0.

Readings (``docs/tournament.md``, "The players' register"):

- *experience* is what the player had finished *before* this match (the
  match being rated is not finished when its change is worked out); each
  player's factor is their own;
- between equal ratings the "favourite" and the "underdog" are the same:
  ``P_upset = 1/2`` whoever wins;
- ratings are kept as integers in hundredths of a point; a change is worked
  out in binary floating point and rounded to hundredths half to even
  (Python's ``round``): rounding half up would add a hundredth on every exact
  tie, always in the same direction, and a register lives for years.

Nothing here reads a clock, a file or a socket.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ._errors import InvalidContest
from ._names import name_key

if TYPE_CHECKING:
    from ._running import Tournament

#: A new player's rating, in hundredths of a point (1500.00).
START_RATING: Final = 150_000
#: Ratings a register keeps (hundredths): -10,000.00 to 10,000.00 points.
MIN_RATING: Final = -1_000_000
MAX_RATING: Final = 1_000_000
#: At most this much experience (points of finished matches).
MAX_EXPERIENCE: Final = 10_000_000
#: The longest match the formula is given (the tournament's own bound).
MAX_LENGTH: Final = 64
#: Results that rate a match: the match was played out (not a bye, a
#: withdrawal or a disqualification, late no-shows included).
RATED_SOURCES: Final = ("clock", "hand")


@dataclass(frozen=True, slots=True)
class Rated:
    """A player's rating (hundredths of a point) and experience (points)."""

    rating: int = START_RATING
    experience: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.rating, int) or not MIN_RATING <= self.rating <= MAX_RATING:
            raise InvalidContest(f"rating: must be an integer of hundredths from "
                                 f"{MIN_RATING} to {MAX_RATING}")
        if not isinstance(self.experience, int) or not 0 <= self.experience <= MAX_EXPERIENCE:
            raise InvalidContest(f"experience: must be an integer from 0 to {MAX_EXPERIENCE}")


def _length(length: int) -> int:
    if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_LENGTH:
        raise InvalidContest(f"length: must be an integer from 1 to {MAX_LENGTH}")
    return length


def upset_probability(difference: int, length: int) -> float:
    """FIBS's ``P_upset``: the chance the lower-rated player wins a match of
    ``length`` points, ``difference`` (hundredths) apart."""
    d = abs(difference) / 100
    return 1.0 / (math.pow(10.0, d * math.sqrt(_length(length)) / 2000.0) + 1.0)


def experience_factor(experience: int) -> float:
    """FIBS's ``K = max(1, 5 - experience/100)``: 5 for a newcomer, 1 from 400."""
    return max(1.0, 5.0 - experience / 100.0)


def changes(winner: Rated, loser: Rated, length: int) -> tuple[int, int]:
    """The winner's gain and the loser's loss (both >= 0, hundredths) for a
    match of ``length`` points."""
    p_upset = upset_probability(winner.rating - loser.rating, length)
    # the winner was the underdog: 1 - P_upset; the favourite (or an equal): P_upset
    p = 1.0 - p_upset if winner.rating < loser.rating else p_upset
    base = 4.0 * math.sqrt(length) * p
    gain = round(base * experience_factor(winner.experience) * 100)
    loss = round(base * experience_factor(loser.experience) * 100)
    return gain, loss


def rate(winner: Rated, loser: Rated, length: int) -> tuple[Rated, Rated]:
    """Both players after the winner beat the loser in a ``length``-point match."""
    gain, loss = changes(winner, loser, length)
    return (Rated(min(MAX_RATING, winner.rating + gain), winner.experience + length),
            Rated(max(MIN_RATING, loser.rating - loss), loser.experience + length))


def register_key(name: str) -> str:
    """The register's identity of a name: NFKC then case folding, inner white
    space made single (``"Mario  ROSSI"`` and ``"mario rossi"`` are one
    person).  A player with a federation id is matched by the id first."""
    return name_key(name)


@dataclass(frozen=True, slots=True, kw_only=True)
class RatedMatch:
    """A match of a tournament that rates its two register-linked players."""

    event: str
    round: int
    match: int
    length: int
    winner: int
    loser: int
    #: The players' names in the tournament (for the history).
    winner_name: str
    loser_name: str


def rated_matches(state: Tournament) -> list[RatedMatch]:
    """Every match of ``state`` that rates, in the order its result came in:
    a result from play (``RATED_SOURCES``) between two players who are both
    linked to the register.  Byes have no result; withdrawals and
    disqualifications (late no-shows) are not play; a corrected result rates
    with its corrected winner, in the place its first result came in."""
    links = {p.name: p.register_id for p in state.players if p.register_id is not None}
    out: list[RatedMatch] = []
    for key, detail in state.results.items():
        if detail.source not in RATED_SOURCES:
            continue
        event, r, i = key
        m = state.bracket(event).rounds[r][i]
        if m.a is None or m.b is None or m.winner is None:
            continue
        loser = m.b if m.winner == m.a else m.a
        w, lo = links.get(m.winner), links.get(loser)
        if w is None or lo is None or w == lo:
            continue
        out.append(RatedMatch(event=event, round=r, match=i,
                              length=state.settings_for(r).length, winner=w, loser=lo,
                              winner_name=m.winner, loser_name=loser))
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class RatingChange:
    """One player's line of a rated match: before and after."""

    player: int
    opponent: int
    opponent_name: str
    event: str
    round: int
    match: int
    length: int
    won: bool
    before: Rated
    after: Rated


def rate_all(start: Mapping[int, Rated], matches: Iterable[RatedMatch]) -> list[RatingChange]:
    """Rate ``matches`` in order from the players' ratings ``start`` (register
    id -> Rated; a missing id starts new); two lines per match, the winner's
    first."""
    now = dict(start)
    out: list[RatingChange] = []
    for m in matches:
        w, lo = now.get(m.winner, Rated()), now.get(m.loser, Rated())
        w2, lo2 = rate(w, lo, m.length)
        now[m.winner], now[m.loser] = w2, lo2
        common: dict[str, Any] = {"event": m.event, "round": m.round, "match": m.match,
                                  "length": m.length}
        out.append(RatingChange(player=m.winner, opponent=m.loser, opponent_name=m.loser_name,
                                won=True, before=w, after=w2, **common))
        out.append(RatingChange(player=m.loser, opponent=m.winner, opponent_name=m.winner_name,
                                won=False, before=lo, after=lo2, **common))
    return out


def points(hundredths: int) -> str:
    """A rating as printed: ``152236`` -> ``"1522.36"``."""
    sign = "-" if hundredths < 0 else ""
    whole, frac = divmod(abs(hundredths), 100)
    return f"{sign}{whole}.{frac:02d}"


def parse_points(text: str, field: str) -> int:
    """A printed rating (``"1522.36"``, ``"1500"``) in hundredths; an error naming ``field``."""
    import re

    t = text.strip()
    found = re.fullmatch(r"(-?)(\d{1,5})(?:[.,](\d{1,2}))?", t)
    if found is None:
        raise InvalidContest(f"{field}: must be a rating such as 1500 or 1522.36")
    value = int(found.group(2)) * 100 + int((found.group(3) or "0").ljust(2, "0"))
    value = -value if found.group(1) else value
    if not MIN_RATING <= value <= MAX_RATING:
        raise InvalidContest(f"{field}: must be from {points(MIN_RATING)} to {points(MAX_RATING)}")
    return value
