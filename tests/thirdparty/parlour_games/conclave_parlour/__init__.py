"""Two small parlour games installed as a third-party distribution: the `conclave` entry
points register them; Nim ships a client view folder, Pig none (the generic view plays it)."""
