"""An old version of the echo tool, kept for reference."""

  import os
