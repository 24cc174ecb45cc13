"""Garbage-collector settings for a long-running pipeline process, applied once it is warm.

Why: CPython's cyclic collector runs a young-generation pass every 700 net allocations, and a
chat message through the chat detectors allocates several hundred objects, so every second or
third message paid for a pass over everything young; the occasional full pass walks every
tracked object in the process, including the lexicon, the model's memos and detector state,
and lands as a millisecond-long stall on whichever message triggered it. The pipeline makes
almost no reference cycles (its garbage is freed by reference counting the moment it is
dropped), so collecting far less often costs little memory and removes most of the stalls
(`make bench-chat` and `make bench-kafka`; the numbers are in docs/design-numbers.md).

`freeze` moves everything built so far (lexicon, model arrays, compiled patterns, caches filled
during warm-up) out of the collector's sight for good, the way long-lived web workers do.
"""

from __future__ import annotations

import gc

# Young-generation pass after this many net allocations (CPython's default is 700).
YOUNG_THRESHOLD = 50_000
MIDDLE_THRESHOLD = 50
OLD_THRESHOLD = 100


def tune_for_streaming() -> None:
    """Call after the pipeline is built and warm: collect once, freeze, then collect rarely."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, OLD_THRESHOLD)
