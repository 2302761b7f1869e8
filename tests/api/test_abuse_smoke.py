"""The abuse benchmark still runs: `benchmarks/abuse.py --smoke` (1 s phases, one real
`conclave serve`) measures a paced `act` during each attack of issue 13 and every attack is
refused (QUERY_TOO_COMPLEX) or bounded (createTable: at most the open-tables quota created,
the rest QUOTA_EXCEEDED). Timing is the script's to judge, not this test's."""
from __future__ import annotations

import json
import subprocess
import sys

from tests.api.services import ROOT


def test_abuse_benchmark_smoke_refuses_or_bounds_every_attack():
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "abuse.py"), "--smoke"],
                          cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    rows = {row["phase"]: row for row in out["rows"]}
    assert list(rows) == ["no attack", "validation", "statejson", "log-subscription", "create-tables"]
    for phase in ("validation", "statejson", "log-subscription"):
        assert rows[phase]["verdict"] == "refused" and rows[phase]["attack"]["QUERY_TOO_COMPLEX"] > 0, rows[phase]
    flood = rows["create-tables"]["attack"]
    assert flood.get("CreateTableOk", 0) <= 10 and flood["QUOTA_EXCEEDED"] > 0, flood
    for row in rows.values():
        assert row["acts"] >= 15 and row["act_failures"] == {}, row  # the victim played throughout
        assert 0 < row["act_p50_ms"] <= row["act_p99_ms"]
