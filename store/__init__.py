"""The database schema and its migrations, shared by the write side (ingest) and read side (api)."""
