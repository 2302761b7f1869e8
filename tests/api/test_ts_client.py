"""The TypeScript example client (examples/ts-client/) as a third-party frontend would build
it: `npm ci`, graphql-codegen from the repository's schema.graphql, `tsc` in strict mode, then
its program plays a 2-player New Capital game to its end against a real `conclave serve`
from `legalActions` alone. A schema change that breaks the client's operations fails here.

Locally a machine without Node.js/npm skips with a clear reason; under CI=true it fails."""
from __future__ import annotations

import asyncio
import fcntl
import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.api.client import http, run
from tests.api.services import IN_CI, ROOT

EXAMPLE = ROOT / "examples" / "ts-client"
GENERATED = EXAMPLE / "src" / "generated"
# written after a successful `npm ci`: the lock file it installed, so an unchanged lock is not reinstalled
STAMP = EXAMPLE / "node_modules" / ".conclave-installed-lock.sha256"


def need_node() -> tuple[str, str]:
    node, npm = shutil.which("node"), shutil.which("npm")
    if not (node and npm):
        message = "Node.js and npm are needed to build examples/ts-client (not on PATH)"
        if IN_CI:
            pytest.fail(f"{message}: CI must build and run the generated TypeScript client")
        pytest.skip(message)
    major = int(subprocess.run([node, "--version"], capture_output=True, text=True, check=True).stdout.strip()
                .lstrip("v").split(".")[0])
    if major < 20:
        message = f"Node.js 20 or newer is needed for examples/ts-client (found {major})"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    return node, npm


def sh(*args: str, cwd: Path = EXAMPLE, timeout: float = 180) -> str:
    done = subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(args)} exited {done.returncode}\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done.stdout


def install(npm: str) -> None:
    """`npm ci` from the committed lock file, unless node_modules already holds that lock.
    A file lock keeps two test workers (pytest -n) from installing into one folder at once."""
    lock = hashlib.sha256((EXAMPLE / "package-lock.json").read_bytes()).hexdigest()
    with open(EXAMPLE / ".install.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if STAMP.exists() and STAMP.read_text().strip() == lock:
            return
        sh(npm, "ci", "--no-audit", "--no-fund", timeout=300)
        STAMP.write_text(lock + "\n")


# ---- the generated types of Table: no `any` anywhere Table reaches ----

# every top-level statement of a generated file starts a line; a type's body runs to the next
_TOP = re.compile(r"^(?:export\s+)?(?:declare\s+)?(?:type|interface|class|const|let|var|function|enum|import)\b",
                  re.MULTILINE)
_DECL = re.compile(r"(?:export\s+)?type (\w+)(?:<[^=]*>)? = ")
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)


def type_declarations(source: str) -> dict[str, str]:
    """Each `export type NAME = ...` of a generated file, its body without comments."""
    starts = [m.start() for m in _TOP.finditer(source)] + [len(source)]
    decls = {}
    for start, end in zip(starts, starts[1:]):
        if m := _DECL.match(source, start):
            decls[m.group(1)] = _COMMENT.sub("", source[m.end():end])
    return decls


def types_with_any(source: str, root: str) -> dict[str, str]:
    """The types reachable from `root` (through the names their bodies mention) that use `any`."""
    decls = type_declarations(source)
    assert root in decls, f"no `export type {root}` in the generated file"
    seen, todo = set(), [root]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(w for w in re.findall(r"\b[A-Z]\w*\b", decls[name]) if w in decls)
    return {name: decls[name].strip() for name in sorted(seen) if re.search(r"\bany\b", decls[name])}


def test_the_any_check_finds_any_where_table_reaches_it():
    """The check below can fail: `any` two types away from Table is found, elsewhere it is not."""
    source = ("export type Scalars = {\n  JSON: { input: unknown; output: unknown; }\n};\n\n"
              "export type Table = {\n  /** any comment */\n  log: Array<LogEntry>;\n};\n\n"
              "export type LogEntry = {\n  events: Maybe<Blob>;\n};\n\n"
              "export type Maybe<T> = T | null;\n\nexport type Blob = any;\n\n"
              "export type Unrelated = { x: any };\n"
              "export class After { meta?: Record<string, any> }\n")
    assert list(types_with_any(source, "Table")) == ["Blob"]
    assert types_with_any(source.replace("= any;", "= unknown;"), "Table") == {}


# ---- the client, built and played ----

def test_generated_client_compiles_strict_and_plays_a_game_to_its_end(embedded_server):
    node, npm = need_node()
    install(npm)
    shutil.rmtree(GENERATED, ignore_errors=True)  # nothing left over from an older schema
    shutil.rmtree(EXAMPLE / "dist", ignore_errors=True)
    sh(npm, "run", "--silent", "codegen")
    for name in ("gql.ts", "graphql.ts", "schema.ts"):
        assert (GENERATED / name).exists(), name

    schema_ts = (GENERATED / "schema.ts").read_text()
    assert types_with_any(schema_ts, "Table") == {}, "generated Table types use `any`"
    assert "JSON: { input: unknown; output: unknown; }" in schema_ts
    # the operations' own result types, which the program reads, are as strict
    operations_ts = (GENERATED / "graphql.ts").read_text()
    assert types_with_any(operations_ts, "SeatViewQuery") == {}
    assert types_with_any(operations_ts, "FinalTableQuery") == {}
    assert json.loads((EXAMPLE / "tsconfig.json").read_text())["compilerOptions"]["strict"] is True

    sh(str(EXAMPLE / "node_modules" / ".bin" / "tsc"), "--noEmit", "false")
    out = sh(node, "dist/main.js", "--url", embedded_server.url, "--seed", "5", timeout=120)
    printed = json.loads(out.strip().splitlines()[-1])
    assert printed["status"] == "finished", printed
    assert printed["actions"] == printed["version"] > 10, printed
    assert printed["result"]["winners"], printed

    # the server agrees: that table is over, at the version the client's last action made
    async def final():
        async with http(embedded_server.url) as anon:
            return (await run(anon, "query($t: String!) { table(id: $t) { status version result seats { taken } } }",
                              t=printed["tableId"]))["table"]
    table = asyncio.run(final())
    assert table["status"] == "finished" and table["version"] == printed["version"]
    assert table["result"] == printed["result"]
    assert [s["taken"] for s in table["seats"]] == [True, True]


def test_a_schema_change_that_breaks_the_client_fails_codegen(tmp_path):
    """The same codegen on a copy whose schema lost `Table.legalActions` refuses the client's
    operations, naming the field: the build cannot go on against a schema it does not fit."""
    _, npm = need_node()
    install(npm)
    copy = tmp_path / "examples" / "ts-client"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("node_modules", "dist", "generated"))
    (copy / "node_modules").symlink_to(EXAMPLE / "node_modules")
    schema = (ROOT / "schema.graphql").read_text()
    # the field and its description (left alone, it would describe the next field twice)
    broken = re.sub(r'\n(  """[^"]*"""\n)?  legalActions: \[LegalAction!\]!\n', "\n", schema, count=1)
    assert broken != schema
    (tmp_path / "schema.graphql").write_text(broken)
    done = subprocess.run([npm, "run", "--silent", "codegen"], cwd=copy, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0, done.stdout
    assert 'Cannot query field "legalActions" on type "Table"' in done.stdout + done.stderr, done.stdout + done.stderr
    assert not (copy / "src" / "generated" / "graphql.ts").exists()
