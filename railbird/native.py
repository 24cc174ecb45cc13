"""The hot modules compiled to C with mypyc, and the check that the compiled copies are current.

Why compile: one Kafka worker's table stage is bound by one interpreter thread, and most of its
time per chat message is the detectors' own Python (state lookups, windows, attribute reads,
calls). mypyc turns those type-annotated modules into C extensions with the same behaviour. Measured
(docs/benchmarks-kafka.md, session 8): the detector chain alone ~10% less CPU a message, the
Kafka worker end to end no measurable gain, so this was reverted; kept in history. The modules
stay plain Python in the repository: `make install` builds the extensions beside them
(`scripts/build_native.py`), `RAILBIRD_PURE_PYTHON=1` skips that, and without a build the
Python source runs as before.

Why a manifest: an extension module shadows its `.py`, so a source edited after the build would
silently not run. The build records a hash of every source it compiled (and of the project
modules they import); `stale_sources` reports any that changed, and the CLI refuses to start
on a stale build rather than run code that is not what the repository says.
"""

from __future__ import annotations

import hashlib
import json
import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# One list, read by the build script, the CLI check and the tests. Chosen by measured cost per
# chat message (the table stage's detectors, their state and the pipeline), each checked for
# the constructs whose meaning mypyc changes (see docs/native.md).
NATIVE_MODULES: tuple[str, ...] = (
    "detectors/state.py",
    "detectors/message_burst.py",
    "detectors/text_normalise.py",
    "detectors/abuse_lexicon.py",
    "detectors/abuse_terms.py",
    "detectors/abuse_words.py",
    "detectors/message_fingerprint.py",
    "detectors/loud_text.py",
    "detectors/ml_features.py",
    "detectors/card_talk.py",
    "detectors/contact_lexicon.py",
    "detectors/link_parsing.py",
    "detectors/name_directory.py",
    "detectors/plain_text.py",
    "detectors/chat_reasons.py",
    "detectors/harassment_gate.py",
    "detectors/harassment_patterns.py",
    "detectors/pii_patterns.py",
    "rules/pipeline.py",
    "ingest/kafka_merge.py",
    "ingest/kafka_progress.py",
)
# The shared library of the group lives in a package (not at the top level) so that the
# editable install, which maps packages only, finds it.
GROUP_NAME = "railbird._native"
MANIFEST = ROOT / "railbird" / "native-manifest.json"
PURE_PYTHON_ENV = "RAILBIRD_PURE_PYTHON"


def pure_python_requested() -> bool:
    return os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0", "false", "no")


def extension_of(source: str, root: Path = ROOT) -> Path | None:
    """The compiled extension beside `source` (a path relative to `root`), if one was built."""
    stem = root / source[: -len(".py")]
    for suffix in EXTENSION_SUFFIXES:
        candidate = stem.with_name(stem.name + suffix)
        if candidate.exists():
            return candidate
    return None


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_manifest(sources: list[str], root: Path = ROOT, manifest: Path = MANIFEST) -> None:
    """Record what a build compiled against: each source (relative to `root`) and its hash."""
    hashes = {source: digest(root / source) for source in sorted(sources)}
    manifest.write_text(json.dumps({"sources": hashes}, indent=1, sort_keys=True) + "\n")


def stale_sources(root: Path = ROOT, manifest: Path = MANIFEST) -> list[str]:
    """Sources whose compiled copies no longer match them; empty when nothing is compiled.

    A build without its manifest (extensions copied or built by hand) counts as stale in
    every compiled module: nothing says what source it came from."""
    compiled = [source for source in NATIVE_MODULES if extension_of(source, root) is not None]
    if not compiled:
        return []
    try:
        recorded: dict[str, str] = json.loads(manifest.read_text())["sources"]
    except (OSError, ValueError, KeyError):
        return compiled
    stale = [source for source in compiled if source not in recorded]
    for source, expected in recorded.items():
        path = root / source
        if not path.exists() or digest(path) != expected:
            stale.append(source)
    return sorted(set(stale))


def stale_message(stale: list[str]) -> str:
    shown = ", ".join(stale[:5]) + (f" and {len(stale) - 5} more" if len(stale) > 5 else "")
    return (
        f"the compiled (mypyc) modules are older than their source ({shown}); run `make "
        f"native` to rebuild them, or `make pure` to remove them and run the Python source"
    )
