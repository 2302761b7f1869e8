"""Copies of a content folder that a test may break: one file at a time, as JSON."""
from __future__ import annotations

import json
import shutil
from pathlib import Path


def copy_folder(source: Path, tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    shutil.copytree(source, folder)
    return folder


def edit_json(folder: Path, name: str, change) -> None:
    """Rewrite `name` in `folder` after `change(data)` has edited its data in place."""
    path = folder / name
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def registry_with_pack(folder: Path | str, name: str = "custom"):
    """A registry where `folder` is registered as the operator's pack `name`: tables choose
    packs by name, never by folder."""
    from core.content import PackSetting
    from core.plugins import BUILTIN_PLUGINS, Registry

    return Registry(list(BUILTIN_PLUGINS), content_packs=(PackSetting(name=name, folder=Path(folder)),))
