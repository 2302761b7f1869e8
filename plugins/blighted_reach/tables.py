"""The campaign plugin's step table and decision table, shared by its flow modules."""
from __future__ import annotations

from core.decisions import DecisionTable
from core.flow import StepTable

steps = StepTable("br")
decisions = DecisionTable("br")
