"""The probes: what the child does for each exercise (``grader/exercises/<id>/probe.py``).

Each probe is ``probe(recorder, modules, inputs, options)``; ``modules`` maps a
student module name to the imported module, ``inputs`` is the nested dict the
parent wrote (see ``grader.inputs``). Helpers shared by the probes live in
``grader/harness/probe_tools.py``, outside this package, so a probe imports them without importing every
other probe first.
"""

import importlib

from grader.exercises import ALL

_MODULES = {e.id: importlib.import_module(e.probe) for e in ALL}
PROBES = {exercise: module.probe for exercise, module in _MODULES.items()}
#: Optional ``prepare(inputs, options)`` per exercise, run before student code is imported.
PREPARE = {exercise: module.prepare for exercise, module in _MODULES.items() if hasattr(module, "prepare")}
