"""ex5: Clipping in an optax chain."""

from grader.exercises.record import Exercise

EXERCISE = Exercise("ex5", "Clipping in an optax chain", ("ex5_clipping",), cost=3,
                    has_recipes=True, question_from="accuracy")
