"""Simulation: running games between agents, tournaments, statistics."""
