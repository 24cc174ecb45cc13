"""Detector state to bytes and back, without pickle: what a changelog or a snapshot carries.

Why not pickle: loading a pickle runs whatever code it names, and a changelog topic is input
like any other. This codec writes plain JSON (compressed) with a tag on every non-JSON value,
and when reading builds only what it knows: builtin containers, datetimes, and instances of
railbird's own detector and rule classes (dataclasses or slotted classes, filled attribute by
attribute without running any code of theirs). Anything else is refused on both sides.

What it keeps, because detectors rely on it:
- shared references: an object reachable from two places (one `_Sender` in a directory and in
  an index) is one object again after a round trip, so a mutation is seen by both;
- exact values: tuples stay tuples (state keys), sets stay sets, `Counter`s and `deque`s keep
  their type (and `maxlen`), floats keep NaN and infinities, datetimes their time zone.
"""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import math
import re
import zlib
from collections import Counter, OrderedDict, defaultdict, deque
from datetime import datetime, timedelta
from typing import Any

import orjson

_OWN_PACKAGES = ("railbird.detectors.", "railbird.rules.")
_INT64 = 2**63
_DEFAULT_FACTORIES: dict[str, Any] = {
    "int": int,
    "list": list,
    "set": set,
    "dict": dict,
    "float": float,
    "Counter": Counter,
}
_COUNT = re.compile(r"count\((-?\d+)\)")
MAX_DECODED_BYTES = 1 << 30  # a snapshot inflating past 1 GiB is not one of ours
FORMAT = 1  # the first byte of every encoded value: a later format is refused, not misread


class StateCodecError(ValueError):
    """A value the codec will not write, or bytes it will not read."""


def encode(value: Any) -> bytes:
    """`value` as compressed tagged JSON."""
    body = orjson.dumps(_Encoder().walk(value))
    return bytes([FORMAT]) + zlib.compress(body, 1)


def decode(data: bytes, max_bytes: int = MAX_DECODED_BYTES) -> Any:
    """What `encode` wrote; anything wrong with `data` is a `StateCodecError`, never another
    exception (a renamed class, a bad reference, a tree of the wrong shape, a bomb)."""
    if not data or data[0] != FORMAT:
        raise StateCodecError(f"unknown state format {data[:1]!r}")
    try:
        inflate = zlib.decompressobj()
        body = inflate.decompress(data[1:], max_bytes)
        if inflate.unconsumed_tail:
            raise StateCodecError(f"state inflates past {max_bytes:,} bytes")
        return _Decoder().build(orjson.loads(body))
    except StateCodecError:
        raise
    except Exception as exc:  # whatever the bytes hold, one kind of error for the caller
        raise StateCodecError(f"unreadable state ({type(exc).__name__}: {exc})") from None


def _attributes(value: Any) -> list[tuple[str, Any]]:
    """The attributes that make up an instance: dataclass fields, else slots, else `__dict__`."""
    cls = type(value)
    if dataclasses.is_dataclass(value):
        names = [f.name for f in dataclasses.fields(value)]
    else:
        names = [s for c in cls.__mro__ for s in getattr(c, "__slots__", ())]
        names += list(getattr(value, "__dict__", {}))
    return [(name, getattr(value, name)) for name in dict.fromkeys(names) if hasattr(value, name)]


def _own_class(cls: type) -> bool:
    return cls.__module__.startswith(_OWN_PACKAGES) and not issubclass(cls, BaseException)


