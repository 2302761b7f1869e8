"""wide seeds and versions; game records carry what replay needs

Seeds are 63-bit (api/seeds.py): a 32-bit INTEGER refused half of them on PostgreSQL
("integer out of range"). Versions, which count every action of a table, widen with them.
A game record now keeps the seed's public commitment, whether the creator chose the seed,
and the campaign state the game started from, so `conclave export` can write it whole.
A campaign keeps why its last save failed for good (`save_error`), so every server process
answers SAVE_FAILED with the reason instead of retrying.

Revision ID: 0004
Revises: 0003
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None

WIDENED = [('game_records', 'seed', False), ('game_records', 'version', False), ('game_actions', 'version', False),
           ('live_tables', 'version', False), ('live_tables', 'state_version', True), ('live_log', 'version', False)]


def upgrade() -> None:
    for table, column, nullable in WIDENED:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.alter_column(column, existing_type=sa.Integer(), type_=sa.BigInteger(),
                                  existing_nullable=nullable)
    with op.batch_alter_table('game_records', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seed_commitment', sqlmodel.sql.sqltypes.AutoString(), server_default='',
                                      nullable=False))
        batch_op.add_column(sa.Column('seed_chosen', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('campaign_at_start', sa.JSON(), nullable=True))
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.add_column(sa.Column('save_error', sqlmodel.sql.sqltypes.AutoString(), server_default='',
                                      nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.drop_column('save_error')
    with op.batch_alter_table('game_records', schema=None) as batch_op:
        batch_op.drop_column('campaign_at_start')
        batch_op.drop_column('seed_chosen')
        batch_op.drop_column('seed_commitment')
    for table, column, nullable in reversed(WIDENED):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.alter_column(column, existing_type=sa.BigInteger(), type_=sa.Integer(),
                                  existing_nullable=nullable)
