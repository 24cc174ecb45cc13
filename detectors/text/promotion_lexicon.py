"""Self-promotion without a link: "subscribe to my channel", "check out my new song", "like this
comment if ...", "follow me on twitter", "sub 4 sub", "help me get 100 subscribers".

Poker chat uses every verb these need ("check", "like", "follow", "watch", "sub" for a
substitute), so no verb counts alone: each phrase ties a call to the audience to what it
promotes (the speaker's own channel, video, music or stream, a comment to like, a platform, a
subscriber count), and a bare media word is only read next to such a call. The object words are
rare in table talk, which is what the gates probe first.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from railbird.detectors.text.contact_lexicon import ascii_words, word_set


def _any(words: Collection[str]) -> str:
    """An alternation of `words`, longest first so that a word never loses to its prefix."""
    return "(?:" + "|".join(sorted(words, key=lambda w: (-len(w), w))) + ")"


_RECIPROCAL_WORDS = ("sub", "follow", "like")
# What someone promotes as their own ("my channel", "our new video").
_MEDIA_WORDS = word_set(
    "channel channels chanel chanell channle video videos vid vids vidz vidio vidios vlog vlogs "
    "song songs music musik muzik track tracks mixtape mixtapes album albums cover covers remix "
    "remixes beat beats page blog stream streams twitch playlist playlists content rap raps "
    "lyrics freestyle freestyles website youtube yt soundcloud clip clips podcast podcasts upload "
    "uploads shorts movie movies film films insta instagram twitter tiktok"
)
# Where people are asked to follow someone.
_PLATFORM_WORDS = word_set(
    "twitter tw insta instagram ig twitch tiktok fb facebook soundcloud youtube yt snapchat snap "
    "vine tumblr kick spotify"
)
# Words that show a message is about channels and music at all, for the weak calls below.
_MENTION_WORDS = word_set(
    "channel channels chanel video videos vids youtube youtuber subscribers subs song songs music "
    "rap rapper rapping singer covers remix remixes beats playlist mixtape album tracks soundcloud "
    "itunes spotify vlog podcast lyrics"
)
_OWN = r"(?:my|our|mah)"
_MEDIA = _any(_MEDIA_WORDS)
_PLATFORM = _any(_PLATFORM_WORDS)
# Subscribe and how people misspell it: subcribe, suscribe, sucscribe, subsribe, subscrible,
# subscribir. Every spelling holds "crib" or "srib", which is how the gates find it without a
# word list ("rib" alone would send every "terrible" through the patterns).
_SUBSCRIBE = r"su[bcs]{0,2}[cs]rib\w*"
_FILLER = r"(?:\s+[\w'&;-]+){0,3}?"
_RECIPROCAL = r"(?:sub|follow|like)"

PROMOTION = re.compile(
    "|".join(
        (
            # subscribe to my channel / sub my channel / subscribe 2 our page
            rf"\b(?:{_SUBSCRIBE}|sub)\s+(?:(?:2|to|too|on|at|in)\s+)?{_OWN}{_FILLER}\s+{_MEDIA}\b",
            # subscribe to me / subscribe back / subscribe if you agree
            rf"\b{_SUBSCRIBE}\s+(?:(?:2|to|too)\s+)?(?:me|us|mine|back|him|her|this channel|"
            r"if\s+(?:you|u|ur|your)|please|pls|plz)\b",
            # please subscribe / like and subscribe / don't forget to subscribe
            r"(?:\b(?:please|pls|plz|plez|plse|pleas|like|likes|and|n|forget to|sure to|come|could|"
            rf"would)|&amp;|&)\s+{_SUBSCRIBE}",
            # sub back / sub 4 sub / sub4sub / follow 4 follow / like4like / f4f
            r"\b(?:sub|follow|subscribe)\s+(?:(?:you|u)\s+)?back\b",
            rf"\b{_RECIPROCAL}\s?(?:4|for)\s?{_RECIPROCAL}\b|\b(?:s4s|f4f|l4l)\b",
            # check out my new song / watch my stream / visit our page / share my video
            r"\b(?:check(?:\s?out)?|chec?k\s+out|chk|look\s+at|(?:have|take)\s+a\s+look\s+at|"
            r"visit|watch|listen\s+to|go\s+to|come\s+(?:to|see|watch|check)|view|hear|"
            r"click(?:\s+on)?|stop\s+by|head\s+(?:over\s+)?to|support|shares?|spread)\s+"
            rf"(?:out\s+)?{_OWN}{_FILLER}\s+{_MEDIA}\b",
            r"\bvisit\s+(?:my|our)\s+profile\b",
            # check out this video on youtube / check out this dope channel
            r"\b(?:check(?:\s?out)?|look\s+at|watch|listen\s+to)\s+(?:this|that)\s+"
            r"(?:[\w']+\s+){0,2}?(?:channel|(?:video|vid|playlist|song|track)\s+(?:on|at)\s+"
            rf"{_PLATFORM})\b",
            # like this comment if ... / like this comment so everyone sees / 👍 this comment
            r"(?:^|[^\w\s']\s*|\b(?:please|pls|plz|and|guys|just|now|go)\s+)"
            r"(?:like|thumbs?\s?up|upvote)\s+(?:this|my)\s+(?:comment|video|vid|page|channel)\b"
            r"|\b(?:like|thumbs?\s?up|upvote)\s+(?:this|my)\s+(?:comment|video|vid|page|channel)"
            r"\s+(?:if|so\s+(?:that\s+)?(?:every\w*|others?|more|people|ppl|he|she|they|we|it)|for|4|"
            r"to|and|please|plz|pls|then|of\s+you)\b",
            # thumbs up so everyone sees / give it a like
            r"\b(?:thumbs?|thumb)\s?up\W{0,3}\s*(?:so\s+(?:that\s+)?(?:every\w*|others?|more|people|"
            r"ppl|he|she|they|we|it)|for\s+no\s+reason|and\s+share|please|plz|pls)\b",
            r"\bgive\s+(?:this|it|me|us|my\s+\w+)\s+a\s+(?:like|thumbs?\s?up|sub|follow)\b",
            # like & share / like and subscribe / subscribe like comment
            r"\blikes?\s*(?:&amp;|&|and|n|\+|,|/)\s*(?:share|comment|follow)\b",
            rf"\b{_SUBSCRIBE}\s*(?:&amp;|&|and|n|\+|,|/)?\s*(?:like|share|comment)\b",
            r"\bshare\s+(?:this|my|our)\s+(?:[\w']+\s+){0,2}?(?:video|vid|comment|page|song|"
            r"channel|playlist)\b",
            # follow me on twitter / follow us @handle
            rf"\bfollow\s+(?:me|us|him|her|my\s+\w+)\s+(?:on|at)\s+{_PLATFORM}\b",
            r"\bfollow\s+(?:me|us)\s*:?\s*@[a-z0-9_]{3}",
            # help me get 100 subscribers / become my first subscriber
            r"\b(?:help\s+me\s+(?:get|getting|reach|hit|to)|need|trying\s+to\s+(?:get|reach|hit)|"
            r"get\s+me\s+to|goal|road\s+to|shoot\s+for|reach)\s+(?:[\w.,]+\s+){0,3}?"
            r"\d[\d,.]*\s?k?\+?\s+(?:more\s+)?(?:subs|subscribers?|followers|views|likes)\b",
            r"\bbe(?:come)?\s+my\s+(?:first|1st|\d+(?:st|nd|rd|th))\s+(?:subscriber|follower)",
            # watch?v=... without the host: a video passed around by its id
            r"(?<![\w.])/?watch\?v=[\w-]{6}",
        )
    )
)
# A call to look at something, which is self-promotion only next to a media word (`MENTION`).
WEAK_CALL = re.compile(
    r"\b(?:check|chek|chk)\s+(?:(?:it|me|us|them|this|'?em|him|her)\s+)?out\b"
    r"|\b(?:take|have|give\s+\w+)\s+a\s+(?:look|listen|chance)\b"
    r"|\b(?:please|pls|plz|plez|go|come|just)\s+(?:check|watch|listen|look|visit|view|share)\b"
)
_LEAD = re.compile(r"^[^\w&]+")
MENTION = re.compile(r"\b" + _any(_MENTION_WORDS) + r"\b(?!\s*poker)")

# Every PROMOTION alternative and every MENTION holds one of these as a whole word run on ASCII
# text, or a literal that `promotion_literals` asks for (the subscribe spellings, video ids).
_PROMOTION_WORDS = (
    _MEDIA_WORDS
    | _PLATFORM_WORDS
    | _MENTION_WORDS
    | word_set(
        "sub subscriber subscribers subs follow followers views likes comment share s4s f4f l4l "
        "thumbs thumb thumbsup thumbup give shares profile"
    )
    # "sub4sub", "like4 like", "likefor like": the joined spellings of a reciprocal ask.
    | {a + c + b for a in _RECIPROCAL_WORDS for c in ("4", "for") for b in ("", *_RECIPROCAL_WORDS)}
    | {c + b for c in ("4", "for") for b in _RECIPROCAL_WORDS}
)
# Public for detectors that fold this gate into one wider word probe.
PROMOTION_WORDS = _PROMOTION_WORDS
_PROMOTION_LITERAL = re.compile(
    r"crib|srib|sub|s4s|f4f|l4l|follow|views|likes|comment|share|thumb|give|profile|watch\?v=|"
    r"like\s?(?:4|for)|"
    + "|".join(sorted(_MEDIA_WORDS | _PLATFORM_WORDS | _MENTION_WORDS, key=lambda w: (-len(w), w)))
)


def promotion_literals(lowered: str, words: Collection[str]) -> bool:
    """The part of `may_promote` on ASCII text that no word probe answers: the subscribe
    spellings, video ids, and "like 4 like" (both halves common words, so both are asked)."""
    return (
        "crib" in lowered
        or "srib" in lowered
        or "watch?v=" in lowered
        or ("like" in words and ("4" in words or "for" in words))
    )


def may_promote(lowered: str, words: Collection[str] | None = None) -> bool:
    """False only when `promotion(lowered)` is certainly None; `words` is `ascii_words` of the
    message, when it is ASCII."""
    if words is None:
        words = ascii_words(lowered)
    if words is not None:
        return not _PROMOTION_WORDS.isdisjoint(words) or promotion_literals(lowered, words)
    return _PROMOTION_LITERAL.search(lowered) is not None


def promotion(lowered: str, words: Collection[str] | None = None) -> tuple[str, int, int] | None:
    """The self-promotion phrase in `lowered` and where it is (start, end), if any: a call to
    the audience tied to what it promotes, or a weak call ("check it out") in a message that
    names a channel, a video or music."""
    if not may_promote(lowered, words):
        return None
    return read_promotion(lowered)


def read_promotion(lowered: str) -> tuple[str, int, int] | None:
    """`promotion` without its gate: what the gate must never change."""
    found = PROMOTION.search(lowered)
    if found is not None:
        return _LEAD.sub("", found.group(0)), found.start(), found.end()
    call = WEAK_CALL.search(lowered)
    if call is None:
        return None
    mention = MENTION.search(lowered)
    if mention is None:
        return None
    return f"{call.group(0)} ... {mention.group(0)}", call.start(), call.end()
