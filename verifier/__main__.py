"""``python -m verifier``: the command line (see :mod:`verifier.cli`)."""

import sys

from verifier.cli import main

sys.exit(main())
