"""webhook registrations and their outbox (turn notifications, api/webhooks/)

A delivery's primary key is (registration, event id): an event is queued once per
registration however many server processes see it, and survives a restart.

Revision ID: 0005
Revises: 0004
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('webhook_deliveries',
    sa.Column('registration_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('event_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_at', sa.Float(), nullable=False),
    sa.Column('lease_until', sa.Float(), nullable=False),
    sa.Column('last_error', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('delivered_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.PrimaryKeyConstraint('registration_id', 'event_id')
    )
    with op.batch_alter_table('webhook_deliveries', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_webhook_deliveries_next_at'), ['next_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_webhook_deliveries_status'), ['status'], unique=False)

    op.create_table('webhook_registrations',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('table_id', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('campaign_id', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('url', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('secret', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('webhook_registrations', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_webhook_registrations_campaign_id'), ['campaign_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_webhook_registrations_table_id'), ['table_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('webhook_registrations', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_webhook_registrations_table_id'))
        batch_op.drop_index(batch_op.f('ix_webhook_registrations_campaign_id'))

    op.drop_table('webhook_registrations')
    with op.batch_alter_table('webhook_deliveries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_webhook_deliveries_status'))
        batch_op.drop_index(batch_op.f('ix_webhook_deliveries_next_at'))

    op.drop_table('webhook_deliveries')
