"""The API load benchmark still runs: `benchmarks/api_load.py --smoke` (3 tables, 2 subscribers,
5 seconds, one real `conclave serve`) prints a JSON line with positive numbers and no errors,
closed loop with Redis, and paced on the embedded store. Numbers are not judged against
targets here: only that the script measures (and that a paced run offers what it says)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.api.services import ROOT, redis_available

POSITIVE = ["actions", "actions_per_second", "act_p50_ms", "act_p99_ms", "deliveries", "delivery_p50_ms",
            "delivery_p99_ms", "server_cpu_ms_per_action", "client_cpu_ms_per_action", "client_processes",
            "engine_actions_per_second", "engine_us_per_action", "engine_apply_us_per_action",
            "server_cpu_over_engine"]


@pytest.mark.parametrize("flags", [[], ["--embedded", "--rate", "100"]], ids=["redis-closed-loop", "embedded-paced"])
def test_load_benchmark_smoke_measures_without_errors(flags):
    if "--embedded" not in flags:
        redis_available()  # skips locally (fails under CI) when Redis is not there
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "api_load.py"), "--smoke", *flags],
                          cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    last = proc.stdout.strip().splitlines()[-1]
    out = json.loads(last)
    assert out["errors"] == 0, out["error_kinds"]
    assert out["tables"] == 3 and out["subscribers"] == 2
    for key in POSITIVE:
        assert out[key] > 0, (key, out)
    assert out["deliveries"] == out["deliveries_expected"] == out["actions"] * out["subscribers"]
    assert out["act_p50_ms"] <= out["act_p99_ms"] and out["delivery_p50_ms"] <= out["delivery_p99_ms"]
    if "--rate" in flags:  # one turn every 10 ms over the 5 s window: 500 actions, less a few at its edges
        assert 475 <= out["actions"] <= 500, out["actions"]
    else:
        assert out["redis_cpu_ms_per_action"] >= 0
