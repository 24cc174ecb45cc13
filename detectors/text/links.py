"""Finds links in chat, including the spellings people use to slip them past filters.

"www dot x dot com", "x[.]com", "x (dot) com" and "hxxp://" are rewritten first; bare domains
count only with a top-level domain that is not also an everyday word ("ok.so" is not a link,
"x.com" is). Emails are not links here: they are personal data (see `pii_patterns`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

# The site railbird watches when the policy file's [site] names no domains: the room the
# contract's examples are set in. Its links are the site's own, neither ads nor outside links.
DEFAULT_SITE_DOMAINS: tuple[str, ...] = ("ultimatepoker.com",)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


STRONG_TLDS = _words(
    "com net org info biz xyz ru cn tk ml ga cf gq top club site online bet casino poker vip "
    "win pro cc ws su app link live shop store fun icu cyou buzz uk de nl pl eu au nz br jp kr "
    "vn ph ua kz by click today work life world space website tech games game cash money io"
)
# Real TLDs that are also words or chat slang: a link only with a scheme, www or a path.
WEAK_TLDS = _words("co gg me to ly us tv ai be it is in at so ca es fr ch gl la")
SHORTENERS = _words(
    "bit.ly tinyurl.com t.co goo.gl is.gd ow.ly buff.ly cutt.ly rb.gy shorturl.at tiny.cc "
    "rebrand.ly s.id v.gd t.ly bl.ink lnkd.in shorte.st adf.ly qrco.de bitly.com short.io"
)
# Hosts on a weak TLD that are links whatever follows: shorteners and messenger invites.
KNOWN_HOSTS = SHORTENERS | _words("t.me tg.me wa.me discord.gg linktr.ee twitch.tv")

_BRACKET_DOT = re.compile(r"\s*[\[\(\{<]\s*(?:\.|dot)\s*[\]\)\}>]\s*")
_WORD_DOT = re.compile(r"\s+(?:dot|d0t)\s+")
_SPACED_DOT = re.compile(r"(?<=[^\W_])\s+\.\s+(?=[^\W_])")
_HXXP = re.compile(r"\bhxxp(s?)(?=:|\[:\])")
_URL = re.compile(
    r"(?<![\w@.\-])"
    r"(?P<scheme>(?:https?|ftp)://)?"
    r"(?P<www>www\d?\.)?"
    r"(?P<host>(?:\d{1,3}(?:\.\d{1,3}){3})|(?:(?:[^\W_](?:[\w\-]{0,61}[^\W_])?\.)+"
    r"(?P<tld>[a-z]{2,24}|xn--[a-z0-9\-]+)))"
    r"(?P<port>:\d{1,5})?"
    r"(?P<path>/[^\s]*)?"
    r"(?![\w\-@])"
)


@dataclass(frozen=True, slots=True)
class Link:
    url: str
    host: str
    path: str
    has_scheme: bool
    is_ip: bool
    obfuscated: bool


def may_contain_link(lowered: str) -> bool:
    """Cheap pre-check: no dot, slash or the word "dot" means no link."""
    return "." in lowered or "/" in lowered or "dot" in lowered or "d0t" in lowered


_LINK_CHUNK = re.compile(r"(?<!\S)\S*\.[^\W_]\S*")
# Without obfuscation, every link's host has a dot followed by a letter or digit.
_DOT_ALNUM = re.compile(r"\.[a-z0-9]")


def may_hold_link(lowered: str) -> bool:
    """False only when `extract_links` certainly finds nothing: no spelled-out or bracketed
    dot to rewrite, and no dot followed by a letter or digit."""
    if "dot" in lowered or "d0t" in lowered or "[" in lowered or "(" in lowered or " ." in lowered:
        return True
    return "." in lowered and _DOT_ALNUM.search(lowered) is not None


def deobfuscate(lowered: str) -> str:
    text = _BRACKET_DOT.sub(".", lowered) if ("[" in lowered or "(" in lowered) else lowered
    if "dot" in text or "d0t" in text:
        text = _WORD_DOT.sub(".", text)
    if " ." in text:
        text = _SPACED_DOT.sub(".", text)
    if "hxxp" in text:
        text = _HXXP.sub(r"http\1", text).replace("[:]", ":")
    return text


def _accept(match: re.Match[str], host: str, is_ip: bool) -> bool:
    scheme, www, path, port = (match.group(g) for g in ("scheme", "www", "path", "port"))
    if is_ip:
        octets = [int(o) for o in host.split(".")]
        if any(o > 255 for o in octets):
            return False
        return bool(scheme or path or port) or (max(octets) >= 10 and octets[0] != 0)
    if host in KNOWN_HOSTS:
        return True
    tld = match.group("tld") or ""
    if scheme or www or tld.startswith("xn--"):
        return True
    if tld in STRONG_TLDS:
        return True
    return tld in WEAK_TLDS and bool(path and len(path) > 1)


@lru_cache(maxsize=4096)
def extract_links(text: str) -> tuple[Link, ...]:
    """Every link in `text`, de-obfuscated, with its host in lower case (cached: the link
    detectors all ask about the same message)."""
    lowered = text.lower()
    if not may_hold_link(lowered):
        return ()
    clean = deobfuscate(lowered)
    links: list[Link] = []
    for match in _url_matches(clean):
        host = match.group("host").rstrip(".")
        is_ip = match.group("tld") is None
        if not _accept(match, host, is_ip):
            continue
        url = match.group(0).rstrip(".,;:!?)")
        path = (match.group("path") or "").rstrip(".,;:!?)")
        links.append(
            Link(
                url=url,
                host=host,
                path=path,
                has_scheme=match.group("scheme") is not None,
                is_ip=is_ip,
                obfuscated=url not in lowered,
            )
        )
    return tuple(links)


def _url_matches(clean: str) -> Iterator[re.Match[str]]:
    """`_URL.finditer(clean)`, scanning only the whitespace-free chunks that hold a dot followed
    by a letter or digit: no part of a link is whitespace and every host has such a dot, so no
    match starts anywhere else, and a match never runs past its chunk (the lookbehind still
    sees the character before the chunk, and the lookahead reads whitespace as the end)."""
    for chunk in _LINK_CHUNK.finditer(clean):
        yield from _URL.finditer(clean, chunk.start(), chunk.end())


def is_own_domain(host: str, site_domains: tuple[str, ...]) -> bool:
    return any(host == d or host.endswith("." + d) for d in site_domains)


def registrable_label(host: str) -> str:
    """The name a person reads in a host: `ultimatepoker` in `www.ultimatepoker.com`."""
    labels = host.split(".")
    if len(labels) >= 3 and labels[-2] in {"co", "com", "net", "org"} and len(labels[-1]) == 2:
        return labels[-3]
    return labels[-2] if len(labels) >= 2 else host
