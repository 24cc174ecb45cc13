"""Local-network helpers shared by the integration tests and the Kafka benchmark."""

from __future__ import annotations

import socket
import urllib.request


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def scrape_metrics(port: int) -> dict[str, float]:
    """A worker's Prometheus `/metrics` as {sample name with labels: value}; {} if unreachable."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2) as response:
            text = response.read().decode()
    except OSError:
        return {}
    pairs = (line.rsplit(" ", 1) for line in text.splitlines() if line[:1] != "#")
    return {name: float(value) for name, value in pairs}
