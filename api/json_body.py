"""Request bodies that name a key twice are refused, whichever copy a reader would keep.

Why: `{"player_id": "p-1", "text": "gl", "text": "<abuse>"}` is judged by Python's parser on
its last `text`, while a chat server whose parser keeps the first delivers text railbird never
checked. JSON (RFC 8259) leaves duplicate names' meaning to each parser, so the only answer
both sides agree on is none: a 400 naming the key.
"""

from __future__ import annotations

import json
from typing import Any


class DuplicateKeyError(ValueError):
    """An object in the body names `path`'s last key twice."""

    def __init__(self, path: str) -> None:
        super().__init__(f"duplicate key {path.rsplit('.', 1)[-1]!r} in the JSON body (at {path})")
        self.path = path


class NestedTooDeepError(ValueError):
    """Deeper than the parser can go (a 64 KiB body of brackets)."""


class _Pairs(list[tuple[str, Any]]):
    """An object as its (key, value) pairs, every one kept."""


def check_unique_keys(body: bytes) -> None:
    """Raise `DuplicateKeyError` if any object in `body` names a key twice, `NestedTooDeepError`
    if it nests beyond the parser; a body that is not JSON is left to the route to refuse."""
    try:
        tree = json.loads(body, object_pairs_hook=_Pairs)
    except RecursionError as exc:
        raise NestedTooDeepError("the JSON body nests too deeply") from exc
    except ValueError:
        return
    found = _first_duplicate(tree, "$")
    if found is not None:
        raise DuplicateKeyError(found)


def _first_duplicate(value: Any, path: str) -> str | None:
    if isinstance(value, _Pairs):
        seen: set[str] = set()
        for key, _ in value:
            if key in seen:
                return f"{path}.{key}"
            seen.add(key)
        for key, inner in value:
            found = _first_duplicate(inner, f"{path}.{key}")
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found = _first_duplicate(inner, f"{path}[{index}]")
            if found is not None:
                return found
    return None
