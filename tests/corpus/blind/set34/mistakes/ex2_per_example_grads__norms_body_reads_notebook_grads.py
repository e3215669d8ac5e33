# BLIND-SET: 34
# EXERCISE: ex2
# WHAT: per_example_grad_norms names its argument `example_grads` but computes the norms of `grads`, the module-level per-example gradients a notebook cell computed at import on the 8-row demo batch. It always returns the same 8 demo norms whatever it is given (wrong values and wrong shape for B != 8), and largest_gradient_example always returns the demo batch's index.
# SHOULD-SAY: per_example_grad_norms never uses its argument: `grads` in its body is the global from your notebook cell `grads = per_example_grads(params, x_batch, y_batch)`, so the norms (and the largest index) are those of the demo batch. Compute the norms of the argument: `jax.vmap(_tree_norm)(example_grads)`.
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


# --- cells pasted from the lesson notebook ------------------------------------
key = jax.random.PRNGKey(0)
key, init_key, x_key, y_key = jax.random.split(key, 4)


def init_params(key, sizes=(784, 256, 128, 10)):
    params = {}
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:]), start=1):
        key, sub = jax.random.split(key)
        params[f"layer{i}"] = {
            "w": jax.random.normal(sub, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
            "b": jnp.zeros(n_out),
        }
    return params


params = init_params(init_key)
x_batch = jax.random.normal(x_key, (8, 784))
y_batch = jax.random.randint(y_key, (8,), 0, 10)



# --- exercise -----------------------------------------------------------------


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


# notebook: per-example gradients of the demo batch
grads = per_example_grads(params, x_batch, y_batch)


def per_example_grad_norms(example_grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
