"""Automatic persisted queries (Apollo's convention) and the operator's allow-list.

A client sends `extensions.persistedQuery = {"version": 1, "sha256Hash": H}`, first without
the query text. A server that does not know H answers `PersistedQueryNotFound` (code
`PERSISTED_QUERY_NOT_FOUND`); the client sends H with the text, which is registered once
its SHA-256 is H, and from then on H alone runs it. Every transport resolves the request
here into query text before anything else reads it - the lean HTTP path (api/fast_http.py),
strawberry's view (GET and POST), both WebSocket protocols (api/persisted_ws.py) - so the
parse, validation and cost caches keyed by the text (`schema.prepared.DocumentCache`,
strawberry's `ParserCache`) serve persisted queries too: this module keeps texts, never
parsed documents.

The cache is one LRU per server process, bounded by entries and by characters. With several
processes (uvicorn workers, hosts behind a load balancer) a hash registered on one may be
unknown on another: that one answers `PersistedQueryNotFound` and the client resends the
text, as the protocol intends. A cache of size 0 turns registration off: hashes get
`PersistedQueryNotSupported` (Apollo clients then stop sending them), except allow-listed ones.

With an allow-list (`CONCLAVE_PERSISTED_QUERY_ALLOWLIST`, see `load_allow_list`) only the
listed documents run, by text or by hash; every other query is refused with
`PERSISTED_QUERY_NOT_ALLOWED` before it is parsed.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import OrderedDict
from pathlib import Path

from schema.prepared import Prepared

NOT_FOUND = "PERSISTED_QUERY_NOT_FOUND"
NOT_SUPPORTED = "PERSISTED_QUERY_NOT_SUPPORTED"
HASH_MISMATCH = "PERSISTED_QUERY_HASH_MISMATCH"
NOT_ALLOWED = "PERSISTED_QUERY_NOT_ALLOWED"
INVALID = "PERSISTED_QUERY_INVALID"

HASH = re.compile(r"[0-9a-f]{64}")
# Apollo Server answers a miss with 200 and no caching (a CDN must not keep the miss for a
# GET that will work once the text is registered).
NO_STORE = [(b"cache-control", b"private, no-cache, must-revalidate")]


class PersistedQueryError(Exception):
    """A persisted-query request refused: `code` for `extensions.code`, the HTTP status."""

    def __init__(self, code: str, message: str, status: int = 200) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status

    @property
    def formatted(self) -> dict:
        return {"message": self.message, "extensions": {"code": self.code}}


def not_found() -> PersistedQueryError:
    return PersistedQueryError(NOT_FOUND, "PersistedQueryNotFound")  # Apollo's message, which clients match


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class AllowList:
    """The documents an operator lets run: hashes, with the text of those whose text is known
    (from the file, or from the first client that sent it with its hash)."""

    def __init__(self, hashes: frozenset[str], texts: dict[str, str], source: str = "") -> None:
        self.hashes, self.texts, self.source = hashes, texts, source

    def __contains__(self, digest: str) -> bool:
        return digest in self.hashes

    def __repr__(self) -> str:
        return f"AllowList({len(self.hashes)} documents, {len(self.texts)} texts, from {self.source!r})"


def load_allow_list(path: str | Path) -> AllowList:
    """The allow-list file: either a text file of SHA-256 hashes (hex, one a line, `#`
    comments), whose documents clients register by sending hash and text once, or JSON:
    an object `{hash: document}` (graphql-codegen's and Relay's persisted-documents file),
    Apollo's persisted query manifest (`{"format": "apollo-persisted-query-manifest",
    "operations": [{"body": …}]}`), or a list of documents and hashes. A document's hash is
    its text's SHA-256, checked: a file that says otherwise stops the server from starting."""
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"persisted query allow-list {path}: {exc}") from None
    hashes: set[str] = set()
    texts: dict[str, str] = {}

    def add_text(text, claimed: str | None = None) -> None:
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"persisted query allow-list {path}: an entry is not a GraphQL document: {text!r:.60}")
        digest = sha256(text)
        if claimed is not None and claimed.lower() != digest:
            raise ValueError(f"persisted query allow-list {path}: {claimed} is not the SHA-256 of its document "
                             f"({digest})")
        hashes.add(digest)
        texts[digest] = text

    def add_hash(value: str) -> None:
        if not HASH.fullmatch(value.lower()):
            raise ValueError(f"persisted query allow-list {path}: {value!r:.80} is not a SHA-256 hash (64 hex digits)")
        hashes.add(value.lower())

    stripped = raw.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ValueError(f"persisted query allow-list {path}: not valid JSON ({exc})") from None
        if isinstance(data, dict) and data.get("format") == "apollo-persisted-query-manifest":
            for operation in data.get("operations") or []:
                add_text(operation.get("body") if isinstance(operation, dict) else None)
        elif isinstance(data, dict):
            for claimed, text in data.items():
                add_text(text, claimed)
        else:
            for item in data:
                if isinstance(item, str) and HASH.fullmatch(item.strip().lower()):
                    add_hash(item.strip())
                else:
                    add_text(item)
    else:
        for line in raw.splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                add_hash(line)
    if not hashes:
        raise ValueError(f"persisted query allow-list {path} lists no documents (it would refuse every query)")
    return AllowList(frozenset(hashes), texts, str(path))


class PersistedQueries:
    """Resolves a request's query text from its `extensions.persistedQuery`, registering
    texts in a bounded LRU and enforcing the allow-list. One per server process."""

    def __init__(self, max_entries: int = 1000, max_chars: int = 4_000_000, allow: AllowList | None = None,
                 documents=None) -> None:
        self.max_entries, self.max_chars, self.allow = max_entries, max_chars, allow
        self.documents = documents  # schema.prepared.DocumentCache, when the lean paths are on
        self.entries: OrderedDict[str, str] = OrderedDict()
        self.chars = 0

    def resolve(self, query, extensions):
        """The query text to run (None when the request has none: the caller's usual
        refusal); raises `PersistedQueryError`. `extensions` is the request's, unchecked."""
        persisted = extensions.get("persistedQuery") if isinstance(extensions, dict) else None
        if persisted is None:
            if self.allow is not None and isinstance(query, str):
                digest = sha256(query)
                if digest not in self.allow:
                    raise PersistedQueryError(NOT_ALLOWED, "this server runs only the operator's listed queries",
                                              403)
                self.allow.texts.setdefault(digest, query)
            return query
        digest = self.digest_of(persisted)
        if query is None:
            text = self.lookup(digest)
            if text is None:
                if self.allow is not None and digest not in self.allow:
                    raise PersistedQueryError(NOT_ALLOWED, "this server runs only the operator's listed queries", 403)
                if self.max_entries <= 0 and self.allow is None:
                    raise PersistedQueryError(NOT_SUPPORTED, "PersistedQueryNotSupported")
                raise not_found()
            return text
        if not isinstance(query, str):
            return query  # the view refuses a query that is not a string
        if sha256(query) != digest:
            raise PersistedQueryError(HASH_MISMATCH, "provided sha does not match query", 400)
        if self.allow is not None:
            if digest not in self.allow:
                raise PersistedQueryError(NOT_ALLOWED, "this server runs only the operator's listed queries", 403)
            self.allow.texts.setdefault(digest, query)
        elif self.max_entries > 0:
            self.register(digest, query)
        return query

    @staticmethod
    def digest_of(persisted) -> str:
        if not isinstance(persisted, dict) or persisted.get("version") != 1:
            raise PersistedQueryError(INVALID, "Unsupported persisted query version (this server knows version 1)",
                                      400)
        digest = persisted.get("sha256Hash")
        if not isinstance(digest, str) or not HASH.fullmatch(digest.lower()):
            raise PersistedQueryError(INVALID, "persistedQuery.sha256Hash must be a SHA-256 hash (64 hex digits)",
                                      400)
        return digest.lower()

    def lookup(self, digest: str) -> str | None:
        if self.allow is not None:
            return self.allow.texts.get(digest)
        text = self.entries.get(digest)
        if text is not None:
            self.entries.move_to_end(digest)
        return text

    def register(self, digest: str, query: str) -> None:
        """Keep `query` under its hash, if it is a document the server would run: with the
        lean paths on, one the document cache prepares (parses, one operation, valid, within
        the cost limit), so junk never pushes real queries out. The oldest go first when
        the cache is over its entries or characters."""
        if digest in self.entries:
            self.entries.move_to_end(digest)
            return
        if len(query) > self.max_chars:
            return
        if self.documents is not None:
            if not isinstance(self.documents.prepare(query), Prepared):
                return
        self.entries[digest] = query
        self.chars += len(query)
        while len(self.entries) > self.max_entries or self.chars > self.max_chars:
            _, dropped = self.entries.popitem(last=False)
            self.chars -= len(dropped)


def without_persisted(extensions):
    """The request's extensions once its persisted query is resolved: None when nothing
    else is left (so the lean subscription path, which takes no extensions, still runs)."""
    if not isinstance(extensions, dict) or "persistedQuery" not in extensions:
        return extensions
    rest = {k: v for k, v in extensions.items() if k != "persistedQuery"}
    return rest or None
