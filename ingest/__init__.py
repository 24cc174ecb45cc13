"""I/O edge for streams: files, Kafka and the simulator in; the store and topics out."""
