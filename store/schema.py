"""Tables railbird keeps. The site logs every conversation for retrospective investigation, so
chat, table events and hands are stored beside the flags that point into them.

Every write is an upsert on the contract's own ids: replaying the same input changes nothing.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

chat_messages = Table(
    "chat_messages",
    metadata,
    Column("message_id", String(64), primary_key=True),
    Column("ts", DateTime(timezone=True), nullable=False),
    Column("player_id", String(64), nullable=False),
    Column("screen_name", String(128)),
    Column("channel", String(16), nullable=False),
    Column("table_id", String(64)),
    Column("tournament_id", String(64)),
    Column("recipient_id", String(64)),
    Column("kind", String(16), nullable=False),
    Column("text", Text, nullable=False),
    # The text is not the text as sent: personal data redacted, or bidi controls shown as
    # marks (`store.chat_rows.kept_for_analysts`).
    Column("redacted", Boolean, nullable=False, default=False),
    Column("extra", JSON),
    Index("ix_chat_player_ts", "player_id", "ts"),
    Index("ix_chat_table_ts", "table_id", "ts"),
)

table_events = Table(
    "table_events",
    metadata,
    Column("event_id", String(64), primary_key=True),
    Column("ts", DateTime(timezone=True), nullable=False),
    Column("table_id", String(64), nullable=False),
    Column("tournament_id", String(64)),
    Column("action", String(16), nullable=False),
    Column("player_id", String(64)),
    Column("seat", Integer),
    Column("hand_id", String(64)),
    Column("players", JSON),
    Column("extra", JSON),
    Index("ix_table_events_table_ts", "table_id", "ts"),
    Index("ix_table_events_player_ts", "player_id", "ts"),
)

hands = Table(
    "hands",
    metadata,
    Column("hand_id", String(64), primary_key=True),
    Column("table_id", String(64), nullable=False),
    Column("tournament_id", String(64)),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("ended_at", DateTime(timezone=True), nullable=False),
    Column("body", JSON, nullable=False),
    Index("ix_hands_table_started", "table_id", "started_at"),
)

hand_players = Table(
    "hand_players",
    metadata,
    Column("hand_id", String(64), primary_key=True),
    Column("player_id", String(64), primary_key=True),
    Index("ix_hand_players_player", "player_id"),
)

flags = Table(
    "flags",
    metadata,
    Column("flag_id", String(32), primary_key=True),
    Column("category", String(32), nullable=False),
    Column("detector", String(64), nullable=False),
    Column("severity", String(16), nullable=False),
    Column("score", Float, nullable=False),
    Column("ts", DateTime(timezone=True), nullable=False),
    Column("table_id", String(64)),
    Column("tournament_id", String(64)),
    Column("hand_id", String(64)),
    Column("player_ids", JSON, nullable=False),
    Column("message_ids", JSON, nullable=False),
    Column("explanation", Text, nullable=False),
    Column("evidence", JSON, nullable=False),
    Column("status", String(16), nullable=False, default="open"),
    # Bumped by every review: a review names the version it read, so two analysts cannot both
    # review one flag (the second gets a 409).
    Column("review_version", Integer, nullable=False, server_default="0"),
    Index("ix_flags_ts", "ts"),
    Index("ix_flags_category_ts", "category", "ts"),
    Index("ix_flags_status_ts", "status", "ts"),
    # How many unrelated reporters (groups of reporters who know each other count once) have
    # reported this flag's player for it, capped (`api.report_store`): the queue serves a
    # reported flag before the unreported ones of its severity.
    Column("priority", Integer, nullable=False, server_default="0"),
    # The review queue's order within a severity (`api.review_queries.queue`).
    Index("ix_flags_queue", "status", "severity", "ts", "flag_id"),
    Index("ix_flags_queue_priority", "status", "severity", "priority", "ts", "flag_id"),
)

# Every review of a flag, oldest first: its history.
flag_reviews = Table(
    "flag_reviews",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("flag_id", String(32), nullable=False),
    Column("ts", DateTime(timezone=True), nullable=False),
    Column("decision", String(16), nullable=False),
    Column("note", Text, nullable=False),
    Column("actor", String(64), nullable=False),
    Column("role", String(32), nullable=False),
    Column("lifted_action_ids", JSON, nullable=False),
    Index("ix_flag_reviews_flag", "flag_id", "id"),
)

flag_players = Table(
    "flag_players",
    metadata,
    Column("flag_id", String(32), primary_key=True),
    Column("player_id", String(64), primary_key=True),
    Index("ix_flag_players_player", "player_id"),
)

actions = Table(
    "actions",
    metadata,
    Column("action_id", String(32), primary_key=True),
    Column("kind", String(32), nullable=False),
    Column("player_id", String(64), nullable=False),
    Column("ts", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True)),
    Column("reason", Text, nullable=False),
    Column("flag_ids", JSON, nullable=False),
    Column("actor", String(64), nullable=False),
    Column("lifted_at", DateTime(timezone=True)),
    Column("lifted_by", String(64)),
    # When the row was last written (wall time): the chat check reads only what changed since
    # its last refresh (`api.restriction_cache`).
    Column("changed_at", DateTime(timezone=True)),
    # What the restriction is limited to: a `block_table_join`'s blind level ("50/100").
    Column("scope", String(64)),
    Index("ix_actions_player_ts", "player_id", "ts"),
    Index("ix_actions_changed_at", "changed_at"),
)

audit_log = Table(
    "audit_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("ts", DateTime(timezone=True), nullable=False),
    Column("actor", String(64), nullable=False),
    Column("action", String(64), nullable=False),
    Column("target", String(128)),
    Column("detail", JSON),
)

dead_letters = Table(
    "dead_letters",
    metadata,
    Column("id", String(40), primary_key=True),  # source + position: a replay doesn't duplicate
    Column("ts", DateTime(timezone=True), nullable=False),
    Column("source", String(256), nullable=False),
    Column("position", String(64), nullable=False),
    Column("reason", Text, nullable=False),
    Column("raw", Text),
)

# Restriction changes waiting for (or already sent to) `moderation.actions`: written in the
# transaction of the change, relayed by `ingest.kafka.outbox_relay` (`store.outbox`).
action_outbox = Table(
    "action_outbox",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("action_id", String(32), nullable=False),
    Column("player_id", String(64), nullable=False),
    Column("change", String(16), nullable=False),
    Column("expires_at", DateTime(timezone=True)),
    Column("payload", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("sent_at", DateTime(timezone=True)),
    Index("ix_action_outbox_unsent", "sent_at", "seq"),
    Index("ix_action_outbox_action", "action_id", "change"),
)

# Console sign-ins as the server keeps them: the cookie holds a random session id, the store
# only its SHA-256, so every server process can check, extend and end a session, and a copy of
# the table signs nobody in (`api.console.sessions`).
console_sessions = Table(
    "console_sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),
    # A handle to list and end a session by (random, not derived from the secret).
    Column("ref", String(16), nullable=False, unique=True),
    Column("key_id", String(16), nullable=False),
    Column("role", String(32), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_seen_at", DateTime(timezone=True), nullable=False),
    Column("idle_timeout_s", Integer, nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("revoked_at", DateTime(timezone=True)),
    Column("revoked_by", String(64)),
    Column("client_addr", String(64)),
    Column("user_agent", String(256)),
    # The banner the next page shows (a code from a fixed set and the values the server put
    # in it), so no banner text ever comes from a URL.
    Column("flash", JSON),
    Index("ix_console_sessions_key", "key_id", "created_at"),
    Index("ix_console_sessions_expires", "expires_at"),
)

# Sign-in attempts, for throttling per client and per key across every server process; the
# client address and the key tried are kept only as digests.
console_sign_ins = Table(
    "console_sign_ins",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("ts", DateTime(timezone=True), nullable=False),
    Column("client_hash", String(64), nullable=False),
    Column("key_hash", String(64), nullable=False),
    Column("ok", Boolean, nullable=False),
    Index("ix_console_sign_ins_client", "client_hash", "ts"),
    Index("ix_console_sign_ins_key", "key_hash", "ts"),
    Index("ix_console_sign_ins_ts", "ts"),
)

# Players' reports of other players, sent by the chat server (`POST /v1/reports`), one row per
# (reporter, reported player, message): the id is derived from those, so a report sent twice is
# stored once. Each row names the flag it went to: a detector's flag on the message reported
# (its priority raised) or a report case of its own (`api.report_store`).
player_reports = Table(
    "player_reports",
    metadata,
    Column("report_id", String(32), primary_key=True),
    Column("ts", DateTime(timezone=True), nullable=False),
    Column("reporter_id", String(64), nullable=False),
    Column("reported_id", String(64), nullable=False),
    Column("message_id", String(64)),
    Column("table_id", String(64)),
    Column("tournament_id", String(64)),
    Column("hand_id", String(64)),
    Column("reason", String(32), nullable=False),
    # The reporter's words, personal data redacted as in the chat log.
    Column("note", Text),
    Column("flag_id", String(32), nullable=False),
    # raised: a detector's flag on the reported message; opened / joined: a report case
    Column("effect", String(16), nullable=False),
    Index("ix_player_reports_reported", "reported_id", "ts"),
    Index("ix_player_reports_reporter", "reporter_id", "ts"),
    Index("ix_player_reports_flag", "flag_id", "ts"),
)

# Reports refused because their reporter filed too many (mass reporting is abuse too): counted
# per reporter, across every server process.
report_refusals = Table(
    "report_refusals",
    metadata,
    Column("reporter_id", String(64), primary_key=True),
    Column("refused", Integer, nullable=False),
    Column("first_refused_at", DateTime(timezone=True), nullable=False),
    Column("last_refused_at", DateTime(timezone=True), nullable=False),
)
