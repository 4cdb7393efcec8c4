"""Entry point: ``python -m yacht`` (see ``yacht.cli``)."""

import sys

from .cli import main

sys.exit(main())
