"""Build (or remove) the mypyc extensions of `railbird.native.NATIVE_MODULES`, in place.

usage: python scripts/build_native.py            build if a source changed since the last build
       python scripts/build_native.py --force    build anyway
       RAILBIRD_PURE_PYTHON=1 python scripts/build_native.py   remove them: the source runs

Run by `make install` (so by `make test` and `make demo`); about a minute on two cores when
something changed, a fraction of a second when nothing did. Needs mypy (a dev dependency, which
ships mypyc) and a C compiler.
"""

from __future__ import annotations

import ast
import os
import sys
import time
import warnings
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from railbird.native import (
    GROUP_NAME,
    MANIFEST,
    NATIVE_MODULES,
    ROOT,
    extension_of,
    pure_python_requested,
    stale_sources,
    write_manifest,
)

PACKAGES = ("railbird", "api", "ingest", "store", "rules", "detectors", "sim")


def project_imports(source: str) -> set[str]:
    """The project's own modules that `source` imports, as paths relative to ROOT: compiled
    code bakes in what it knew of them (attribute types, signatures), so they are hashed too."""
    tree = ast.parse((ROOT / source).read_text(), source)
    found: set[str] = set()
    for node in ast.walk(tree):
        names = (
            [node.module]
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
            else [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else []
        )
        for name in names:
            if name.split(".")[0] not in PACKAGES:
                continue
            path = Path(*name.split("."))
            for candidate in (path.with_suffix(".py"), path / "__init__.py"):
                if (ROOT / candidate).exists():
                    found.add(candidate.as_posix())
    return found


def built_extensions() -> list[Path]:
    """Every extension module in the project's packages (ours are the only ones)."""
    found = {
        path
        for package in PACKAGES
        for suffix in EXTENSION_SUFFIXES  # ".so" matches the longer suffixes' files too
        for path in (ROOT / package).rglob(f"*{suffix}")
    }
    return sorted(found)


def remove_build() -> int:
    removed = built_extensions()
    for path in removed:
        path.unlink()
    MANIFEST.unlink(missing_ok=True)
    return len(removed)


def up_to_date() -> bool:
    return all(extension_of(m) is not None for m in NATIVE_MODULES) and not stale_sources()


def build() -> None:
    # Imported here: only a build needs them, and the check above must stay cheap.
    from mypyc.build import mypycify
    from setuptools import setup

    # setuptools reads pyproject.toml and calls its `[tool.setuptools]` table beta: not ours.
    warnings.filterwarnings("ignore", message=r".*\[tool\.setuptools\].*beta")
    remove_build()  # a module dropped from the list must not leave its extension behind
    started = time.monotonic()
    os.chdir(ROOT)
    jobs = str(os.cpu_count() or 1)
    setup(
        name="railbird-native",
        ext_modules=mypycify(list(NATIVE_MODULES), opt_level="3", group_name=GROUP_NAME),
        script_args=["--quiet", "build_ext", "--inplace", "--parallel", jobs],
    )
    closure = set(NATIVE_MODULES)
    for module in NATIVE_MODULES:
        closure |= project_imports(module)
    write_manifest(sorted(closure))
    print(  # noqa: T201
        f"native: compiled {len(NATIVE_MODULES)} modules in {time.monotonic() - started:.0f} s"
    )


def main(argv: list[str]) -> int:
    if pure_python_requested():
        print(f"native: pure Python requested; removed {remove_build()} extensions")  # noqa: T201
        return 0
    if "--force" not in argv and up_to_date():
        return 0
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
