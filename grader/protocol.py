"""What the child and the parent share about every run, whatever the exercise.

Each exercise's own names and parameters live in its package (``grader/exercises/<id>/shared.py``).
Standard library only.
"""

#: The harness writes this to the child's stdout, unbuffered, just before it imports student code. A run that
#: ended without results and without it failed in the grader's own machinery (bad environment, unsupported
#: jax, a harness bug): no student code ran, and none can take back bytes already in the pipe.
STUDENT_CODE_STARTS = "\x1ejax-grader: running the submission\x1e\n"

#: A run's option: leave out the lesson's question (shown, never scored) for a grade whose reports show it
#: nowhere (a batch). Only what the run would compute for the question alone is left out; no check reads it.
SKIP_LESSON = "no-lesson"

#: JAX's words for an array used after a jitted call with donate_argnums deleted its buffer: the jax.Array's, then
#: the runtime's. The child names such a crash by them; the parent reads them in the last words of a run that died.
DELETED_ARRAY_WORDS = ("Array has been deleted", "Buffer has been deleted or donated")

#: The observation a run records when the probe itself stopped on an exception outside its calls of the
#: submission's functions (usually on something those functions changed or deleted): what it observed before
#: stands, and every observation it never made is charged with this error rather than the whole run.
PROBE_STOPPED = "run/stopped"
