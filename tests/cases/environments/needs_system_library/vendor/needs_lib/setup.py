# Builds against a system library, found with pkg-config as pycairo finds cairo.
import subprocess
import sys

from setuptools import setup

found = subprocess.run(["pkg-config", "--cflags", "dify-registry-absent"], capture_output=True, text=True)
if found.returncode != 0:
    sys.exit(found.stderr)  # pkg-config's own words
setup(py_modules=[])
