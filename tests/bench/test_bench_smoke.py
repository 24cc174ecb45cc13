"""The chat benchmarks still run end to end, on a couple of hundred messages (no timing asserts)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_chat_quality_reports_every_set(capsys: pytest.CaptureFixture[str]) -> None:
    quality = load("chat_quality")
    assert quality.main(["--limit", "200", "--no-baselines"]) == 0
    out = capsys.readouterr().out
    assert "## Poker-chat set" in out
    assert "| railbird |" in out
    assert "slang traps" in out
    if (quality.DATA / "davidson_train.csv").exists():
        assert "validation split" in out and "whole file: 200 messages" in out


def test_chat_quality_scores_are_plain_arithmetic() -> None:
    quality = load("chat_quality")
    score = quality.score([True, True, False, False], [True, False, True, False])
    assert (score.tp, score.fp, score.fn) == (1, 1, 1)
    assert score.precision == score.recall == score.f1 == 0.5
    assert quality.primary({"profanity", "harassment"}) == "harassment"
    assert quality.primary(set()) == "clean"


def test_chat_speed_runs_the_chain_and_the_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    speed = load("chat_speed")
    assert speed.main(["--messages", "200"]) == 0
    out = capsys.readouterr().out
    assert "railbird chain" in out and "better-profanity 0.7.0" in out
    assert "Table-chat stream: 200 chat messages" in out
    assert "200 distinct messages" in out
    assert out.count("Chain vs better-profanity") == 2


def test_speed_stream_times_only_chat_events() -> None:
    speed = load("chat_speed")
    stream, chats = speed.table_chat_stream(150)
    assert len(chats) == 150
    assert all(stream[i].type == "chat" for i in chats)
    assert len(stream) > len(chats)  # the table events and hands between them are fed too


def test_speed_messages_are_distinct() -> None:
    speed = load("chat_speed")
    texts = speed.messages(500)
    assert len(texts) == len(set(texts)) == 500
