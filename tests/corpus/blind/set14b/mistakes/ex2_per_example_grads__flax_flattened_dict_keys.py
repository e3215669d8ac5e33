# BLIND-SET: 14
# EXERCISE: ex2
# WHAT: per_example_grads flattens the result into a one-level dict keyed "layer1/w", "layer1/b", ... (flax.traverse_util.flatten_dict(sep="/") style, "easier to log") instead of returning a pytree shaped like params.
# SHOULD-SAY: The per-example gradient values are right and vectorised, and per_example_grad_norms and largest_gradient_example give the right answers, but per_example_grads must return a pytree with the same structure as params ({"layer1": {"w", "b"}, ...}) with a leading batch axis on each leaf; it returns a flat dict with "layer1/w"-style keys, so grads["layer1"]["w"] does not exist. Return the vmapped gradient tree as it is.
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


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""

    def single(p, xi, yi):
        return loss_fn(p, xi[None], yi[None])

    grads = jax.vmap(jax.grad(single), in_axes=(None, 0, 0))(params, x, y)
    # One flat level of "layer/param" names, like flax.traverse_util.flatten_dict(sep="/").
    return {f"{layer}/{name}": leaf for layer, sub in grads.items() for name, leaf in sub.items()}


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    squares = [jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1) for g in jax.tree.leaves(grads)]
    return jnp.sqrt(sum(squares))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
