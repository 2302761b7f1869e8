"""The Queen's New Capital game plugin (`new-capital`)."""
