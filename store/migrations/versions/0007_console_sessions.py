"""console_sessions and console_sign_ins: server-side console sessions and sign-in throttling

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06 06:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "console_sessions",
        sa.Column("id_hash", sa.String(length=64), nullable=False),
        sa.Column("ref", sa.String(length=16), nullable=False),
        sa.Column("key_id", sa.String(length=16), nullable=False),
        sa.Column("role", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("idle_timeout_s", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_by", sa.String(length=64), nullable=True),
        sa.Column("client_addr", sa.String(length=64), nullable=True),
        sa.Column("user_agent", sa.String(length=256), nullable=True),
        sa.Column("flash", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id_hash"),
        sa.UniqueConstraint("ref"),
    )
    with op.batch_alter_table("console_sessions", schema=None) as batch_op:
        batch_op.create_index("ix_console_sessions_key", ["key_id", "created_at"], unique=False)
        batch_op.create_index("ix_console_sessions_expires", ["expires_at"], unique=False)
    op.create_table(
        "console_sign_ins",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("ts", sa.DateTime(timezone=True), nullable=False),
        sa.Column("client_hash", sa.String(length=64), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("ok", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("console_sign_ins", schema=None) as batch_op:
        batch_op.create_index("ix_console_sign_ins_client", ["client_hash", "ts"], unique=False)
        batch_op.create_index("ix_console_sign_ins_key", ["key_hash", "ts"], unique=False)
        batch_op.create_index("ix_console_sign_ins_ts", ["ts"], unique=False)


def downgrade() -> None:
    op.drop_table("console_sign_ins")
    op.drop_table("console_sessions")
