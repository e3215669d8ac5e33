# BLIND-SET: 40
# EXERCISE: ex2
# WHAT: per_example_grads ends with the torch habit `{k: v.detach().cpu().numpy() ...}`, translated as np.asarray(jax.device_get(jax.lax.stop_gradient(g))) on every leaf. Called directly it returns numpy arrays with the right values, but under jax.jit (or vmap/grad of it) np.asarray meets a tracer and raises TracerArrayConversionError, so per_example_grads (and largest_gradient_example) no longer work under jax.jit.
# SHOULD-SAY: per_example_grads fails under jax.jit because it converts every gradient leaf to a host numpy array (the .detach().cpu().numpy() habit). JAX arrays need no detaching or moving: return the vmapped gradients as they are.
"""Exercise 2: per-example gradients with jax.vmap (functorch habits)."""

import jax
import jax.numpy as jnp
import numpy as np


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def compute_loss(params, sample, target):
    """Loss of one example (the functorch per-sample-grads recipe)."""
    return loss_fn(params, sample[None], target[None])  # unsqueeze(0)


def _detach_cpu_numpy(t):
    """tensor.detach().cpu().numpy()"""
    return np.asarray(jax.device_get(jax.lax.stop_gradient(t)))


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""
    ft_compute_sample_grad = jax.vmap(jax.grad(compute_loss), in_axes=(None, 0, 0))
    sample_grads = ft_compute_sample_grad(params, x, y)
    return {
        layer: {name: _detach_cpu_numpy(g) for name, g in leaves.items()}
        for layer, leaves in sample_grads.items()
    }


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    sq = [jnp.sum(jnp.reshape(g, (g.shape[0], -1)) ** 2, axis=1) for g in jax.tree.leaves(grads)]
    return jnp.sqrt(sum(sq))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms).item())
