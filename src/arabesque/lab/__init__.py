"""The designer's lab: results as Parquet, tournaments and ratings, reports, comparisons.

No game is named here. What a game measures comes from its own ``games/<game>/metrics.py``
(``metrics.py`` in this package is the registry); everything else works on the rows of the
results folder (``results.py``: what a row holds, ``store.py``: the folder).
"""
