"""Game packages: one package per game, each registering a GameSpec."""
