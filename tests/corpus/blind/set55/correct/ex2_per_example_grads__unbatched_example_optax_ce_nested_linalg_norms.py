# BLIND-SET: 55
# EXERCISE: ex2
# WHAT: correct: vmap(grad) over an UNBATCHED example (xi of shape (784,), scalar yi; the model works on a single row), loss via optax.softmax_cross_entropy_with_integer_labels summed (sum == mean for one example); norms are per-leaf jnp.linalg.norm over each example's flattened leaf (vmapped), combined with jnp.linalg.norm(stack, axis=0); index via .item().
# SHOULD-SAY: Nothing to fix: every ex2 check should pass.
"""Exercise 2: per-example gradients, functorch-style (vmap(grad(f)) over single samples)."""

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _sample_loss(params, xi, yi):
    # torch.func style: f(params, x_i, y_i) on one sample, no batch dimension
    logits = forward(params, xi)  # (10,)
    return optax.softmax_cross_entropy_with_integer_labels(logits, yi).sum()


def per_example_grads(params, x, y):
    return jax.vmap(jax.grad(_sample_loss), in_axes=(None, 0, 0))(params, x, y.astype(jnp.int32))


def per_example_grad_norms(grads):
    leaf_norms = [jax.vmap(lambda g: jnp.linalg.norm(jnp.ravel(g)))(leaf)
                  for leaf in jax.tree_util.tree_leaves(grads)]
    return jnp.linalg.norm(jnp.stack(leaf_norms), axis=0)


def largest_gradient_example(params, x, y):
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return jnp.argmax(norms).item()
