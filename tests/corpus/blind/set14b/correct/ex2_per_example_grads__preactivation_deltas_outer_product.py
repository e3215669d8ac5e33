# BLIND-SET: 14
# EXERCISE: ex2
# WHAT: per_example_grads vmaps jax.grad with respect to zero perturbations added to each layer's pre-activation (the per-example "deltas"), then rebuilds the weight gradients as outer products of the layer inputs with the deltas (Goodfellow's trick) and the bias gradients as the deltas themselves.
# SHOULD-SAY: Full marks: the gradients match the per-example computation leaf by leaf with a leading batch axis and the params structure, the computation is vectorised (vmap over grad, no Python loop over examples), the norms cover every weight and bias, the index is a Python int at the largest norm, results agree under jax.jit and the inputs are left unmodified.
"""Exercise 2: per-example gradients with jax.vmap."""

import jax
import jax.numpy as jnp

_LAYERS = ("layer1", "layer2", "layer3")


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _example_loss_from_preacts(deltas, params, xi, yi):
    """Loss of one example with a perturbation added to each pre-activation.

    Returns the loss and, as auxiliary output, the input of every layer.
    """
    inputs = []
    h = xi
    for i, name in enumerate(_LAYERS):
        inputs.append(h)
        z = h @ params[name]["w"] + params[name]["b"] + deltas[i]
        h = jax.nn.relu(z) if i < len(_LAYERS) - 1 else z
    loss = -jnp.sum(jax.nn.log_softmax(h) * jax.nn.one_hot(yi, 10))
    return loss, inputs


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""
    zeros = [jnp.zeros(params[name]["b"].shape, x.dtype) for name in _LAYERS]

    def deltas_and_inputs(xi, yi):
        return jax.grad(_example_loss_from_preacts, has_aux=True)(zeros, params, xi, yi)

    deltas, inputs = jax.vmap(deltas_and_inputs)(x, y)
    # dL/dW = outer(layer input, dL/dz), dL/db = dL/dz, per example.
    return {
        name: {"w": jnp.einsum("bi,bj->bij", inputs[i], deltas[i]), "b": deltas[i]}
        for i, name in enumerate(_LAYERS)
    }


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    total = 0.0
    for layer in grads.values():
        for g in layer.values():
            total = total + jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1)
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
