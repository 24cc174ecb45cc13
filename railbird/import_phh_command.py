"""`railbird import-phh FILES... [--out PATH] [--with-table-events]`: PHH -> contract JSON Lines."""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import IO

from railbird.ingest.phh.importer import import_records


def run_import_phh(args: argparse.Namespace) -> int:
    missing = [str(p) for p in args.files if not p.is_file()]
    if missing:
        print(f"railbird import-phh: no such file: {', '.join(missing)}", file=sys.stderr)  # noqa: T201
        return 2
    count = 0
    with ExitStack() as stack:
        out: IO[str] = stack.enter_context(args.out.open("w")) if args.out else sys.stdout
        records = import_records(
            args.files, with_table_events=args.with_table_events, on_skip=_report_skip
        )
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            count += record["type"] == "hand"
    print(f"railbird import-phh: {count} hands", file=sys.stderr)  # noqa: T201
    return 0


def _report_skip(path: Path, reason: str) -> None:
    print(f"railbird import-phh: skipping {path}: {reason}", file=sys.stderr)  # noqa: T201
