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


LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}


def configure(json_lines: bool = True, level: int | str = logging.INFO) -> None:
    """`level` "debug" adds a line per accepted action (table, version, seat, type): at a
    thousand actions a second that line cost ~35 us of each (benchmarks/api_load.py), and
    the action log itself (the store's, then SQL's) is the durable record of every action."""
    if isinstance(level, str):
        if level not in LEVELS:
            raise ValueError(f"CONCLAVE_LOG_LEVEL must be one of {', '.join(LEVELS)}, not {level!r}")
        level = LEVELS[level]
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if json_lines else logging.Formatter("%(levelname)s %(name)s %(message)s"))
    root = logging.getLogger("conclave")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False
