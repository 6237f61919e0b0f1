"""Research environments over the core contract: PettingZoo (``arabesque.rl.pettingzoo``),
Gymnasium (``arabesque.rl.gym``) and OpenSpiel (``arabesque.rl.openspiel``).

Each adapter imports its library (the ``rl`` and ``openspiel`` extras); the core never
imports them, and this package imports none of them itself. docs/rl.md is the guide.
"""
