"""Run untrusted code in a child process: launched, confined, supervised, and ended with all it started.

- :mod:`~grader.sandbox.launch`: :func:`run_task`, one exercise run in a fresh
  interpreter or a child of the fork server, and what its ending means;
- :mod:`~grader.sandbox.supervise`: reading a child's output (bounded), its
  deadline, and killing it, the same for both kinds of child;
- :mod:`~grader.sandbox.tree`: starting, listing and killing a process tree;
- :mod:`~grader.sandbox.forkserver`: the interpreter that imports JAX once and
  forks a child per run;
- :mod:`~grader.sandbox.confine` (in the child) and
  :mod:`~grader.sandbox.policy` (in the grader): what a child may touch, and
  what this machine can enforce;
- :mod:`~grader.sandbox.machine`: the one module that knows the operating
  system.

What a run is given and gives back (:class:`Limits`, :class:`RunResult`, the
observations and their files) is plain data in :mod:`grader.observations`.

Importing this package imports none of its modules: a confined child imports
:mod:`grader.sandbox.confine` before any thread exists in it (numpy starts
threads), so each name below loads its module on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "Confinement",
    "ConfinementRefused",
    "Limits",
    "NONE",
    "Offers",
    "RunResult",
    "kill_tree",
    "offered",
    "offers",
    "package_parent",
    "require_full",
    "run_task",
    "warm_up",
]

#: Where each public name lives.
_HOMES = {
    "Confinement": "grader.sandbox.confine",
    "ConfinementRefused": "grader.sandbox.policy",
    "Limits": "grader.observations",
    "NONE": "grader.sandbox.policy",
    "Offers": "grader.sandbox.machine",
    "RunResult": "grader.observations",
    "kill_tree": "grader.sandbox.tree",
    "offered": "grader.sandbox.policy",
    "offers": "grader.sandbox.machine",
    "package_parent": "grader.sandbox.tree",
    "require_full": "grader.sandbox.policy",
    "run_task": "grader.sandbox.launch",
    "warm_up": "grader.sandbox.launch",
}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'grader.sandbox' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
