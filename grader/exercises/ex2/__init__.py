"""ex2: Per-example gradients with vmap."""

from grader.exercises.record import Exercise

EXERCISE = Exercise("ex2", "Per-example gradients with vmap", ("ex2_per_example_grads",), cost=4,
                    has_recipes=True, question_from="ex2", reads_inputs=("accuracy/params",))
