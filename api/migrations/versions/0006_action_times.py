"""action times: the server's time each archived action was applied with (turn clocks)

NULL for every action of a table without a clock, and for every row written before this
revision; a clocked table's replay needs them (core/clock.py).

Revision ID: 0006
Revises: 0005
"""
from alembic import op
import sqlalchemy as sa


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('game_actions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('at', sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('game_actions', schema=None) as batch_op:
        batch_op.drop_column('at')
