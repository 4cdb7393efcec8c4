"""Entry point: ``python -m yacht`` (see ``yacht.cli.main``)."""

import sys

from .cli.main import main

sys.exit(main())
