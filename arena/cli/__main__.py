"""``python -m arena.cli``: the ``arena`` command without its console script."""

import sys

from arena.cli import main

sys.exit(main())
