"""What the child does for each task: call student functions, record what they return.

Each probe is ``probe(recorder, modules, inputs, options)``; ``modules`` maps a
student module name to the imported module, ``inputs`` is the nested dict the
parent wrote (see ``grader.inputs``).
"""

import importlib

from grader.exercises import ALL

_MODULES = {e.id: importlib.import_module(e.probe) for e in ALL}
PROBES = {task: module.probe for task, module in _MODULES.items()}
#: Optional ``prepare(inputs, options)`` per task, run before student code is imported.
PREPARE = {task: module.prepare for task, module in _MODULES.items() if hasattr(module, "prepare")}
