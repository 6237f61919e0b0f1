"""The Ali Baba terminal screen (``arabesque play ali-baba``)."""
