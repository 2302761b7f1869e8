"""An example third-party module, installed as its own distribution."""
