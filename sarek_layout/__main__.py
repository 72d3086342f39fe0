"""``python -m sarek_layout``: the same command line as the ``sarek-layout`` script."""

import sys

from .cli.main import main

sys.exit(main())
