"""What ex2's probe (child side) and checks (judging side) both read. Standard library only."""

#: The batches per_example_grads is checked on (observation ``grads/<case>`` each, inputs ``ex2/<case>``).
GRAD_CASES = ("small", "lesson", "single")

#: The batches largest_gradient_example is asked about: in each one example stands out, at a position
#: drawn from the seed, so a constant index is right on all of them about once in 320 seeds. They have the
#: shapes of batches per_example_grads is checked on, so eager JAX compiles nothing new for them.
LARGEST_CASES = ("small", "lesson", "small2")

#: The lesson's own question: per-example gradients of this many MNIST images (the first of the
#: embedded training split), at the accuracy run's initial params. Observed, shown, never scored.
LESSON_IMAGES = 32
