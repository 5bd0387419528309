"""`python -m generator` is the `dify-registry` command."""

import sys

from generator.cli import main

sys.exit(main())
