"""ex4: The jit timing harness."""

from grader.exercises.record import Exercise

EXERCISE = Exercise("ex4", "The jit timing harness", ("ex4_jit_speedup",), cost=5, waits=True, runs_for_speed=True,
                    machine_dependent=("speedup", "time/compile", "time/async", "time/count", "time/uneven",
                                       "time/host", "time/one", "time/instant", "time/repeat",
                                       "time/many"))
