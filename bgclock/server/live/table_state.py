"""The table's decision, pure: who may act, at which instant, who keeps the time.

Theory of operation
-------------------
In the manner of h11 (a protocol is a pure state machine the I/O code only
runs) and of scalachess's immutable clock, a table's rules are functions of
an immutable value, ``TableState``, read from the live table at the moment a
message arrives, and of the message (``Press``, a request for the time, an
expiry).  They return what to do (``Accept``, ``Refuse``, ``Duplicate``,
``Claimed``, ``Asked``, ``Declined``, ``Flag``); the hub
(``live.hub.TableRunner``) only carries that out: it applies the event to
the engine's match, stores it, tells the watchers.  Nothing here reads a
clock, a socket or the disk, so every rule is a unit test
(``tests/test_table_decide.py``).

The rules decided here:

- **Roles.** A table device sends only the players' commands and never
  settles a dashboard alert; a closed, quarantined or edited table takes none,
  nor does a match whose result the director entered by hand (``decided``).
- **Idempotency.** A command whose id was accepted already is a duplicate
  (acked again, never applied twice).
- **The timekeeper claim** (docs/protocol.md "The timekeeper").  The table's
  time is kept by one device, its *keeper*.  The device (a table link with a
  ``device`` id) that makes the table's first roll or press claims it; the
  dashboard, the room display and a page that only watches never do.  While
  a keeper holds the claim, another device's commands are refused
  (``not_keeper``) until the time is handed over to it.  The claim belongs
  to the table (its link), not to the match.
- **Consent** (docs/protocol.md "The time changes hands only with consent").
  Another device *asks* for the time (``ask_keep``); the request waits
  (``Asked``) and changes nothing until the keeper's screen answers
  (``answer_keep``: yes moves the time, no leaves it).  Two other ways move
  it without the keeper's yes: the keeper has been silent (no connection of
  its device open) for ``KEEPER_SILENT_MS`` when the request comes, or the
  director hands it over from the dashboard (``give_keep``).
- **The hand-over.**  A press the former keeper made before another device
  took the time over (by its own device instant) was made by the table's
  keeper: it counts, at that instant, as long as the new keeper has not
  pressed since; after that it cannot be folded in under what the new
  keeper's players saw, and is refused (``handed_over``) with the director
  told.  A press the former keeper made after the hand-over is ``not_keeper``.
- **The three instant rules.**  The director's commands count at their
  arrival; the keeper's at the instant it applied them (``device_at_ms``),
  never after the arrival, never before the last event it could have seen
  (the table's last event that is not the director's), merged before the
  director's events it had not seen; any other command is lag-compensated
  from its side's quota (``live.lag``), never before the match's last event.
- **Expiry.**  A command judged at or past the running clock's expiry sees
  the flag first.  A flag the server works out while the keeper is offline,
  or before it has reconciled after a restart, is *provisional*: the clock on
  the table may have been stopped in time, and only the keeper knows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from bgclock.core import SIDES
from bgclock.server.live.commands import PLAYER_COMMANDS
from bgclock.server.live.lag import DEFAULT_PARAMS, LagParams, LagQuota, credited_instant

#: How long the keeper may stay silent before a provisional flag becomes final
#: on its own (docs/protocol.md "Provisional flags"): 10 minutes.
PROVISIONAL_BOUND_MS: Final = 10 * 60_000
#: How long the keeper may stay silent (no connection of its device open)
#: before another device that asks for the time gets it without the keeper's
#: yes (docs/protocol.md "The time changes hands only with consent"): 2
#: minutes, 30 times the page's longest wait between two reconnections.
KEEPER_SILENT_MS: Final = 2 * 60_000
#: The keeper note's ``by`` of a hand-over from another device.
HANDED_OVER_BY: Final = frozenset({"keep", "consent", "silent", "director"})
#: The quota of commands that name no side (``opening_roll``, ``resume``).
TABLE_QUOTA: Final = "-"


@dataclass(frozen=True, slots=True)
class Keeper:
    """The device that keeps the table's time: its id and its short name."""

    device: str
    name: str | None = None
    #: The director gave the name: the device's own hello does not change it.
    named: bool = False

    def label(self) -> str:
        """What the pages call it: its name, else the last 4 of its id."""
        return self.name or f"…{self.device[-4:]}"


