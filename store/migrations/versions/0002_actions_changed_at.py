"""actions.changed_at: when a row was last written, for incremental reads

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02 05:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("changed_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index("ix_actions_changed_at", ["changed_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.drop_index("ix_actions_changed_at")
        batch_op.drop_column("changed_at")
