"""The CLI names its handlers and imports one only when its command runs.

Why it matters: every process the Kafka worker spawns re-imports the `railbird` script, so what
`railbird.cli` imports at module level, each store and site process pays for at start.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from railbird import cli


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = cli._parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


@pytest.mark.parametrize("command", sorted(_subcommands()))
def test_every_command_names_a_handler_that_exists(command: str) -> None:
    handler = _subcommands()[command].get_default("handler")
    assert isinstance(handler, str) and ":" in handler
    assert callable(cli._handler(handler))


def test_importing_the_cli_does_not_import_the_pipeline() -> None:
    heavy = ("detectors", "ingest", "rules", "store", "sqlalchemy", "pydantic", "kafka", "fastapi")
    code = (
        "import sys, railbird.cli; "
        "names = {m.removeprefix('railbird.').split('.')[0] for m in sys.modules}; "
        f"print(sorted(names & set({heavy!r})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]"


def test_an_unknown_handler_name_fails_loudly() -> None:
    with pytest.raises(AttributeError):
        cli._handler("railbird.commands:no_such_command")