@dataclass(frozen=True, slots=True)
class Ask:
    """A device's request for the table's time, waiting for the keeper's
    answer: who asks, under which name, since when (wall ms), and the id of
    its message (echoed in the answer)."""

    device: str
    name: str | None
    at_ms: int
    id: str | None = None

    def label(self) -> str:
        return Keeper(self.device, self.name).label()


@dataclass(frozen=True, slots=True)
class Handover:
    """The last time the table's time was taken over (``keep``) from another
    device: who had it, and the table's instant of the hand-over."""

    previous: Keeper
    at_ms: int
    #: The new keeper has pressed since (what the former keeper did before
    #: the hand-over can no longer be folded in).
    pressed: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class TableState:
    """What the table's rules read, at one moment (immutable)."""

    closed: bool = False
    quarantined: str | None = None
    #: The director entered this match's result by hand (the winner's name):
    #: the match is closed at this table until its next match.
    decided_by: str | None = None
    #: The director's edit is being stored.
    editing: bool = False
    keeper: Keeper | None = None
    #: A connection of the keeper's device is open now.
    keeper_online: bool = False
    #: Since when (wall ms) no connection of the keeper's device is open.
    keeper_offline_since_ms: int | None = None
    #: The requests for the time waiting for the keeper's answer, by device.
    asks: Mapping[str, Ask] = dataclasses.field(default_factory=lambda: MappingProxyType({}))
    #: The table devices connected now (id -> the name they said).
    present: Mapping[str, str | None] = dataclasses.field(
        default_factory=lambda: MappingProxyType({}))
    #: The last hand-over of the time, if any (this match's).
    handover: Handover | None = None
    #: Restarted with a kept clock running: the keeper has not reconciled yet.
    recovering: bool = False
    #: The keeper's queued commands still to come after its hello.
    reconcile_left: int = 0
    #: The instant of the log's last event (0: none).
    log_end_ms: int = 0
    #: The instant of the log's last event that is not the director's.
    device_floor_ms: int = 0
    #: The live match's instant (past ``log_end_ms`` once a flag was derived).
    match_ms: int = 0
    #: The running clock's expiry, or None.
    expiry_ms: int | None = None
    #: The lag quotas by side (``A``, ``B``, ``TABLE_QUOTA``); absent: a new one.
    quotas: Mapping[str, LagQuota] = dataclasses.field(
        default_factory=lambda: MappingProxyType({}))
    lag_params: LagParams = DEFAULT_PARAMS

    def quota(self, key: str) -> LagQuota:
        return self.quotas.get(key) or LagQuota.new(self.lag_params)

    def with_quota(self, key: str, quota: LagQuota) -> TableState:
        return dataclasses.replace(self, quotas=MappingProxyType({**self.quotas, key: quota}))

    def with_keeper(self, keeper: Keeper, *, online: bool) -> TableState:
        return dataclasses.replace(self, keeper=keeper, keeper_online=online)

    @property
    def keeper_away(self) -> bool:
        """The keeper may hold presses the server has not seen: it is offline,
        or it has not reconciled since the restart or its reconnection."""
        return self.keeper is not None and (
            not self.keeper_online or self.recovering or self.reconcile_left > 0)


@dataclass(frozen=True, slots=True, kw_only=True)
class Press:
    """One command as it arrived: who sent it, what, and when."""

    role: str  # "director" or "table"
    do: str
    #: The sender's device id (hello ``device``), None for the director or a
    #: device that gave none.
    device: str | None = None
    device_name: str | None = None
    side: str | None = None
    device_at_ms: int | None = None
    lag_ms: int = 0
    #: On the table's time line, when the server received it.
    arrival_ms: int
    #: It settles a dashboard alert (``handles``).
    handles: str | None = None
    #: Its idempotency key was accepted already.
    known: bool = False
    #: The alert it settles was handled already.
    handled: bool = False


