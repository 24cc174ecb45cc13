"""`railbird` command line: parses arguments and hands off to one command module each.

Handlers are named ("module:function") and imported only once their command is chosen. Why:
the Kafka worker's helper processes are spawned, and a spawned child re-imports the `railbird`
script, so everything this module imports, every child pays again at start: importing the
commands eagerly (detectors, SQLAlchemy, pydantic models) cost each store process ~0.7 s of
CPU, while the worker it serves was already consuming.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from railbird import train_command, train_play_command

RUN_DESCRIPTION = """\
Consumes chat.messages, poker.table-events and poker.hands (RAILBIRD_KAFKA_CHAT_TOPIC,
..._TABLE_TOPIC, ..._HAND_TOPIC), runs every detector and the rules, stores events, flags and
actions (RAILBIRD_DATABASE_URL) and produces flags to moderation.flags and actions to
moderation.actions. Consumers of those two topics must upsert by flag_id / action_id: a flag
is re-sent with the same id when its severity rises, and after a crash.

Three stages, each a consumer group whose members share the partitions (start several workers
for throughput): the table stage (group RAILBIRD_KAFKA_GROUP_ID: the input topics, keyed by
table), the keyed stage in a child process (group <group>-keyed: events re-keyed by tournament,
text and player through the internal topic <group>-keyed), and the escalation stage on a thread
(group <group>-escalation): the first two send each flag's offences to <group>-offences keyed
by player, and the escalation stage keeps one ladder per player and decides the actions in
event time, as scan does. Private messages reach the table of their recipient's hand through
<group>-hands.

A record that is not a contract event goes to <topic>.dlq with the reason, the source topic,
partition and offset in its headers (cut to 256 KiB, its size in original_size), and the
stream goes on. Each stage checkpoints its tasks' state to <group>-<stage>-state every
RAILBIRD_KAFKA_SNAPSHOT_INTERVAL_SECONDS; a restart restores it and replays what followed.

