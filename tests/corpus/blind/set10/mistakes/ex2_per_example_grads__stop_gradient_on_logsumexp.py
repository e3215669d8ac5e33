# BLIND-SET: mistake
# EXERCISE: ex2
# WHAT: the per-example loss writes a 'stable' log-softmax as logits - stop_gradient(logsumexp(logits)), so the loss value is right but the softmax term is missing from the gradient.
# SHOULD-SAY: ex2 gradient-agreement check fails (gradients are those of -logit[y] only; loss values would still match); shapes and vectorisation are right; norms/argmax follow from the wrong gradients.
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
        logits = forward(params, xi[None])
        # stable log-softmax; the normaliser is a constant w.r.t. the params
        log_probs = logits - jax.lax.stop_gradient(jax.nn.logsumexp(logits, axis=-1, keepdims=True))
        return -jnp.mean(jnp.sum(log_probs * jax.nn.one_hot(yi[None], 10), axis=-1))

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