class _Encoder:
    def __init__(self) -> None:
        self.ids: dict[int, int] = {}
        self.keep: list[Any] = []  # alive until the end, so no id is reused mid-walk

    def _ref(self, value: Any) -> tuple[bool, int]:
        known = self.ids.get(id(value))
        if known is not None:
            return True, known
        number = self.ids[id(value)] = len(self.ids)
        self.keep.append(value)
        return False, number

    def walk(self, value: Any) -> Any:
        if value is None or isinstance(value, bool | str):
            return value
        if isinstance(value, int):
            return value if -_INT64 <= value < _INT64 else ["bi", str(value)]
        if isinstance(value, float):
            return value if math.isfinite(value) else ["f", repr(value)]
        if isinstance(value, datetime):
            return ["dt", value.isoformat()]
        if isinstance(value, timedelta):
            return ["td", value.days, value.seconds, value.microseconds]
        if isinstance(value, tuple) and type(value) is tuple:
            return ["t", [self.walk(v) for v in value]]
        if isinstance(value, frozenset):
            return ["fs", [self.walk(v) for v in value]]
        if type(value) is itertools.count:
            match = _COUNT.fullmatch(repr(value))
            if match is None:
                raise StateCodecError(f"cannot write {value!r}: only whole-number counts")
            return ["n", int(match.group(1))]
        seen, number = self._ref(value)
        if seen:
            return ["r", number]
        return self._container(value, number)

    def _container(self, value: Any, number: int) -> Any:
        kind = type(value)
        if kind is list:
            return ["l", number, [self.walk(v) for v in value]]
        if kind is set:
            return ["s", number, [self.walk(v) for v in value]]
        if kind is deque:
            return ["q", number, value.maxlen, [self.walk(v) for v in value]]
        if kind in (dict, Counter, OrderedDict):
            tag = {dict: "d", Counter: "C", OrderedDict: "od"}[kind]
            return [tag, number, [[self.walk(k), self.walk(v)] for k, v in value.items()]]
        if kind is defaultdict:
            factory = getattr(value.default_factory, "__name__", None)
            if factory not in _DEFAULT_FACTORIES:
                raise StateCodecError(f"cannot write a defaultdict of {value.default_factory!r}")
            pairs = [[self.walk(k), self.walk(v)] for k, v in value.items()]
            return ["dd", number, factory, pairs]
        if isinstance(kind, type) and _own_class(kind) and not callable(value):
            attrs = [[name, self.walk(v)] for name, v in _attributes(value)]
            name = f"{kind.__module__}:{kind.__qualname__}"
            if isinstance(value, dict):  # one of ours built on a dict or list: its items too
                pairs = [[self.walk(k), self.walk(v)] for k, v in value.items()]
                return ["o", number, name, attrs, ["d", pairs]]
            if isinstance(value, list):
                return ["o", number, name, attrs, ["l", [self.walk(v) for v in value]]]
            if isinstance(value, set | frozenset | tuple):
                raise StateCodecError(f"cannot write {name}: built on a set or tuple")
            return ["o", number, name, attrs]
        raise StateCodecError(f"cannot write a {kind.__module__}.{kind.__qualname__} in state")


class _Decoder:
    def __init__(self) -> None:
        self.made: dict[int, Any] = {}
        self.classes: dict[str, type] = {}

    def build(self, tree: Any) -> Any:
        if not isinstance(tree, list):
            if tree is None or isinstance(tree, bool | int | float | str):
                return tree
            raise StateCodecError(f"unexpected {type(tree).__name__} in state")
        tag = tree[0]
        if tag == "bi":
            return int(tree[1])
        if tag == "f":
            return float(tree[1])
        if tag == "dt":
            return datetime.fromisoformat(tree[1])
        if tag == "td":
            return timedelta(days=tree[1], seconds=tree[2], microseconds=tree[3])
        if tag == "t":
            return tuple(self.build(v) for v in tree[1])
        if tag == "fs":
            return frozenset(self.build(v) for v in tree[1])
        if tag == "n":
            return itertools.count(tree[1])
        if tag == "r":
            return self.made[tree[1]]
        return self._container(tag, tree)

    def _container(self, tag: str, tree: list[Any]) -> Any:
        number = tree[1]
        if tag in ("l", "s"):
            made: Any = [] if tag == "l" else set()
            self.made[number] = made
            items = [self.build(v) for v in tree[2]]
            if tag == "l":
                made.extend(items)
            else:
                made.update(items)
            return made
        if tag == "q":
            queue: deque[Any] = deque(maxlen=tree[2])
            self.made[number] = queue
            queue.extend(self.build(v) for v in tree[3])
            return queue
        if tag in ("d", "C", "od", "dd"):
            mapping: Any
            if tag == "dd":
                mapping = defaultdict(_DEFAULT_FACTORIES[tree[2]])
            else:
                mapping = {"d": dict, "C": Counter, "od": OrderedDict}[tag]()
            self.made[number] = mapping
            for k, v in tree[-1]:
                key = self.build(k)  # the key first: it is written first
                mapping[key] = self.build(v)
            return mapping
        if tag == "o":
            cls = self._class(tree[2])
            make: Any = cls.__new__  # no __init__: the attributes are set below
            instance: Any = make(cls)
            self.made[number] = instance
            for name, value in tree[3]:
                object.__setattr__(instance, name, self.build(value))
            if len(tree) > 4:
                self._fill(tree[2], instance, *tree[4])
            return instance
        raise StateCodecError(f"unknown tag {tag!r} in state")

    def _fill(self, name: str, instance: Any, kind: str, items: list[Any]) -> None:
        if kind == "d" and isinstance(instance, dict):
            for k, v in items:
                key = self.build(k)
                instance[key] = self.build(v)
        elif kind == "l" and isinstance(instance, list):
            instance.extend(self.build(v) for v in items)
        else:
            raise StateCodecError(f"{kind!r} items for {name}, which cannot hold them")

    def _class(self, name: str) -> type:
        cls = self.classes.get(name)
        if cls is not None:
            return cls
        module_name, _, qualname = name.partition(":")
        if not module_name.startswith(_OWN_PACKAGES):
            raise StateCodecError(f"refusing to build {name}: not a railbird detector or rule")
        found: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            found = getattr(found, part, None)
        if not isinstance(found, type) or not _own_class(found):
            raise StateCodecError(f"refusing to build {name}: no such state class")
        self.classes[name] = found
        return found
