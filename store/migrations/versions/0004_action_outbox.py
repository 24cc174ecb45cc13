"""action_outbox: restriction changes for moderation.actions, written with the change

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02 08:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "action_outbox",
        sa.Column("seq", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("action_id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("change", sa.String(length=16), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("seq"),
    )
    with op.batch_alter_table("action_outbox", schema=None) as batch_op:
        batch_op.create_index("ix_action_outbox_unsent", ["sent_at", "seq"], unique=False)
        batch_op.create_index("ix_action_outbox_action", ["action_id", "change"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("action_outbox", schema=None) as batch_op:
        batch_op.drop_index("ix_action_outbox_action")
        batch_op.drop_index("ix_action_outbox_unsent")
    op.drop_table("action_outbox")
