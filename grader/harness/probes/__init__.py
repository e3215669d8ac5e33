"""What the child does for each task: call student functions, record what they return.

Each probe is ``probe(recorder, modules, inputs, options)``; ``modules`` maps a
student module name to the imported module, ``inputs`` is the nested dict the
parent wrote (see ``grader.inputs``).
"""

from grader.harness.probes import accuracy, ex1, ex2, ex3, ex4, ex5

PROBES = {
    "ex1": ex1.probe,
    "ex2": ex2.probe,
    "ex3": ex3.probe,
    "ex4": ex4.probe,
    "ex5": ex5.probe,
    "accuracy": accuracy.probe,
}


#: Optional ``prepare(inputs, options)`` per task, run before student code is imported.
PREPARE = {"accuracy": accuracy.prepare}
