"""I/O edge for streams: raw records in, through the one pipeline, to the store and topics.

`decode` turns a raw record into a contract event or a rejection naming where it failed; one
sub-package per edge: `files/` (JSON Lines and `railbird scan`), `kafka/` (the only code that
imports kafka-python: clients, the worker loop, its checkpoints), `phh/` (public PHH hand
histories). `live_feed` paces the demo's simulated stream. The edges never import each other.
"""
