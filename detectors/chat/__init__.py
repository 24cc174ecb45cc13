"""Chat detectors: profanity, harassment, hate, impersonation, advertising, malicious links,
personal information, floods, repeated messages and emoji spam.

Besides the detectors (one file each): `reasons` builds the findings the lexical detectors
report, `bursts` holds the sliding windows the spam detectors share, `bot_wave` the memory of
repeated lines across players, and `harassment_patterns` / `harassment_gate` harassment's
vocabulary and the word gate in front of it.
"""
