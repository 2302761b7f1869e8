"""Leaders & Lore: the Arcs module (`leaders-and-lore`)."""
