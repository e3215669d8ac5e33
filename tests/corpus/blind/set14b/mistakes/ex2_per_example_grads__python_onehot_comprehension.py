# BLIND-SET: 14
# EXERCISE: ex2
# WHAT: the one-hot targets are built with a Python list comprehension over the labels (1.0 if c == int(t) else 0.0), which works eagerly but calls int() on traced values, so per_example_grads cannot run under jax.jit.
# SHOULD-SAY: Eagerly everything is right (per-example gradients, leading batch axis, norms over all leaves, a Python int index), but per_example_grads fails under jax.jit with a ConcretizationTypeError: int(t) on a traced label inside the comprehension needs a concrete value. Build the targets with jax.nn.one_hot(y, 10) (or jnp.arange(10) == y[:, None]), which trace fine.
"""Exercise 2: per-example gradients with jax.vmap."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _one_hot_rows(labels):
    """(B,) integer labels -> (B, 10) float32 one-hot rows."""
    return jnp.array([[1.0 if c == int(t) else 0.0 for c in range(10)] for t in labels], dtype=jnp.float32)


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""
    targets = _one_hot_rows(y)

    def single(p, xi, ti):
        logits = forward(p, xi[None])
        return -jnp.sum(jax.nn.log_softmax(logits[0]) * ti)

    return jax.vmap(jax.grad(single), in_axes=(None, 0, 0))(params, x, targets)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    squares = [jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1) for g in jax.tree.leaves(grads)]
    return jnp.sqrt(sum(squares))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
