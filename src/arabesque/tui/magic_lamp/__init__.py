"""The Magic Lamp screen for the terminal client: panels, event log in words, and input."""
