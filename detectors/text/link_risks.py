"""What makes a link dangerous: shorteners, raw IP hosts, punycode or non-Latin hosts,
look-alikes of the site's own domain, executable or archive downloads.

Shared by `malicious_link`, which flags these, and `advertising`, which must leave them to it.
A look-alike is judged on the "skeleton" of the name a person reads: confusable letters folded
(0->o, 1->l, rn->m, Cyrillic o->o) and hyphens dropped, then compared with the site's own name
by edit distance or containment, so `ultimatep0ker.com` and `ultimatepoker-login.xyz` are
caught while `ultimatepoker.com` itself passes.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from railbird.detectors.text.links import (
    SHORTENERS,
    Link,
    is_own_domain,
    may_hold_link,
    registrable_label,
)

EXECUTABLE = ("exe", "scr", "bat", "cmd", "msi", "apk", "jar", "vbs", "ps1", "hta", "lnk", "dll")
ARCHIVE = ("zip", "rar", "7z", "tar", "gz", "tgz", "iso", "dmg", "pkg", "xz")
_FILE_IN_PATH = re.compile(r"\.(" + "|".join(EXECUTABLE + ARCHIVE) + r")(?:$|[?#])")
BARE_EXECUTABLE = re.compile(r"\b[\w\-]+\.(?:" + "|".join(EXECUTABLE) + r")\b")
# What every `BARE_EXECUTABLE` match holds, led by a literal so the scan skips ahead.
DOT_EXECUTABLE = re.compile(r"\.(?:" + "|".join(EXECUTABLE) + r")")
_DIGITS_AND_HYPHEN = {"0": "o", "1": "l", "i": "l", "3": "e", "5": "s", "4": "a", "7": "t"}
# Cyrillic, Armenian and Greek letters that look Latin (escaped: they are invisible in review).
_LOOKALIKE_FROM = (
    "\u0430\u0435\u043e\u0440\u0441\u0445\u0443\u043a\u0456"
    "\u0455\u0458\u0501\u0261\u0578\u057d\u04cf\u03bd\u03bf"
)
_LOOKALIKE_TO = "aeopcxyklsjdgnulvo"
_CONFUSABLE = str.maketrans(
    {
        **_DIGITS_AND_HYPHEN,
        "8": "b",
        "-": "",
        **dict(zip(_LOOKALIKE_FROM, _LOOKALIKE_TO, strict=True)),
    }
)


def skeleton(label: str) -> str:
    folded = unicodedata.normalize("NFKD", label)
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return folded.translate(_CONFUSABLE).replace("rn", "m").replace("vv", "w")


def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, giving up (returning limit + 1) once it must exceed `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


@lru_cache(maxsize=4096)
def lookalike_of(host: str, site_domains: tuple[str, ...]) -> str | None:
    """The own domain `host` imitates, if it does (cached: the same hosts come back)."""
    if is_own_domain(host, site_domains):
        return None
    label = skeleton(registrable_label(host))
    whole = skeleton(host.replace(".", ""))
    for domain in site_domains:
        own = skeleton(registrable_label(domain))
        if len(own) < 4:
            continue
        if label == own or own in whole:
            return domain
        if edit_distance(label, own, 2 if len(own) >= 8 else 1) <= (2 if len(own) >= 8 else 1):
            return domain
    return None


@lru_cache(maxsize=8192)
def may_hold_link_lower(text: str) -> bool:
    """`may_hold_link` of the lower-cased text, memoised per text: most chat holds no link, and
    a hit is one C-level lookup instead of lower-casing the message and several scans."""
    return may_hold_link(text.lower())


def link_risks(link: Link, site_domains: tuple[str, ...]) -> list[str]:
    if is_own_domain(link.host, site_domains):
        return []
    risks: list[str] = []
    if link.host in SHORTENERS or link.host.removeprefix("www.") in SHORTENERS:
        risks.append(f"URL shortener {link.host} hides the target")
    if link.is_ip:
        risks.append(f"raw IP host {link.host}")
    if "xn--" in link.host:
        risks.append(f"punycode host {link.host}")
    elif not link.host.isascii():
        risks.append(f"non-Latin letters in host {link.host}")
    imitated = lookalike_of(link.host, site_domains)
    if imitated:
        risks.append(f"{link.host} imitates {imitated}")
    download = _FILE_IN_PATH.search(link.path)
    if download:
        risks.append(f"download of a .{download.group(1)} file")
    return risks
