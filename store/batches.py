"""What the store process writes for a run of requests: one transaction, or, if some record
cannot be written, every record on its own, so that only the bad one is set aside.

Why: the worker validated every record before handing it over, so a record that fails here
means the worker's decoder and the store's faster re-reading disagree (a bug), or the database
refuses the value. If the whole batch failed, the worker would stop without committing, and
the restarted worker would meet the same record and stop again: one record would stall the
stream for good. Set aside, it goes to the dead-letter table with the reason, and the stream
goes on. A failing *database* (unreachable, locked, schema missing) is no record's fault, and
neither is an error that every record of a batch hits: those still stop the worker, which then
commits nothing past them.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from typing import Any

import orjson
from sqlalchemy.exc import InterfaceError, OperationalError

from railbird.detectors.events import AnyEvent, parse_event_as
from railbird.detectors.text.redaction import redact
from railbird.rules.actions import Action
from railbird.rules.flags import Flag
from railbird.store.writer import StoreWriter

log = logging.getLogger(__name__)

# The database itself failing: never set a record aside for these.
DATABASE_FAILURES = (OperationalError, InterfaceError)
# A request to the store process: (ticket, "batch", [(event type, raw)], flags, actions) or
# (ticket, "dead", source, position, reason, raw).
Request = tuple[Any, ...]
# What a set-aside record is, for the dead letter: (description, its text), built only if needed.
Describe = Callable[[], tuple[str, str]]
Item = tuple[Request, Describe]  # one record's own request, and its description


def write_requests(writer: StoreWriter, requests: list[Request]) -> int:
    """Write `requests` in one transaction; if that fails for a record's sake, find the records
    that fail by halving the batch, store the rest and dead-letter those. Returns how many were
    set aside."""
    try:
        write_together(writer, requests)
        return 0
    except DATABASE_FAILURES:
        raise
    except Exception as exc:
        log.warning(
            "store batch failed (%s: %s); looking for the records that fail",
            type(exc).__name__,
            exc,
        )
        return _write_apart(writer, requests, exc)


def write_together(writer: StoreWriter, requests: list[Request]) -> None:
    events: list[AnyEvent] = []
    chat_records: list[bytes] = []
    flags: list[Flag] = []
    actions: list[Action] = []
    for _ticket, kind, *body in requests:
        if kind == "batch":
            raw_events, batch_flags, batch_actions = body
            for event_type, raw in raw_events:
                if event_type == "chat":  # most of the traffic: straight to a row
                    chat_records.append(raw)
                else:
                    events.append(parse_event_as(raw, event_type))
            flags.extend(batch_flags)
            actions.extend(batch_actions)
        else:
            writer.write_dead_letter(*body)
    if events or chat_records or flags or actions:
        writer.write(events, flags, actions, chat_records)


class SystematicStoreError(RuntimeError):
    """The fault is not in single records: every record of a batch failed alone, or more
    records were set aside than a bad record now and then explains."""


class SetAsideBudget:
    """How many records may be set aside before the fault counts as systematic.

    Why: in a quiet stream a batch may hold one record, which the every-record test cannot
    tell from a bad record; a bug that every record hits would then dead-letter the stream one
    record at a time. Past `floor` records, and more than `share` of all records seen, the
    store stops instead (and the worker with it, committing nothing past it).
    """

    def __init__(self, share: float = 0.01, floor: int = 100) -> None:
        self.share, self.floor = share, floor
        self.records = 0
        self.set_aside = 0

    def spend(self, records: int, set_aside: int) -> None:
        self.records += records
        self.set_aside += set_aside
        if self.set_aside > max(self.floor, self.share * self.records):
            raise SystematicStoreError(
                f"{self.set_aside} of {self.records} records could not be stored, more than "
                f"{self.share:.0%}: the fault is not in single records"
            )


def write_apart(
    writer: StoreWriter,
    events: list[AnyEvent],
    flags: list[Flag],
    actions: list[Action],
    first: Exception,
) -> int:
    """`StoreSink`'s batch of parsed events, written apart after `first` failed it: the same
    search and dead letters as the store process's batches. Returns how many were set aside."""
    if isinstance(first, DATABASE_FAILURES):
        raise first
    log.warning(
        "store batch failed (%s: %s); looking for the records that fail",
        type(first).__name__,
        first,
    )
    raw = [(e.type, orjson.dumps(e.model_dump(mode="json"))) for e in events]
    return _write_apart(writer, [(None, "batch", raw, flags, actions)], first)


def _write_apart(writer: StoreWriter, requests: list[Request], first: Exception) -> int:
    items: list[Item] = []
    for _ticket, kind, *body in requests:
        if kind != "batch":
            items.append(((None, kind, *body), lambda: ("dead letter", "")))
            continue
        raw_events, flags, actions = body
        for event_type, raw in raw_events:
            items.append(
                ((None, "batch", [(event_type, raw)], [], []), _describe_raw(event_type, raw))
            )
        for flag in flags:
            items.append(((None, "batch", [], [flag], []), _describe_output("flag", flag)))
        for action in actions:
            items.append(((None, "batch", [], [], [action]), _describe_output("action", action)))
    failed = _bisect(writer, items, first)
    if len(failed) == len(items) > 1:
        raise SystematicStoreError(f"every record of the batch failed: {first}") from first
    for describe, error in failed:
        what, raw = describe()
        digest = hashlib.blake2b(raw.encode(), digest_size=16).hexdigest()
        reason = f"{what} could not be stored: {type(error).__name__}: {error}"
        log.error("set aside in the dead-letter table: %s", reason)
        writer.write_dead_letter("store", f"raw {digest}", reason, raw)
    return len(failed)


def _bisect(
    writer: StoreWriter, items: list[Item], failure: Exception | None = None
) -> list[tuple[Describe, Exception]]:
    """Write `items` together (unless `failure` says that already failed), else each half the
    same way: a bad record among n costs about 2 log2(n) transactions instead of n, and every
    good record is committed once."""
    if failure is None:
        try:
            write_together(writer, [request for request, _describe in items])
            return []
        except DATABASE_FAILURES:
            raise
        except Exception as exc:
            failure = exc
    if len(items) == 1:
        return [(items[0][1], failure)]
    middle = len(items) // 2
    return _bisect(writer, items[:middle]) + _bisect(writer, items[middle:])


def _describe_raw(event_type: str, raw: bytes) -> Describe:
    def describe() -> tuple[str, str]:
        text = redact(raw.decode("utf-8", "replace"))  # as every dead letter in the store
        try:
            data = orjson.loads(raw)
            ident = next(data[k] for k in ("message_id", "event_id", "hand_id") if k in data)
        except (orjson.JSONDecodeError, TypeError, StopIteration):
            ident = "(no id)"
        return f"{event_type} record {ident}", text

    return describe


def _describe_output(kind: str, output: Flag | Action) -> Describe:
    def describe() -> tuple[str, str]:
        ident = output.flag_id if isinstance(output, Flag) else output.action_id
        try:
            raw = orjson.dumps(output.to_dict()).decode()
        except (TypeError, ValueError) as exc:
            raw = f"({kind} not serialisable: {exc})"
        return f"{kind} {ident}", raw

    return describe
