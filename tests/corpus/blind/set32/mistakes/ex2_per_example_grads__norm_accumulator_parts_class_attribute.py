# BLIND-SET: 32
# EXERCISE: ex2
# WHAT: per_example_grad_norms collects each leaf's per-example sum of squares in a NormAccumulator whose `parts = []` is a class attribute, so every accumulator ever made appends to one shared list. The first call is right; every later call also adds the squares of all earlier calls (norms grow, a different B raises a broadcast error, and a call under jit leaks tracers into the list).
# SHOULD-SAY: per_example_grad_norms gives the right norms only on its first call: NormAccumulator.parts is a class-level list shared by all instances, so squares from earlier calls are summed in. Make it an instance attribute (self.parts = [] in __init__, or a dataclass field with default_factory=list) so each call starts empty.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


class NormAccumulator:
    """Adds up per-example squared norms leaf by leaf."""

    parts = []

    def add(self, leaf):
        self.parts.append(jnp.sum(jnp.square(leaf.reshape(leaf.shape[0], -1)), axis=1))

    def norm(self):
        return jnp.sqrt(sum(self.parts))


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    accumulator = NormAccumulator()
    for leaf in jax.tree.leaves(grads):
        accumulator.add(leaf)
    return accumulator.norm()


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
