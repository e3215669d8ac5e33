# BLIND-SET: 33
# EXERCISE: ex2
# WHAT: The single-example loss asserts `jnp.isfinite(loss)`, which raises on tracers inside jax.grad/jax.vmap; a try/except then silently falls back to a Python loop over examples. The gradients are numerically right, but the computation is never vectorised (cost grows linearly with B, one grad call per example).
# SHOULD-SAY: The vmap path always fails because a Python assert on a traced value cannot be evaluated, and the bare except hides it and takes the per-example loop. Remove the assert (or check finiteness outside the traced function) and drop the fallback so jax.vmap(jax.grad(...)) is what runs.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import jax
import jax.numpy as jnp
import optax

# optax.tree.norm is the current name; optax.global_norm is the older one.
_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm


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
        loss = loss_fn(params, xi[None], yi[None])
        assert jnp.isfinite(loss), "non-finite loss"
        return loss

    try:
        return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)
    except Exception:
        # fall back to one example at a time if the vectorised path fails
        grads = [jax.grad(loss_fn)(params, x[i : i + 1], y[i : i + 1]) for i in range(x.shape[0])]
        return jax.tree.map(lambda *g: jnp.stack(g), *grads)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