@dataclass(frozen=True, slots=True)
class Refuse:
    """Answer the sender an error (nothing changes); ``refusal`` is the code
    the pages translate (their refusal catalogue), with its ``params``."""

    code: str
    message: str
    refusal: str | None = None
    params: Mapping[str, str | int] | None = None
    #: The field to blame, when one is.
    field: str | None = None


@dataclass(frozen=True, slots=True)
class Duplicate:
    """Acknowledge again the command accepted under this id."""


@dataclass(frozen=True, slots=True)
class Flag:
    """The running clock reached 0 at ``at_ms``; ``provisional`` while the
    keeper may still hold a press made before it."""

    at_ms: int
    provisional: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Accept:
    """Apply the command at ``at_ms`` with ``credit_ms`` of lag credit."""

    at_ms: int
    credit_ms: int
    #: The next state's quota for this side (lag-compensated commands only).
    quota_key: str | None = None
    quota: LagQuota | None = None
    #: The sender claims the table's time with this command (stored with it).
    claim: Keeper | None = None
    #: The keeper's command falls before events of the director it had not
    #: seen: fold it in by instant if the log allows (else at ``log_end_ms``).
    merge: bool = False
    #: The live match moved past ``at_ms`` (a derived flag): refold the log first.
    refold: bool = False
    #: The running clock expired at or before ``at_ms``: flag it first.
    flag: Flag | None = None
    #: The former keeper's press made before the hand-over: it folds in at
    #: its instant or not at all (never after the new keeper's time line).
    before_handover: bool = False


@dataclass(frozen=True, slots=True)
class Claimed:
    """The device takes the table's time over (``previous``: who had it;
    ``how``: the keeper note's ``by``: ``keep`` nobody kept it, ``consent``
    the keeper said yes, ``silent`` the keeper was silent past the bound,
    ``director`` the director handed it over)."""

    keeper: Keeper
    previous: Keeper | None
    how: str = "keep"
    #: The request this answers (its asker is told), if any.
    ask: Ask | None = None


@dataclass(frozen=True, slots=True)
class Asked:
    """The request waits for the keeper's answer: nothing changes."""

    ask: Ask
    keeper: Keeper


@dataclass(frozen=True, slots=True)
class Declined:
    """The keeper said no: the request ends, nothing changes."""

    ask: Ask
    keeper: Keeper


def check_open(state: TableState) -> Refuse | None:
    """A table that takes no commands now says why."""
    if state.closed:
        return Refuse("closed", "this table is closed")
    if state.quarantined is not None:
        return Refuse("quarantined", f"this table's log cannot be replayed "
                      f"({state.quarantined}): it takes no commands; the director has been told")
    if state.editing:
        return Refuse("busy", "the director is editing this table: try again")
    return None


def decided_by_hand(name: str) -> Refuse:
    """The refusal of any press once the director entered the match's result
    by hand (docs/protocol.md, "A result entered by hand")."""
    return Refuse("decided", f"the director entered this match's result: {name} won; "
                  "the clock takes no more presses", refusal="decided_by_hand",
                  params=MappingProxyType({"name": name}))


def not_keeper(keeper: Keeper) -> Refuse:
    """The refusal a device gets for pressing while another keeps the time."""
    return Refuse("not_keeper", f"the time of this table is kept by another device "
                  f"({keeper.label()}): keep the time on this device first",
                  refusal="not_keeper", params=MappingProxyType({"keeper": keeper.label()}))


def handed_over(keeper: Keeper) -> Refuse:
    """The refusal of the former keeper's press made before the hand-over,
    once the new keeper has pressed."""
    return Refuse("handed_over", f"this press was made before {keeper.label()} took the "
                  f"time over, and {keeper.label()} has pressed since: it is not counted "
                  "(the director has been told)",
                  refusal="handed_over", params=MappingProxyType({"keeper": keeper.label()}))


