"""flag reviews: flags.review_version, the flag_reviews history, the queue's index

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02 05:35:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("flags", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("review_version", sa.Integer(), nullable=False, server_default="0")
        )
        batch_op.create_index("ix_flags_status_ts", ["status", "ts"], unique=False)
    op.create_table(
        "flag_reviews",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("flag_id", sa.String(length=32), nullable=False),
        sa.Column("ts", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decision", sa.String(length=16), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("actor", sa.String(length=64), nullable=False),
        sa.Column("role", sa.String(length=32), nullable=False),
        sa.Column("lifted_action_ids", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("flag_reviews", schema=None) as batch_op:
        batch_op.create_index("ix_flag_reviews_flag", ["flag_id", "id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("flag_reviews", schema=None) as batch_op:
        batch_op.drop_index("ix_flag_reviews_flag")
    op.drop_table("flag_reviews")
    with op.batch_alter_table("flags", schema=None) as batch_op:
        batch_op.drop_index("ix_flags_status_ts")
        batch_op.drop_column("review_version")
