"""Dependencies point one way: `api -> schema -> core <- plugins` (ARCHITECTURE.md). Read
from the source with `ast`, so a function-level import or an `importlib` call with a
literal name counts the same as one at the top of a file."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {"core": {"api", "schema"}, "schema": {"api"}, "plugins": {"api"}}


def imported(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, top-level package) of every import in `tree`, at any depth."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.split(".")[0]))
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None))
              in ("import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            found.append((node.lineno, node.args[0].value.split(".")[0]))
    return sorted(found)


def violations(layer: str) -> list[str]:
    out = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        for line, package in imported(ast.parse(path.read_text(), str(path))):
            if package in FORBIDDEN[layer]:
                out.append(f"{path.relative_to(ROOT)}:{line} imports {package}")
    return out


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_layer_imports_a_layer_above_it(layer):
    assert violations(layer) == []


def test_the_check_sees_every_kind_of_import():
    source = ("import api.service\nfrom schema.build import x\ndef f():\n    from api import feeds\n"
              "importlib.import_module('schema.errors')\nfrom . import sibling\nimport core.engine\n")
    assert imported(ast.parse(source)) == [(1, "api"), (2, "schema"), (4, "api"), (5, "schema"), (7, "core")]
