"""The mypyc-compiled modules: built when expected, refused when stale, and equal to the source.

Why an equivalence test on top of the suite: mypyc changes the meaning of a few constructs
(a fixed-length tuple is unboxed, so a tuple sentinel is no longer identical to itself; a
frozen dataclass's ClassVar becomes an instance field), and such a change shows up as flags
that differ, not as an error. The suite runs the compiled modules; this test also runs the
Python source, in a subprocess on a copy without the extensions, and compares every flag and
action on the same streams.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from railbird import cli, native
from railbird.native import (
    NATIVE_MODULES,
    extension_of,
    pure_python_requested,
    stale_sources,
    write_manifest,
)
from tests.paths import REPO

SOURCE = NATIVE_MODULES[0]


def _fake_build(root: Path) -> Path:
    """A root holding one listed module's source and an (empty) extension beside it."""
    path = root / SOURCE
    path.parent.mkdir(parents=True)
    path.write_text("X = 1\n")
    path.with_name(path.stem + EXTENSION_SUFFIXES[0]).write_bytes(b"")
    return path


def test_a_current_build_is_not_stale(tmp_path: Path) -> None:
    _fake_build(tmp_path)
    manifest = tmp_path / "manifest.json"
    write_manifest([SOURCE], tmp_path, manifest)
    assert stale_sources(tmp_path, manifest) == []


def test_an_edited_source_makes_its_build_stale(tmp_path: Path) -> None:
    source = _fake_build(tmp_path)
    manifest = tmp_path / "manifest.json"
    write_manifest([SOURCE], tmp_path, manifest)
    source.write_text("X = 2\n")
    assert stale_sources(tmp_path, manifest) == [SOURCE]


def test_an_edited_import_of_a_compiled_module_makes_the_build_stale(tmp_path: Path) -> None:
    _fake_build(tmp_path)
    imported = tmp_path / "detectors" / "events.py"
    imported.write_text("class ChatEvent: ...\n")
    manifest = tmp_path / "manifest.json"
    write_manifest([SOURCE, "detectors/events.py"], tmp_path, manifest)
    imported.write_text("class ChatEvent:\n    text: str\n")
    assert stale_sources(tmp_path, manifest) == ["detectors/events.py"]


def test_extensions_without_a_manifest_are_stale(tmp_path: Path) -> None:
    _fake_build(tmp_path)
    assert stale_sources(tmp_path, tmp_path / "missing.json") == [SOURCE]


def test_sources_without_extensions_are_never_stale(tmp_path: Path) -> None:
    path = tmp_path / SOURCE
    path.parent.mkdir(parents=True)
    path.write_text("X = 1\n")
    assert extension_of(SOURCE, tmp_path) is None
    assert stale_sources(tmp_path, tmp_path / "missing.json") == []


def test_the_cli_refuses_to_run_a_stale_build(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "stale_sources", lambda: ["detectors/chat_flood.py"])
    assert cli.main(["scan", "no-such-file.jsonl"]) == 2
    err = capsys.readouterr().err
    assert "detectors/chat_flood.py" in err and "make native" in err


def _require_build() -> None:
    if pure_python_requested():
        pytest.skip(f"{native.PURE_PYTHON_ENV} is set: the Python source runs, nothing compiled")
    if extension_of(SOURCE) is None and os.environ.get("CI") != "true":
        pytest.skip("the mypyc extensions are not built here (run `make native`)")


def test_every_listed_module_runs_compiled_and_current() -> None:
    """What the benchmarks measure is what `make install` builds; under CI this must hold."""
    _require_build()
    for source in NATIVE_MODULES:
        module = importlib.import_module(source[: -len(".py")].replace("/", "."))
        assert str(module.__file__).endswith(tuple(EXTENSION_SUFFIXES)), source
    assert stale_sources() == []


_RUN_STREAMS = """
import json, sys
from bench.kafka_runs import chat_messages, with_distinct_texts
from detectors.events import event_from_dict
from detectors.registry import build_detectors
from rules.pipeline import Pipeline
from sim.config import SimConfig
from sim.run import simulate

chat = chat_messages(12000, seed=3)
streams = {
    "chat": chat,
    "distinct chat": with_distinct_texts(chat, 4),
    "sim day": [e for kind, e in simulate(SimConfig(seed=11, hours=2.0)) if kind == "event"],
}
out = {}
for name, raw in streams.items():
    pipeline = Pipeline(build_detectors())
    rows = []
    for data in raw:
        outcome = pipeline.process(event_from_dict(data))
        rows += [f.to_dict() for f in outcome.flags]
        rows += [a.to_dict() for a in outcome.actions]
    out[name] = rows
# The compiled text helpers, text by text: a difference there may not change any flag of the
# streams above (a dropped "rt" token moves an ML score a little) but is a difference.
from detectors.card_talk import parse
from detectors.loud_text import count_emoji, shout_level
from detectors.message_fingerprint import fingerprint
from detectors.ml_features import bucket_ids, tokens
from detectors.text_normalise import normalise
edges = ["rt rt ''", "RT @someone: gg http://x.co/a", "١٢٣ chips", "sooooo baaad", "A♠ K♥ folded"]
texts = sorted({str(e.get("text", "")) for e in chat} | set(edges))
out["texts"] = [
    [tokens(t), bucket_ids(t), fingerprint(t), normalise(t), shout_level(t, 6, 0.7),
     count_emoji(t), repr(parse(t))]
    for t in texts
]
json.dump(out, sys.stdout, sort_keys=True, default=str)
"""


def _run_streams(pythonpath: Path) -> dict[str, list[object]]:
    # One hash seed for both runs: the simulator names players by iterating a set.
    env = {**os.environ, "PYTHONPATH": str(pythonpath), "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [sys.executable, "-c", _RUN_STREAMS],
        env=env,
        cwd=pythonpath,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"streams under {pythonpath} failed:\n{done.stderr[-3000:]}"
    result: dict[str, list[object]] = json.loads(done.stdout)
    return result


def test_compiled_modules_flag_exactly_what_their_source_flags(tmp_path: Path) -> None:
    _require_build()
    pure = tmp_path / "pure"
    skip = shutil.ignore_patterns(*(f"*{s}" for s in EXTENSION_SUFFIXES), "__pycache__")
    for package in ("railbird", "detectors", "rules", "ingest", "sim", "bench", "store", "tests"):
        shutil.copytree(REPO / package, pure / package, ignore=skip)
    compiled, source = _run_streams(REPO), _run_streams(pure)
    assert set(compiled) == set(source)
    for name in compiled:
        assert len(compiled[name]) > 20, f"{name}: too few flags to compare"
        assert compiled[name] == source[name], f"{name}: compiled and source flags differ"
