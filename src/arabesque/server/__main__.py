"""``python -m arabesque.server [--host H] [--port P] [--database-url URL]``."""

import sys

from arabesque.server.cli import main

sys.exit(main(sys.argv[1:]))
