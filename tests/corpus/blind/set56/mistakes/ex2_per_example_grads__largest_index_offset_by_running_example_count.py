# BLIND-SET: 56
# EXERCISE: ex2
# WHAT: largest_gradient_example adds a module-level running offset `seen` (the number of examples passed through it so far, "to find the example in the full training set") to the argmax and then increases it by B. The file's own demo cell already calls it once at import (offset 128), so even the grader's first call returns argmax + 128, and every later call adds the sizes of all earlier batches: always outside 0..B-1.
# SHOULD-SAY: The index must be the position in the batch you were given (0..B-1), and the same inputs must give the same answer on every call; yours adds a global counter `seen` carried over from previous calls. Return int(jnp.argmax(norms)) and keep the training-set offset bookkeeping outside this function.
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

seen = 0  # how many training examples I have looked at so far


# --- cell 3: per-example gradients --------------------------------------------------


def per_example_grads(params, x, y):
    def one(p, xi, yi):
        return loss_fn(p, xi.reshape(1, -1), yi.reshape(1))

    return jax.vmap(jax.grad(one), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    total = 0.0
    for layer in grads.values():
        for leaf in layer.values():
            total = total + jnp.sum(jnp.square(leaf).reshape(leaf.shape[0], -1), axis=1)
    return jnp.sqrt(total)


# --- cell 4: which training example pulls hardest? ----------------------------------


def largest_gradient_example(params, x, y):
    global seen
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    i = seen + int(jnp.argmax(norms))  # index into the full training set
    seen += x.shape[0]
    return i


print("largest in first batch:", largest_gradient_example(params, x_batch, y_batch))
