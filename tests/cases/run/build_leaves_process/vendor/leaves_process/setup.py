# A build script that starts a process and leaves it running: it inherits uv's pipe to the build
# backend, so uv waits for it, and it would outlive the build.
import subprocess
import sys

from setuptools import setup

subprocess.Popen(
    [sys.executable, "-c", "import time; time.sleep(3600)", "dify-registry-outliving-child-marker"]
)
setup(name="leaves_process", version="1.0", py_modules=["leaves_process"])
