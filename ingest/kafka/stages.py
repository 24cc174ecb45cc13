"""The two stages of `railbird run`: table-scoped detectors scale out, site-scoped ones do not.

The input topics are keyed and co-partitioned by table, so a detector whose state is keyed by
table sees everything it needs on the partitions its worker owns: the *tables* stage, one
consumer group (`group_id`) whose members share the partitions (range assignor). A detector
whose state spans tables (`scope = "site"`: tournament-wide sit-outs and bounty hunts, private
messages read against the recipient's hand at another table) must see the whole stream in one
process: the *site* stage, a second consumer group (`<group_id>-site`) on the same topics whose
assignor (`kafka.assignor`) gives every partition to one member and nothing to the others.
Every `railbird run` joins both groups by default, so any of them can take the site stage over:
when its owner dies the group rebalances, a standby gets every partition and rebuilds the site
detectors' state from the replay window, as any takeover does. The site stage merges all
partitions in event time like the table stage, so its flags are `scan`'s.

Only the table stage stores events and dead-letters bad records; the site stage decodes the
same records again (a bad one is skipped there) and stores and produces only its own flags and
actions. Its cost per record is a decode and the three site detectors, once for the whole site
however many workers share the tables: it, not the table stage, bounds one site's throughput.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Literal

from railbird.detectors.detector import Detector, detector_scope
from railbird.ingest.kafka.assignor import SingleOwnerAssignor
from railbird.ingest.kafka.client_types import Consumer
from railbird.ingest.kafka.clients import make_consumer
from railbird.ingest.kafka.settings import KafkaSettings

log = logging.getLogger(__name__)

StageName = Literal["tables", "site"]
STAGES: tuple[StageName, ...] = ("tables", "site")
ESCALATION = "escalation"  # the ladders' stage (`kafka.escalation`): no detectors of its own
_SCOPE_OF_STAGE = {"tables": "table", "site": "site"}


def chosen_stages(choice: str) -> tuple[str, ...]:
    """The stages `--stage` / `RAILBIRD_KAFKA_STAGE` names ("all" = every one)."""
    if choice == "all":
        return (*STAGES, ESCALATION)
    if choice not in (*STAGES, ESCALATION):
        raise ValueError(f"unknown stage {choice!r}: tables, site, escalation or all")
    return (choice,)


def stage_detectors(detectors: Sequence[Detector], stage: StageName) -> list[Detector]:
    """The detectors `stage` runs: those whose declared scope is the stage's."""
    scope = _SCOPE_OF_STAGE[stage]
    return [d for d in detectors if detector_scope(d) == scope]


def make_stage_consumer(settings: KafkaSettings, stage: StageName) -> Consumer:
    if stage == "tables":
        return make_consumer(settings)
    return make_consumer(
        settings,
        group_id=settings.site_group_id,
        client_id=f"{settings.client_id}-site",
        # An instance: it remembers whether this member owns the stream (sticky ownership).
        partition_assignment_strategy=(SingleOwnerAssignor(),),
    )
