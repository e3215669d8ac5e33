# BLIND-SET: 17
# EXERCISE: ex2
# WHAT: the single-example loss builds its target with jax.nn.one_hot(yi, logits.shape[0]) on batch-of-one logits of shape (1, 10), so the one-hot has width 1 and broadcasts: label-0 examples get -sum(log_softmax) over all classes, every other example gets loss 0 and a zero gradient
# SHOULD-SAY: vmap over grad with in_axes=(None, 0, 0), the leading B axis, the norms and the int index are fine, but the per-example gradients are wrong because the number of classes is read from the wrong axis (logits.shape[0] is the batch of one, not 10); use jax.nn.one_hot(yi, 10) (or logits.shape[-1]) so the per-example loss matches loss_fn on x[i:i+1]
"""Exercise 2: per-example gradients with jax.vmap."""

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


# --- Your code ----------------------------------------------------------------


def _example_loss(p, xi, yi):
    """Cross-entropy of one example, run through the model as a batch of one."""
    logits = forward(p, xi[None, :])
    n_classes = logits.shape[0]
    target = jax.nn.one_hot(yi, n_classes)
    return -jnp.sum(jax.nn.log_softmax(logits) * target)


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""
    return jax.vmap(jax.grad(_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    squares = [jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1) for g in jax.tree.leaves(grads)]
    return jnp.sqrt(sum(squares))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
