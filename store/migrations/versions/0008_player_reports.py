"""player reports: player_reports, report_refusals, flags.priority and the queue's index by it

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("flags", schema=None) as batch_op:
        batch_op.add_column(sa.Column("priority", sa.Integer(), nullable=False, server_default="0"))
        batch_op.create_index(
            "ix_flags_queue_priority",
            ["status", "severity", "priority", "ts", "flag_id"],
            unique=False,
        )
    op.create_table(
        "player_reports",
        sa.Column("report_id", sa.String(length=32), nullable=False),
        sa.Column("ts", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reporter_id", sa.String(length=64), nullable=False),
        sa.Column("reported_id", sa.String(length=64), nullable=False),
        sa.Column("message_id", sa.String(length=64), nullable=True),
        sa.Column("table_id", sa.String(length=64), nullable=True),
        sa.Column("tournament_id", sa.String(length=64), nullable=True),
        sa.Column("hand_id", sa.String(length=64), nullable=True),
        sa.Column("reason", sa.String(length=32), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("flag_id", sa.String(length=32), nullable=False),
        sa.Column("effect", sa.String(length=16), nullable=False),
        sa.PrimaryKeyConstraint("report_id"),
    )
    with op.batch_alter_table("player_reports", schema=None) as batch_op:
        batch_op.create_index("ix_player_reports_reported", ["reported_id", "ts"], unique=False)
        batch_op.create_index("ix_player_reports_reporter", ["reporter_id", "ts"], unique=False)
        batch_op.create_index("ix_player_reports_flag", ["flag_id", "ts"], unique=False)
    op.create_table(
        "report_refusals",
        sa.Column("reporter_id", sa.String(length=64), nullable=False),
        sa.Column("refused", sa.Integer(), nullable=False),
        sa.Column("first_refused_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_refused_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("reporter_id"),
    )


def downgrade() -> None:
    op.drop_table("report_refusals")
    op.drop_table("player_reports")
    with op.batch_alter_table("flags", schema=None) as batch_op:
        batch_op.drop_index("ix_flags_queue_priority")
        batch_op.drop_column("priority")
