"""The reference client's per-game views: each game or module plugin that ships a client view
folder (`GameSpec.client_view`, `ModuleSpec.client_view`) has it served read-only at the URL
the schema's `clientView` fields name, so /play can import it for that game's tables."""
from __future__ import annotations

from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from core.plugins import Registry
from schema.build import CLIENT_VIEW_ROOT


def client_view_routes(registry: Registry) -> list[Mount]:
    """One static mount per shipped view folder; a folder that is missing refuses to start the app
    (a plugin naming a view it did not ship is a packaging error worth hearing about at once)."""
    specs = [("game", g.id, g.client_view) for g in registry.games.values()]
    specs += [("module", m.id, m.client_view) for m in registry.modules.values()]
    return [Mount(f"{CLIENT_VIEW_ROOT}/{kind}/{plugin_id}", app=StaticFiles(directory=folder, check_dir=True))
            for kind, plugin_id, folder in specs if folder is not None]
