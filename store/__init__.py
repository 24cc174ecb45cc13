"""The database: schema and migrations, and the write side both edges use (upserts keyed by the
deterministic ids, batched, optionally in a child process); the API reads the same tables.
"""
