"""Where the expected observations come from: what the checks compare a submission's with.

- :mod:`~grader.expected.cache`: the reference code, run here through the same
  sandbox and probes as a student, its observations cached on disk;
- :mod:`~grader.expected.sealed`: a sealed reference, observations kept
  without the code (the package ships one for the public inputs);
- :mod:`~grader.expected.sealing`: making a sealed reference from the code.

:func:`load_reference` picks one for a grade.
"""

from grader.expected.cache import Reference, ReferenceRunError, load_reference
from grader.expected.sealed import task_compilation_cache

__all__ = ["Reference", "ReferenceRunError", "load_reference", "task_compilation_cache"]
