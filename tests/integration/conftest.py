"""Fixtures that start real services once per test session.

Locally a missing tool (java, mvn) or a broker that will not start skips the tests that need it,
with the reason. Under CI (``CI=true``) it fails them: a skipped integration suite in CI would
look green while testing nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import NoReturn

import pytest

from tests.integration.kafka_broker import Broker, BrokerUnavailableError, start_broker


def _unavailable(reason: str) -> NoReturn:
    if os.environ.get("CI") == "true":
        pytest.fail(f"Kafka broker unavailable under CI: {reason}", pytrace=False)
    pytest.skip(f"Kafka broker unavailable: {reason}")


@pytest.fixture(scope="session")
def kafka_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    """One broker for the whole session, on free ports, in a fresh temporary directory."""
    workdir = tmp_path_factory.mktemp("kafka")
    try:
        # Generous: a JVM boots in ~5 s alone, several times slower on a busy 2-core machine.
        broker = start_broker(workdir, timeout=180.0)
    except BrokerUnavailableError as exc:
        _unavailable(str(exc))
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture(scope="session")
def kafka_bootstrap(kafka_broker: Broker) -> str:
    """``host:port`` of the session's broker, for ``bootstrap_servers``."""
    return kafka_broker.bootstrap
