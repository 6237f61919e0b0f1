"""The Djinn terminal screen."""
