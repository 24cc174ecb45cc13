"""The Kafka edge, and the only code that imports kafka-python: typed clients, the two stages
of `railbird run` (table-scoped and site-scoped detectors), intake and event-time merge,
outputs, checkpoints (store, then produced records, then offsets) and metrics.
"""
