# BLIND-SET: 15
# EXERCISE: ex2
# WHAT: per_example_grads is a vmapped jax.grad; the norms sum per-leaf squares with jax.tree.reduce; largest_gradient_example never materialises the per-example gradients but uses the identity ||grad_W||^2 = ||a||^2 * ||delta||^2 for a dense layer (plus ||delta||^2 for its bias), with the deltas from one jax.grad of the summed loss with respect to zero perturbations of the pre-activations.
# SHOULD-SAY: All ex2 checks pass: per-example gradients match leaf by leaf with a leading axis of size B and come from one vmapped jax.grad, the norms cover every weight and bias leaf, largest_gradient_example returns a plain Python int pointing at the largest gradient norm (the same example the per-example norms give), and results agree under jax.jit.
"""Exercise 2: per-example gradients with jax.vmap over jax.grad."""

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

    def example_loss(p, xi, yi):
        return loss_fn(p, xi[None], yi[None])

    return jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    per_leaf = jax.tree.map(lambda g: jnp.sum(jnp.square(g.reshape(g.shape[0], -1)), axis=1), grads)
    return jnp.sqrt(jax.tree.reduce(jnp.add, per_leaf))


_LAYERS = ("layer1", "layer2", "layer3")


def _squared_norms_from_activations(params, x, y):
    """||grad_i||^2 for every example i without forming the per-example gradients.

    For a dense layer z = a @ w + b, example i's gradient is outer(a_i, delta_i)
    for w and delta_i for b, where delta_i = d loss_i / d z_i. So
    ||grad_w||^2 + ||grad_b||^2 = (||a_i||^2 + 1) * ||delta_i||^2.
    """

    def summed_loss(shifts):
        h, inputs = x, []
        for depth, (name, shift) in enumerate(zip(_LAYERS, shifts)):
            inputs.append(h)
            z = h @ params[name]["w"] + params[name]["b"] + shift
            h = z if depth == len(_LAYERS) - 1 else jax.nn.relu(z)
        # sum (not mean) of the per-example losses: d/d shift_i is example i's delta
        return -jnp.sum(jax.nn.log_softmax(h) * jax.nn.one_hot(y, 10)), inputs

    shifts = [jnp.zeros((x.shape[0], params[name]["b"].shape[0]), x.dtype) for name in _LAYERS]
    deltas, inputs = jax.grad(summed_loss, has_aux=True)(shifts)
    return sum(
        (jnp.sum(a * a, axis=1) + 1.0) * jnp.sum(d * d, axis=1) for a, d in zip(inputs, deltas)
    )


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(_squared_norms_from_activations(params, x, y)))
