"""Arcs (Leder Games): the base game, 2-4 players. So far: the box as validated data (`content.py`)."""
