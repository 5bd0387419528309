from pathlib import Path


def worker_identity() -> str:
    """The start time of the sandbox's init process: the same for examples that share a worker."""
    return Path("/proc/1/stat").read_text().rsplit(")", 1)[1].split()[19]
