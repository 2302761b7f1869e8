"""Flagships: the Blighted Reach's optional module (issue 19). Its rules (`rules.py`) also
serve a Fate that grants a Flagship while the module is off."""
