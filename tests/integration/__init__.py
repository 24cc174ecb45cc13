"""Tests against real services (a Kafka broker, PostgreSQL) started by the project's scripts."""
