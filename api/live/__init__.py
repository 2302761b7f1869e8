"""Live table stores: Redis (shared by many server processes) or in-process (embedded)."""
from api.live.base import LiveStore, Snapshot

__all__ = ["LiveStore", "Snapshot"]
