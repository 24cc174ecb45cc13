"""The Kafka edge, and the only code that imports kafka-python: typed clients, the stages
of `railbird run` (`kafka.topology` says what each is keyed by), intake and event-time merge,
outputs, checkpoints (store, then produced records, then offsets) and metrics.
"""
