"""The Textual terminal client: ``arabesque play <game>`` (see ``play.main``).

``session`` holds the game and the bots (no Textual), ``app`` the shell shared by all games
(quit, game over, the driving loop, keys and log of a game screen), ``decision_panel`` the one
panel that draws any game's ``view["decision"]`` and picks an option, and each game its own
screen (``magic_lamp/``, ``ali_baba/``), listed in ``app.GAME_SCREENS``.
"""
