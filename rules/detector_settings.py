"""What the policy file tells the detectors: the room's own world (`[site]`) and the knobs an
operator owns (`[detectors.<name>]`), checked against each detector's fields.

Why here and not in process settings: the site's domains, its staff accounts and how many
messages make a flood are moderation decisions, like the ladders, so they live in the file
analysts read and reload, are validated with the line at fault, and are stamped with its
version. A detector says which of its fields are the operator's (`operator_settings`); the
rest (statistics, model thresholds, memory lengths) stay its own dataclass defaults. A field
named like a `[site]` fact (`site_domains`, `staff_player_ids`) is filled from `[site]` in every
detector that has one, so the room is described once.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from types import MappingProxyType
from typing import Any

import orjson
from pydantic import TypeAdapter, ValidationError

from railbird.detectors.detector import Detector
from railbird.detectors.registry import DETECTOR_TYPES, build_detectors

# (dotted name in the file, message) -> the exception that names the line of that name.
ErrorAt = Callable[[str, str], Exception]

# `[site]` key -> the detector field it fills, wherever a detector has that field.
SITE_FACTS: Mapping[str, str] = MappingProxyType(
    {"domains": "site_domains", "staff_player_ids": "staff_player_ids"}
)
_DOMAIN = re.compile(r"^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")
_MAX_ID_CHARS = 256  # as the contract's ids (`detectors.events`)


@dataclass(frozen=True, slots=True)
class DetectorSettings:
    """The validated `[site]` and `[detectors.*]` of a policy file.

    `overrides` is what `detectors.registry.build_detectors` takes: per detector name, the
    fields the file sets (site facts included), already of the fields' types.
    """

    overrides: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        """Every operator setting and site fact in force, the file's or the default, as plain
        data (what `GET /v1/policy` and the console's policy page show)."""
        site: dict[str, Any] = {}
        detectors: dict[str, dict[str, Any]] = {}
        for detector_type in DETECTOR_TYPES:
            given = self.overrides.get(detector_type.name, {})
            defaults = _init_defaults(detector_type)
            for fact, field_name in SITE_FACTS.items():
                if field_name in defaults:
                    site.setdefault(fact, _plain(given.get(field_name, defaults[field_name])))
            owned = operator_settings(detector_type)
            if owned:
                detectors[detector_type.name] = {
                    name: _plain(given.get(name, defaults[name])) for name in owned
                }
        ordered = {fact: site[fact] for fact in SITE_FACTS if fact in site}
        return {"site": ordered, "detectors": detectors}


def operator_settings(detector_type: type[Detector]) -> tuple[str, ...]:
    """The fields of `detector_type` an operator may set in `[detectors.<name>]`."""
    declared: tuple[str, ...] = getattr(detector_type, "operator_settings", ())
    return declared


def read_detector_settings(
    site_table: Any, detectors_table: Any, error: ErrorAt
) -> DetectorSettings:
    """`[site]` and `[detectors]` of a policy file (either may be absent: `{}`);
    `error(name, message)` makes the exception naming the line of `name`."""
    if not isinstance(site_table, dict):
        raise error("site", "[site] must be a table")
    unknown = sorted(set(site_table) - set(SITE_FACTS))
    if unknown:
        raise error(f"site.{unknown[0]}", f"[site] takes {', '.join(SITE_FACTS)}")
    site = _site_facts(site_table, error)
    if not isinstance(detectors_table, dict):
        raise error("detectors", "[detectors] must hold one table per detector")
    by_name = {t.name: t for t in DETECTOR_TYPES}
    overrides: dict[str, dict[str, Any]] = {}
    for name, table in detectors_table.items():
        where = f"detectors.{name}"
        detector_type = by_name.get(name)
        if detector_type is None:
            raise error(where, f"unknown detector {name!r} (one of {', '.join(sorted(by_name))})")
        if not isinstance(table, dict):
            raise error(where, f"[{where}] must be a table of settings")
        overrides[name] = _detector_fields(detector_type, table, where, error)
    for detector_type in DETECTOR_TYPES:
        fields = _init_defaults(detector_type)
        for fact, value in site.items():
            if SITE_FACTS[fact] in fields:
                overrides.setdefault(detector_type.name, {})[SITE_FACTS[fact]] = value
    for name, values in overrides.items():
        _construct(by_name[name], values, f"detectors.{name}", error)
    return DetectorSettings(
        MappingProxyType({n: MappingProxyType(v) for n, v in sorted(overrides.items())})
    )


def _site_facts(table: dict[str, Any], error: ErrorAt) -> dict[str, Any]:
    facts: dict[str, Any] = {}
    if "domains" in table:
        domains = table["domains"]
        if not isinstance(domains, list) or not all(isinstance(d, str) for d in domains):
            raise error("site.domains", "[site] domains must be a list of domain names")
        for domain in domains:
            if not _DOMAIN.match(domain.lower()):
                raise error(
                    "site.domains",
                    f"[site] domains: {domain!r} is not a domain name (like 'example.com')",
                )
        facts["domains"] = tuple(dict.fromkeys(d.lower() for d in domains))
    if "staff_player_ids" in table:
        ids = table["staff_player_ids"]
        if not isinstance(ids, list) or not all(
            isinstance(i, str) and 0 < len(i) <= _MAX_ID_CHARS for i in ids
        ):
            raise error(
                "site.staff_player_ids",
                f"[site] staff_player_ids must be a list of player ids (1 to {_MAX_ID_CHARS} "
                "characters)",
            )
        facts["staff_player_ids"] = frozenset(ids)
    return facts


def _detector_fields(
    detector_type: type[Detector], table: dict[str, Any], where: str, error: ErrorAt
) -> dict[str, Any]:
    owned = operator_settings(detector_type)
    hints = typing.get_type_hints(detector_type, include_extras=True)
    defaults = _init_defaults(detector_type)
    values: dict[str, Any] = {}
    for key, given in table.items():
        if key in SITE_FACTS.values():
            fact = next(f for f, name in SITE_FACTS.items() if name == key)
            raise error(f"{where}.{key}", f"{key} is the site's: set it once in [site] {fact}")
        if key not in owned:
            takes = ", ".join(owned) if owned else "no settings (its fields are not policy)"
            raise error(f"{where}.{key}", f"[{where}] has no setting {key!r}; it takes {takes}")
        try:
            value = TypeAdapter(hints[key]).validate_json(orjson.dumps(given), strict=True)
        except (ValidationError, TypeError) as exc:
            raise error(f"{where}.{key}", f"[{where}] {key}: {_reason(exc)}") from None
        default = defaults[key]
        if isinstance(default, Mapping) and isinstance(value, Mapping):
            # A per-channel limit given for one channel keeps the others' defaults.
            value = MappingProxyType({**default, **value})
        values[key] = value
    return values


def _construct(
    detector_type: type[Detector], values: Mapping[str, Any], where: str, error: ErrorAt
) -> None:
    """Build the detector once with these values: what it refuses (`__post_init__`) is a
    policy error too, caught here rather than when a stage starts."""
    try:
        detector_type(**values)
    except (ValueError, TypeError) as exc:
        raise error(where, f"[{where}]: {exc}") from None


def _reason(exc: Exception) -> str:
    if not isinstance(exc, ValidationError):
        return str(exc)
    first = exc.errors()[0]
    at = ".".join(str(part) for part in first["loc"] if part != "[key]")
    got = orjson.dumps(first["input"]).decode()
    return f"{at + ': ' if at else ''}{first['msg'].lower()} (got {got})"


def _init_defaults(detector_type: type[Detector]) -> dict[str, Any]:
    """A detector's constructor fields and their default values."""
    if not dataclasses.is_dataclass(detector_type):
        return {}
    found: dict[str, Any] = {}
    for f in dataclasses.fields(detector_type):
        if not f.init:
            continue
        if f.default is not dataclasses.MISSING:
            found[f.name] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            found[f.name] = f.default_factory()
    return found


def _plain(value: Any) -> Any:
    """A setting as JSON shows it: sets sorted, tuples as lists, durations in seconds."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return sorted(_plain(v) for v in value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, timedelta):
        return value.total_seconds()
    return value


def detectors_for(settings: DetectorSettings, only: set[str] | None = None) -> list[Detector]:
    """Every registered detector (or those named in `only`), built with a policy's settings:
    what `scan`, `serve`'s chat check, the demo and the Kafka workers all run."""
    return build_detectors(overrides=settings.overrides, only=only)