def _before_handover(state: TableState, press: Press,
                     keeper: Keeper) -> Accept | Refuse | None:
    """A press of the former keeper made before the hand-over (None: it is
    not one)."""
    h = state.handover
    if (h is None or press.device != h.previous.device or press.device_at_ms is None
            or press.device_at_ms >= h.at_ms):
        return None
    if h.pressed:
        return handed_over(keeper)
    return _at_device_instant(state, press, press.device_at_ms, before_handover=True)


def _at_device_instant(state: TableState, press: Press, device_at_ms: int, *,
                       claim: Keeper | None = None, before_handover: bool = False) -> Accept:
    """A keeper's command (or the former keeper's, before the hand-over) at
    the instant its device applied it: never after its arrival, never before
    the last event the device could have seen; merged before later events."""
    at = max(min(device_at_ms, press.arrival_ms), state.device_floor_ms)
    return Accept(at_ms=at, credit_ms=max(press.arrival_ms - at, 0), claim=claim,
                  merge=at < state.log_end_ms, refold=at < state.match_ms,
                  flag=_flag_by(state, at), before_handover=before_handover)


def decide(state: TableState, press: Press) -> Accept | Refuse | Duplicate:
    """The table's answer to one command (see the module's rules)."""
    if press.role != "director" and press.do not in PLAYER_COMMANDS:
        return Refuse("forbidden", f"only the director may {press.do.replace('_', ' ')}")
    if press.role != "director" and press.handles is not None:
        return Refuse("forbidden", "only the director handles alerts")
    closed = check_open(state)
    if closed is not None:
        return closed
    if press.known:
        return Duplicate()
    if state.decided_by is not None:
        return decided_by_hand(state.decided_by)
    if press.handles is not None and press.handled:
        return Refuse("handled", "this alert was already handled: nothing was applied")
    claim: Keeper | None = None
    if press.role == "director":
        at, credit = max(press.arrival_ms, state.match_ms), 0
        return Accept(at_ms=at, credit_ms=credit, flag=_flag_by(state, at))
    keeper = state.keeper
    if keeper is None and press.device is not None:
        # the first roll or press of a device with an id claims the table's time
        keeper = claim = Keeper(press.device, press.device_name)
    if keeper is not None and press.device != keeper.device:
        return _before_handover(state, press, keeper) or not_keeper(keeper)
    if keeper is not None and press.device_at_ms is not None:
        # the keeper applied it at device_at_ms: it counts there
        return _at_device_instant(state, press, press.device_at_ms, claim=claim)
    side = press.side if press.side in SIDES else TABLE_QUOTA
    quota = state.quota(side)
    at, credit = credited_instant(press.arrival_ms, quota.offer(press.lag_ms), state.match_ms)
    return Accept(at_ms=at, credit_ms=credit, quota_key=side, quota=quota.spend(credit),
                  claim=claim, flag=_flag_by(state, at))


def _flag_by(state: TableState, at_ms: int) -> Flag | None:
    """The flag a command judged at ``at_ms`` sees first, if the clock ran out."""
    if state.expiry_ms is not None and state.expiry_ms <= at_ms:
        return flag(state)
    return None


def flag(state: TableState) -> Flag | None:
    """The running clock's expiry as the server works it out: provisional
    while the keeper may hold a press the server has not seen."""
    if state.expiry_ms is None:
        return None
    return Flag(state.expiry_ms, provisional=state.keeper_away)


def _open_for_keep(state: TableState) -> Refuse | None:
    if state.closed:
        return Refuse("closed", "this table is closed")
    if state.quarantined is not None:
        return Refuse("quarantined", f"this table is quarantined: {state.quarantined}")
    return None


def keeper_silent(state: TableState, now_ms: int, bound_ms: int = KEEPER_SILENT_MS) -> bool:
    """The keeper has been silent (no connection of its device open) for
    ``bound_ms``: it is plainly gone."""
    since = state.keeper_offline_since_ms
    return (state.keeper is not None and not state.keeper_online and since is not None
            and now_ms - since >= bound_ms)