Every setting is an environment variable RAILBIRD_KAFKA_* (docs/deploy.md, Process settings):
BOOTSTRAP_SERVERS, GROUP_ID, the topic names and DLQ_SUFFIX, COMMIT_INTERVAL_MS,
KEYED_PARTITIONS, MARK_HOLD_MS, SNAPSHOT_INTERVAL_SECONDS, METRICS_PORT.
SIGTERM finishes the batch, commits and exits 0.
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="railbird", description="Trust-and-safety pipeline for online poker."
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log every flag (INFO)")
    sub = parser.add_subparsers(dest="command", required=True)

    scan = sub.add_parser("scan", help="run every detector and the rules over a file of events")
    scan.add_argument("events", type=Path, help="JSON Lines file of contract events ('-': stdin)")
    scan.add_argument("--out", type=Path, help="write flags here (default: stdout)")
    scan.add_argument("--actions", type=Path, help="also write the actions the rules take")
    scan.add_argument(
        "--store", action="store_true", help="also store events, flags and actions in the database"
    )
    scan.set_defaults(handler="railbird.commands:scan")

    sim = sub.add_parser("simulate", help="generate realistic traffic with injected violations")
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--tournaments", type=int, default=1)
    sim.add_argument("--cash-tables", type=int, default=2)
    sim.add_argument("--hours", type=float, default=1.0)
    sim.add_argument("--players", type=int, help="players per tournament")
    sim.add_argument(
        "--intensity", type=float, help="collusion teams act on this share of opportunities"
    )
    sim.add_argument("--violation-scale", type=float, help="multiplies every chat-violation rate")
    sim.add_argument(
        "--team-intensities",
        type=float,
        nargs="+",
        help="per-team intensities, e.g. 0.4 0.85: team k gets the k-th value",
    )
    sim.add_argument("--bounty-teams", type=int, help="bounty-collusion teams per tournament")
    sim.add_argument("--out", type=Path, required=True, help="events JSON Lines")
    sim.add_argument("--truth", type=Path, required=True, help="truth JSON Lines")
    sim.set_defaults(handler="railbird.commands:simulate")

    phh = sub.add_parser("import-phh", help="turn PHH hand histories into contract hand events")
    phh.add_argument("files", type=Path, nargs="+", help=".phh / .phhs files")
    phh.add_argument("--out", type=Path, help="write JSON Lines here (default: stdout)")
    phh.add_argument(
        "--with-table-events", action="store_true", help="also emit hand_start/hand_end"
    )
    phh.set_defaults(handler="railbird.commands:import_phh")

    train = sub.add_parser("train", help="train the ML chat scorer (weights as plain arrays)")
    train_command.add_arguments(train)
    train.set_defaults(handler="railbird.train_command:run_train")
    train_play = sub.add_parser(
        "train-play",
        help="train the honest-decision model the collusion detectors read play against",
    )
    train_play_command.add_arguments(train_play)
    train_play.set_defaults(handler="railbird.train_play_command:run_train_play")

    serve = sub.add_parser(
        "serve",
        help="serve the API over RAILBIRD_DATABASE_URL (keys from RAILBIRD_API_KEYS)",
    )
    serve.add_argument("--host", help="listen here (default: RAILBIRD_HOST, else 127.0.0.1)")
    serve.add_argument("--port", type=int, help="(default: RAILBIRD_PORT, else 8000)")
    serve.add_argument("--workers", type=int, default=1, help="server processes (default 1)")
    serve.add_argument(
        "--no-relay",
        action="store_true",
        help="do not relay restriction changes to moderation.actions even when "
        "RAILBIRD_KAFKA_BOOTSTRAP_SERVERS is set (another process runs `railbird relay`)",
    )
    serve.set_defaults(handler="railbird.serve_command:run_serve")

    relay = sub.add_parser(
        "relay",
        help="send restriction changes (applied, lifted, expired) from the store's outbox "
        "to moderation.actions",
    )
    relay.add_argument("--once", action="store_true", help="send what is pending, then exit")
    relay.set_defaults(handler="railbird.relay_command:run_relay")

    demo = sub.add_parser("demo", help="live simulated traffic -> pipeline -> SQLite -> API")
    demo.add_argument("--port", type=int, help="(default: RAILBIRD_PORT, else 8000)")
    demo.add_argument("--speed", type=float, default=1.0, help="simulated seconds per second")
    demo.add_argument("--seed", type=int, default=7)
    demo.add_argument(
        "--database",
        type=Path,
        help="SQLite file (default: RAILBIRD_DATABASE_URL, else var/demo.db); kept across runs",
    )
    demo.add_argument("--fresh", action="store_true", help="empty the demo's SQLite file first")
    demo.set_defaults(handler="railbird.commands:demo")

    run = sub.add_parser(
        "run",
        help="Kafka worker: consume the input topics through the pipeline",
        description=RUN_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument("--metrics-port", type=int, help="serve Prometheus /metrics on this port")
    run.add_argument(
        "--exit-when-idle",
        type=float,
        metavar="SECONDS",
        help="exit once the input has been caught up this long and every stage of the "
        "deployment is done (every partition committed to its end, whoever owns it)",
    )
    run.add_argument("--no-store", action="store_true", help="do not write to the database")
    run.add_argument(
        "--stage",
        choices=("all", "tables", "keyed", "escalation"),
        help="which stages to run (default: RAILBIRD_KAFKA_STAGE, else all); placed apart, each "
        "of the three must run somewhere",
    )
    run.set_defaults(handler="railbird.run_command:run_worker")

    produce = sub.add_parser("produce", help="replay a file of events into the Kafka topics")
    produce.add_argument("events", type=Path, help="JSON Lines file of events ('-': stdin)")
    produce.add_argument("--rate", type=float, help="records per second (default: full speed)")
    produce.set_defaults(handler="railbird.produce_command:run_produce")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        return int(_handler(args.handler)(args))
    except Exception as exc:
        reason = _unreachable_database(exc)
        if reason is None:
            raise
        print(f"railbird {args.command}: {reason}", file=sys.stderr)  # noqa: T201
        return 2


def _unreachable_database(exc: BaseException) -> str | None:
    """One line for a database that cannot be opened or reached (SQLAlchemy's
    OperationalError: refused connection, bad credentials, unwritable file), instead of a
    traceback; None for anything else. SQLAlchemy is looked up, not imported: a command that
    never loaded it cannot have raised its error, and the CLI stays quick to import."""
    errors = sys.modules.get("sqlalchemy.exc")
    if errors is None or not isinstance(exc, errors.OperationalError):
        return None
    cause = " ".join(str(getattr(exc, "orig", None) or exc).split())
    return (
        f"database unavailable ({cause}); check the database URL (RAILBIRD_DATABASE_URL, or "
        f"--database) and that its server is up"
    )


def _handler(name: str) -> Callable[[argparse.Namespace], int]:
    module, _, function = name.partition(":")
    found: Callable[[argparse.Namespace], int] = getattr(importlib.import_module(module), function)
    return found
