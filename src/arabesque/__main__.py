"""``python -m arabesque``: the same command line as the ``arabesque`` script."""

import sys

from arabesque.cli import main

sys.exit(main())
