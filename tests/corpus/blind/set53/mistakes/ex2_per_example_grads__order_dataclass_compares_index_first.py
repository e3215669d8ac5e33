# BLIND-SET: 53
# EXERCISE: ex2
# WHAT: largest_gradient_example builds `ExampleScore(index, norm)` objects from a `@dataclass(order=True)` and takes `max`; dataclass ordering compares fields in declaration order, so index is compared first and the result is always B-1, whatever the norms. Gradients and norms are right.
# SHOULD-SAY: largest_gradient_example returns the last index instead of the argmax of the norms: `order=True` compares `index` before `norm`. Declare `norm` first, mark `index` with `field(compare=False)`, or use `int(jnp.argmax(norms))`.
"""Exercise 2: per-example gradients with jax.vmap, written with small classes."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------


@dataclass(order=True, frozen=True)
class ExampleScore:
    index: int
    norm: float


class PerExampleGradients:
    def __init__(self, loss=loss_fn):
        self.loss = loss

    def single(self, params, xi, yi):
        return self.loss(params, xi[None], yi[None])

    def __call__(self, params, x, y):
        return jax.vmap(jax.grad(self.single), in_axes=(None, 0, 0))(params, x, y)

    @staticmethod
    def norms(grads):
        leaves = jax.tree.leaves(grads)
        total = jnp.zeros(leaves[0].shape[0], dtype=leaves[0].dtype)
        for leaf in leaves:
            total = total + jnp.sum(jnp.square(leaf.reshape(leaf.shape[0], -1)), axis=1)
        return jnp.sqrt(total)


_GRADS = PerExampleGradients()


def per_example_grads(params, x, y):
    return _GRADS(params, x, y)


def per_example_grad_norms(grads):
    return PerExampleGradients.norms(grads)


def largest_gradient_example(params, x, y):
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    scores = [ExampleScore(i, float(n)) for i, n in enumerate(norms)]
    return max(scores).index
