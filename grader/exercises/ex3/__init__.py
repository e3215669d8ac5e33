"""ex3: A generic mlp_forward."""

from grader.exercises.record import Exercise

EXERCISE = Exercise("ex3", "A generic mlp_forward", ("ex3_mlp_forward",), cost=1, has_recipes=True)
