"""flags: the review queue's index (status, severity, ts, flag_id)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02 08:15:00
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("flags", schema=None) as batch_op:
        batch_op.create_index(
            "ix_flags_queue", ["status", "severity", "ts", "flag_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("flags", schema=None) as batch_op:
        batch_op.drop_index("ix_flags_queue")
