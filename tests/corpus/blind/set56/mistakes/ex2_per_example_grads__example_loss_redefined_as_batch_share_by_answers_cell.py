# BLIND-SET: 56
# EXERCISE: ex2
# WHAT: per_example_grads vmaps jax.grad of a module-level helper `example_loss`; a later cell written for answers.md redefines `example_loss` as the example's share of the notebook batch's mean loss (divided by len(y_batch) = 128), and that later definition wins. Every per-example gradient (and norm) is 1/128 of the reference's, at every batch size; the argmax index is unchanged.
# SHOULD-SAY: Your per-example gradients are 128 times too small: `example_loss` is redefined further down (the "share of the batch loss" cell divides by len(y_batch)), and per_example_grads picks up that later definition. Give the answers-cell helper another name so per_example_grads differentiates loss_fn(params, xi[None], yi[None]) unscaled.
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


# --- cell 3: per-example gradients --------------------------------------------------


def example_loss(params, xi, yi):
    """loss of ONE example: add a batch axis of 1"""
    return loss_fn(params, xi[None, :], yi[None])


def per_example_grads(params, x, y):
    return jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0))(params, x, y)


g = per_example_grads(params, x_batch, y_batch)
print(jax.tree.map(jnp.shape, g))


# --- cell 4: norms + argmax ----------------------------------------------------------


def per_example_grad_norms(grads):
    sq = [jnp.sum(leaf.reshape(leaf.shape[0], -1) ** 2, axis=1) for leaf in jax.tree.leaves(grads)]
    return jnp.sqrt(sum(sq))


def largest_gradient_example(params, x, y):
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))


idx = largest_gradient_example(params, x_batch, y_batch)
print("largest:", idx, "label", int(y_batch[idx]))


# --- cell 5 (answers.md): each example's share of the batch loss ----------------------
# the batch loss is the MEAN, so example i only contributes loss_i / B to it


def example_loss(params, xi, yi):
    return loss_fn(params, xi[None, :], yi[None]) / len(y_batch)


shares = jax.vmap(example_loss, in_axes=(None, 0, 0))(params, x_batch, y_batch)
print("sum of shares == batch loss:", float(shares.sum()), float(loss_fn(params, x_batch, y_batch)))
