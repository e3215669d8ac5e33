"""ex1: Dropout with split PRNG keys."""

from grader.exercises.record import Exercise

EXERCISE = Exercise("ex1", "Dropout with split PRNG keys", ("ex1_dropout",), cost=2, has_recipes=True)
