# BLIND-SET: 56
# EXERCISE: ex2
# WHAT: largest_gradient_example takes jax.lax.top_k(norms, TOP_K)[1][0], with TOP_K = 5 a module-level value from the notebook's "show the top 5 images" cell. The index equals the reference's for B >= 5, but for batches of 1 to 4 examples (allowed) top_k raises because k exceeds the batch size.
# SHOULD-SAY: largest_gradient_example fails on batches with fewer than 5 examples: it asks top_k for the notebook's TOP_K = 5 entries, which only works for batches at least that large. You only need the single largest: use int(jnp.argmax(norms)) (or top_k with k=1).
"""Exercise 2: per-example gradients with jax.vmap (pasted from my Colab notebook)."""

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


# --- cell 2: notebook data ----------------------------------------------------------


def init_params(key, sizes=(784, 256, 128, 10)):
    params = {}
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:]), start=1):
        key, sub = jax.random.split(key)
        params[f"layer{i}"] = {
            "w": jax.random.normal(sub, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
            "b": jnp.zeros(n_out),
        }
    return params


params = init_params(jax.random.PRNGKey(0))
x_batch = jax.random.normal(jax.random.PRNGKey(1), (128, 784))
y_batch = jax.random.randint(jax.random.PRNGKey(2), (128,), 0, 10)

TOP_K = 5  # how many images to show in the plot cell


# --- cell 3: per-example gradients --------------------------------------------------


def per_example_grads(params, x, y):
    def single(params, x1, y1):
        return loss_fn(params, x1[None], y1[None])

    batched = jax.vmap(jax.grad(single), in_axes=(None, 0, 0))
    return batched(params, x, y)


def per_example_grad_norms(grads):
    leaves = jax.tree.leaves(grads)
    B = leaves[0].shape[0]
    flat = jnp.concatenate([l.reshape(B, -1) for l in leaves], axis=1)
    return jnp.linalg.norm(flat, axis=1)


# --- cell 4: top examples -------------------------------------------------------------


def largest_gradient_example(params, x, y):
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    vals, idxs = jax.lax.top_k(norms, TOP_K)
    print("top norms:", vals)
    return int(idxs[0])


print("largest:", largest_gradient_example(params, x_batch, y_batch))
