"""The Textual terminal client: ``arabesque play <game>`` (see ``play.main``).

``session`` holds the game and the bots (no Textual), ``app`` the shell shared by all games
(quit, game over), and each game its own screen (``magic_lamp/``), listed in
``app.GAME_SCREENS``.
"""
