"""The catalog is built without the cyclic garbage collector and then set aside from it.

Loading a registry allocates a great many long-lived, acyclic objects (documents, models, findings).
Each of them would trigger and then be scanned by every later full collection of the build, most of
them MkDocs's own; collecting nothing. Frozen, they are skipped until the build ends.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def long_lived() -> Iterator[None]:
    """Build what lives for the whole build inside this block: no collection runs meanwhile, and
    everything alive at its end is moved out of the collector's generations (see `release`)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def release() -> None:
    """Give the frozen objects back to the collector: the build is over (a server builds again in the
    same process, and garbage frozen with the catalog must be freed)."""
    gc.unfreeze()
