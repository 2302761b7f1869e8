"""live table state version: the embedded store keeps a snapshot every few versions

Revision ID: 0003
Revises: 0002
"""
from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # NULL: the stored state is at the row's `version` (every row written before this revision)
    with op.batch_alter_table('live_tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('state_version', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('live_tables', schema=None) as batch_op:
        batch_op.drop_column('state_version')
