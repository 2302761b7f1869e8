"""Turn notifications: webhooks a seat registers, and their signed deliveries.

- `addresses`: which addresses the server may call (the operator's allow-list, after DNS);
- `signing`: the signature scheme receivers verify (README, "Turn notifications");
- `outbox`: the SQL outbox - registrations, deliveries, claiming with compare-and-set;
- `dispatcher`: the background tasks that fill the outbox and send from it;
- `registrations`: what a seat's token may register, list and remove.
"""
