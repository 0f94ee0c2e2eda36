"""The installed distribution's version and which distributions provide this project's import names.

The wheel installs four top-level packages, ``units``, ``adapters``, ``verifier`` and
``evals``; PyPI has unrelated distributions of some of those names (``adapters`` is
AdapterHub's), and pip lets one overwrite another's files silently.
:func:`import_name_owners` says who provides each name, so ``bgverify --version``
can warn.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, packages_distributions, version
from typing import Final

DISTRIBUTION: Final[str] = "binding-graph-verifier"
IMPORT_NAMES: Final[tuple[str, ...]] = ("units", "adapters", "verifier", "evals")


def distribution_version() -> str:
    """The installed version of :data:`DISTRIBUTION`, or ``"unknown"`` when running from an uninstalled checkout."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown"


def import_name_owners() -> dict[str, list[str]]:
    """Import name → the distributions that provide it (``importlib.metadata.packages_distributions``), sorted."""
    owners = packages_distributions()
    return {name: sorted(set(owners.get(name, []))) for name in IMPORT_NAMES}


__all__ = ["DISTRIBUTION", "IMPORT_NAMES", "distribution_version", "import_name_owners"]
