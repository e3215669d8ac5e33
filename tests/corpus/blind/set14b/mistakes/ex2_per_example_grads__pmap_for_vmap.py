# BLIND-SET: 14
# EXERCISE: ex2
# WHAT: per_example_grads maps the gradient over examples with jax.pmap instead of jax.vmap, which needs one device per example: it only works for a batch of 1 on a one-device CPU machine.
# SHOULD-SAY: per_example_grad_norms is right (it gives the correct norms for correct gradients), but per_example_grads (and so largest_gradient_example) fails for any batch larger than the number of devices: jax.pmap places each example on its own device, so on a one-CPU machine it raises an error (in JAX 0.10 a ValueError about squeezing an axis of size B, in older versions a 'requires B devices' error); use jax.vmap(jax.grad(...), in_axes=(None, 0, 0)) to vectorise on one device.
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

    # map over the examples: params shared, x and y split along axis 0
    return jax.pmap(jax.grad(single), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    squares = [jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1) for g in jax.tree.leaves(grads)]
    return jnp.sqrt(sum(squares))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
