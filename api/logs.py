"""Structured logs: one JSON object per line, carrying table id and version when known.

The stdlib `logging` with a small JSON formatter (msgspec encodes): every library's records
come out in the same shape.
"""
from __future__ import annotations

import logging
import sys
import time

import msgspec

_STANDARD = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {"ts": round(time.time(), 3), "level": record.levelname.lower(), "logger": record.name,
               "msg": record.getMessage()}
        out.update({k: v for k, v in record.__dict__.items() if k not in _STANDARD})
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return msgspec.json.encode(out, enc_hook=str).decode()  # several times json.dumps's speed: one line per action


def lean_records() -> None:
    """For a server process: records without the caller's file and line, thread and process,
    which neither format shows (the logging HOWTO's "Optimization"). One record per action:
    benchmarks/api_load.py measured finding the caller and those fields at ~15 us of ~30."""
    logging._srcfile = None
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False


def configure(json_lines: bool = True, level: int = logging.INFO) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if json_lines else logging.Formatter("%(levelname)s %(name)s %(message)s"))
    root = logging.getLogger("conclave")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False
