"""Code that runs inside the sandboxed child process, next to student code.

Nothing in here judges: it calls the student's functions on the grader's
inputs and records what comes back (``recorder``), and the parent decides.
The child entry point is ``child.main``; each exercise's probe is ``grader/exercises/<id>/probe.py``,
and ``probes`` maps exercise ids to them, with helpers they share.
"""
