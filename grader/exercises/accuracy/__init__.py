"""accuracy: the student's pieces (ex1, ex3, ex5), trained together, against a calibrated threshold."""

from grader.exercises.record import Exercise

EXERCISE = Exercise("accuracy", "Training with your pieces", ("ex1_dropout", "ex3_mlp_forward", "ex5_clipping"),
                    cost=6, reference=False, runs_for_speed=True)