def ask_keep(state: TableState, device: str | None, name: str | None, role: str, *,
             now_ms: int, msg_id: str | None = None,
             bound_ms: int = KEEPER_SILENT_MS) -> Claimed | Asked | Refuse:
    """A table device asks for the table's time: it gets it at once when
    nobody keeps it, when it keeps it already, or when the keeper has been
    silent for ``bound_ms``; otherwise the request waits for the keeper's
    answer (``Asked``: nothing changes).  The director's dashboard never
    keeps a table's time (it hands it over: ``give_keep``)."""
    if role != "table":
        return Refuse("forbidden", "only a table's own device asks for its time; "
                      "the director hands it over (keep_give)")
    if device is None:
        return Refuse("invalid", "keep_request: this device said no id in its hello "
                      "(reload the table's page)", field="hello.device")
    closed = _open_for_keep(state)
    if closed is not None:
        return closed
    keeper = state.keeper
    ask = Ask(device, name, now_ms, msg_id)
    if keeper is None:
        return Claimed(Keeper(device, name), None, "keep", ask)
    if keeper.device == device:
        return Claimed(Keeper(device, name or keeper.name), keeper, "keep", ask)
    if keeper_silent(state, now_ms, bound_ms):
        return Claimed(Keeper(device, name), keeper, "silent", ask)
    return Asked(state.asks.get(device, ask), keeper)


def not_timekeeper(keeper: Keeper | None) -> Refuse:
    """Only the keeper's screen answers a request for the time."""
    label = keeper.label() if keeper is not None else "-"
    return Refuse("not_timekeeper", f"only the device that keeps the time ({label}) "
                  "answers a request for it", refusal="not_timekeeper",
                  params=MappingProxyType({"keeper": label}))


def answer_keep(state: TableState, device: str | None, role: str, asker: str,
                yes: bool) -> Claimed | Declined | Refuse:
    """The keeper's screen answers ``asker``'s request: yes hands the time
    over (``consent``), no ends the request and changes nothing."""
    keeper = state.keeper
    if role != "table" or keeper is None or device != keeper.device:
        return not_timekeeper(keeper)
    closed = _open_for_keep(state)
    if closed is not None:
        return closed
    ask = state.asks.get(asker)
    if ask is None:
        return Refuse("no_request", f"keep_answer.device: no request for the time from "
                      f"{asker!r} is waiting (it was answered, withdrawn or its device left)",
                      refusal="no_request", field="keep_answer.device")
    if not yes:
        return Declined(ask, keeper)
    return Claimed(Keeper(ask.device, ask.name), keeper, "consent", ask)


def give_keep(state: TableState, role: str, device: str,
              name: str | None = None) -> Claimed | Refuse:
    """The director hands the table's time to ``device``: one that asks for
    it or is connected to the table now.  ``name``: what the director calls
    it (else the name it said)."""
    if role != "director":
        return Refuse("forbidden", "only the director hands a table's time over")
    closed = _open_for_keep(state)
    if closed is not None:
        return closed
    ask = state.asks.get(device)
    if ask is None and device not in state.present:
        return Refuse("invalid", f"keep_give.device: no device {device!r} is connected to "
                      "this table or asks for its time", field="keep_give.device")
    said = ask.name if ask is not None else state.present.get(device)
    keeper = Keeper(device, name or said, named=name is not None)
    return Claimed(keeper, state.keeper, "director", ask)


def provisional_final(state: TableState, *, offline_since_ms: int | None,
                      now_ms: int, bound_ms: int = PROVISIONAL_BOUND_MS) -> bool:
    """A provisional flag becomes final on its own once the keeper is back
    and reconciled, or after it was silent for ``bound_ms`` (wall ms)."""
    if not state.keeper_away:
        return True
    return offline_since_ms is not None and now_ms - offline_since_ms >= bound_ms
