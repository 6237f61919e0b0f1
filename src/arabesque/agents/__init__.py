"""Agents (bots): game-agnostic base, random play, reaction profiles and the agent registry."""

from arabesque.agents.base import Agent, Observation
from arabesque.agents.random_agent import RandomAgent
from arabesque.agents.reaction import ReactionProfile
from arabesque.agents.registry import agent_names, make_agent, register_agent

__all__ = [
    "Agent",
    "Observation",
    "RandomAgent",
    "ReactionProfile",
    "agent_names",
    "make_agent",
    "register_agent",
]
