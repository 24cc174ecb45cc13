"""A policy file followed while a worker runs: re-read when it changes, kept if it is bad."""

from __future__ import annotations

import logging
import time
from pathlib import Path

from railbird.rules.policy_file import Policy, PolicyError, default_policy, load_policy

log = logging.getLogger(__name__)


class PolicyWatch:
    """The policy in `path` (None: the shipped one), re-read at most every `every` seconds
    when the file's modification time or size changed."""

    def __init__(self, path: Path | None, every: float = 5.0) -> None:
        self.path = path
        self.every = every
        self._policy = default_policy() if path is None else load_policy(path)
        self._stamp = self._file_stamp()
        self._checked = time.monotonic()

    def current(self) -> Policy:
        return self._policy

    def reload(self) -> Policy:
        """Re-read the file now (`POST /v1/policy/reload`); `PolicyError` if it is bad, and the
        policy in use stays."""
        if self.path is not None:
            policy = load_policy(self.path)
            self._stamp = self._file_stamp()
            if policy.text != self._policy.text:
                log.warning("policy reloaded: %s -> %s", self._policy.version, policy.version)
            self._policy = policy
        return self._policy

    def changed(self) -> bool:
        """Whether a new, valid policy was read now (a bad one is logged and not taken)."""
        if self.path is None or time.monotonic() - self._checked < self.every:
            return False
        self._checked = time.monotonic()
        stamp = self._file_stamp()
        if stamp == self._stamp:
            return False
        self._stamp = stamp
        try:
            policy = load_policy(self.path)
        except PolicyError as exc:
            log.error("policy not reloaded, still %s: %s", self._policy.version, exc)
            return False
        if policy.text == self._policy.text:
            return False
        log.warning("policy reloaded: %s -> %s", self._policy.version, policy.version)
        self._policy = policy
        return True

    def _file_stamp(self) -> tuple[float, int] | None:
        if self.path is None:
            return None
        try:
            stat = self.path.stat()
        except OSError:
            return None
        return (stat.st_mtime, stat.st_size)
