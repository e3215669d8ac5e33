"""What ex2's probe (child side) and checks (judging side) both read. Standard library only."""

#: The batches per_example_grads is checked on (observation ``grads/<case>`` each, inputs ``ex2/<case>``).
GRAD_CASES = ("small", "lesson", "single")

#: The batches largest_gradient_example is asked about: in each one example stands out, at a position
#: drawn from the seed, so a constant index is right on all of them about once in 2,500 seeds. They have the
#: shapes of batches per_example_grads is checked on, so eager JAX compiles nothing new for them. On
#: ``small2`` the loss, the logits' residual and the input's size each point at another example; on ``small3``
#: the largest norm is a correctly classified example's, and the smallest lies furthest from the others; on
#: ``small4`` no score made from the per-leaf norms (summed unsquared, z-scores) points at the largest norm.
LARGEST_CASES = ("small", "lesson", "small2", "small3", "small_reversed", "small4")
#: Cases asked about with another case's params object itself (not a copy): ``small_reversed`` is the small batch
#: with its examples in reverse order, so its sums, shapes and params are the small batch's and its answer is not
#: (an answer kept by the params' identity, the batch's shape or its sums shows).
SAME_PARAMS = {"small_reversed": "small"}

#: The batch sizes per_example_grads is traced at (``jax.make_jaxpr``, nothing runs): its program must not grow with
#: the batch, and on 13 examples (above 8, a multiple of no chunk size) every leaf's leading axis must be 13.
VECTOR_BATCHES = (2, 13)
#: The classes of the lesson's labels: the lesson case's batch has as many examples.
NUM_CLASSES = 10

#: The lesson's own question: per-example gradients of this many MNIST images (the first of the
#: embedded training split), at the accuracy run's initial params. Observed, shown, never scored.
LESSON_IMAGES = 32

#: The examples of the gradient tree whose norms word a wrong norm (``probe._unit_tree``), and their L2 norms.
UNIT_EXAMPLES = ("a single 1", "a single -1", "a 1 and a -1 in one leaf", "a 1 in each of two leaves", "a single 2",
                 "zeros")
UNIT_NORMS = (1.0, 1.0, 2 ** 0.5, 2 ** 0.5, 2.0, 0.0)
#: per_example_grad_norms is also given six examples that are each a single 1 (norm 1) at one of these places of the
#: norm tree (layer, leaf, flat index; -1 the last): every leaf's first entry and each weight matrix's last. An
#: entry that never reaches the norm (a leaf left out, leaves overlapping in one flat buffer) gives 0 there.
LEAF_UNIT_PLACES = (("layer1", "b", 0), ("layer1", "w", 0), ("layer1", "w", -1), ("layer2", "b", 0),
                    ("layer2", "w", 0), ("layer2", "w", -1))

#: per_example_grads is also run on the small batch with its inputs this many times larger, where the logits
#: reach several hundred (observation ``measure/large_logits``): a cross-entropy whose exp overflows there (a
#: log-sum-exp that does not subtract the largest logit) shows.
LARGE_INPUTS = 40.0

#: Batches on which the model is sure of every label (``largest/<name>``, the small batch's shapes, labels its own
#: predictions, the last layer scaled so the smallest margin between its top two logits is the value given): at
#: 30 the gradients are tiny (the largest norm about 1e-9, every other far smaller) and at 120 exactly 0 in
#: float32, every norm tied at 0, where any index of the batch is an answer.
SATURATED = {"tiny": 30.0, "flat": 120.0}
#: The batches largest_gradient_example is also asked about, judged once it is right on ``LARGEST_CASES``: the
#: batch of one example per_example_grads is checked on (``single``: the only index is 0), then ``SATURATED``'s.
BOUNDARY_CASES = ("single", *SATURATED)
#: Where the tiny batch's largest norm is put.
TINY_LARGEST_AT = 5
#: ``norms/tiny``: the norm tree scaled by this, with example ``ZERO_EXAMPLE``'s gradient all zero.
TINY_SCALE = 1e-6
ZERO_EXAMPLE = 1

#: per_example_grads is called again on the small batch with one argument changed (``again/<name>``): the labels
#: moved one class on, or the params scaled by OTHER_PARAMS_SCALE. A result kept from the earlier call (a cache
#: keyed on x alone, or on the shapes) shows.
RELABEL_SHIFT = 1
OTHER_PARAMS_SCALE = 0.5
#: per_example_grad_norms is also given the norm tree's six examples tiled to this many, each scaled by 1 + i /
#: MANY_EXAMPLES (``norms/many``): more examples than the lesson's batch of 128 or a power of two, so a buffer, table
#: or loop bound sized for fewer shows.
MANY_EXAMPLES = 300

