"""What a server process sets once it is warm, so a check is not kept waiting by the process
itself: the interpreter lock's switch interval, and the cyclic garbage collector.

Why the switch interval: the restriction cache refreshes on a thread beside the event loop;
when a request arrives while that thread runs Python, the loop waits for the interpreter lock
until the running thread is asked to drop it, 5 ms by default, and a request needing the lock
a few times waits that a few times. At 0.5 ms the wait is a tenth, for a few more switches
when both threads have work (rare: the refresh sleeps most of every second).

Why the collector: a full collection walks every tracked object in the process (the cached
restrictions, the detectors' state, the lexicons, the app), a stall of tens of milliseconds on
whichever request triggers it. The check's garbage is freed by reference counting as it is
dropped, so collecting rarely costs little memory; what was built at start and at each full
reload of the cache is frozen out of the collector's sight (`gc.freeze`), as long-lived web
workers do. Process-wide settings: only a server's factory applies them, never a test's app.
"""

from __future__ import annotations

import gc
import sys

SWITCH_INTERVAL_SECONDS = 0.0005
# Young-generation pass after this many net allocations (CPython's default is 700).
YOUNG_THRESHOLD = 50_000
MIDDLE_THRESHOLD = 50
OLD_THRESHOLD = 100


def tune_server_process() -> None:
    """Call once the app has started (caches loaded): collect, freeze, then collect rarely,
    and hand the interpreter lock over sooner."""
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, OLD_THRESHOLD)


def freeze_survivors() -> None:
    """After a full reload of the restriction cache: what it built lives until the next one."""
    gc.freeze()
