"""Words that move players off the site: messengers, handles, sales pitches, calls to action.

Shared by `advertising` (someone selling) and `personal_info` (someone asking for contact
details), so the two agree on what "telegram" or "dm me" means. Each pattern alone is weak
evidence ("rakeback" is ordinary poker talk); the detectors combine them.
"""

from __future__ import annotations

import re

# Messenger names that are not everyday words.
MESSENGER = re.compile(
    r"\b(?:telegram+|whats\s?app|whatsap|discord|skype|snap\s?chat|insta(?:gram)?|facebook|"
    r"wechat|kik|viber|tiktok|tik tok|signal app|line app|icq|telegr)\b"
)
# Short forms that only count next to a handle or a contact verb.
MESSENGER_SHORT = re.compile(r"\b(?:tg|wa|ig|fb|snap|signal|twitter|dc)\b")
HANDLE = re.compile(r"(?<![\w.])@[a-z0-9_][a-z0-9_.]{2,31}|\b[a-z0-9_.]{2,32}#\d{4}\b")
COMMERCIAL = re.compile(
    r"\b(?:rake\s?back|cash\s?back|chips? (?:for sale|seller|dealer|shop)|"
    r"(?:sell|selling|buy|buying|cheap|cheapest)\s+(?:\w+\s+)?(?:chips|coins|gold|accounts?|"
    r"rakeback|bonus|deals?)|"
    r"bonus code|promo code|referral code|ref code|use (?:my )?code|deposit bonus|"
    r"free (?:chips|bonus|spins|coins)|\d+\s?% off|discount|best (?:prices?|rates?)|"
    r"earn \$?\d+|make money|\$\d+\s?(?:a|per) day|investment|forex|crypto signals?|"
    r"staking (?:offers?|deals?)|coaching (?:offer|session|available)|for sale|wholesale|"
    r"chips? sell(?:ing|er)|instant delivery|(?:deals?|offers?|services?) available|"
    r"\d+\s?% (?:deposit |welcome |first deposit )?bonus|code [a-z]*\d*[a-z0-9]{3,}|"
    r"my (?:channel|stream|site|shop|store|server)|subscribe|follow me)\b"
)
CALL_TO_ACTION = re.compile(
    r"\b(?:msg|message|pm|dm|text|contact|hit|inbox|whisper|write|reach|add|call|find|"
    r"ping|hmu)\s+(?:me|us)\b|\bhmu\b|\b(?:visit|check out|go to|join|click|sign up|register|"
    r"sign up at|available at|details at|deals at|play at|play on)\b"
)
PRICE = re.compile(r"\$\s?\d+|\b\d+\s?(?:usd|eur|usdt|btc|bucks)\b")


def messenger_named(lowered: str) -> str | None:
    """The messenger a message names, if any (short forms only next to a handle)."""
    found = MESSENGER.search(lowered)
    if found:
        return found.group(0)
    short = MESSENGER_SHORT.search(lowered)
    if short and HANDLE.search(lowered):
        return short.group(0)
    return None


# Asking for credentials is phishing (impersonation), not advertising, whatever else it says.
CREDENTIALS = re.compile(
    r"\b(?:password|passwd|pass word|login|log-in|log in details|2fa|pin|otp|"
    r"verification code|security code|sms code)\b"
)
