# BLIND-SET: 24
# EXERCISE: ex2
# WHAT: to keep "the same shapes as the full batch" inside vmap, the single-example loss writes example i into row 0 of an all-zero (B, 784) batch with label 0 everywhere else and takes loss_fn of that padded batch; the padding rows are never masked out, so slice i is (grad_i + (B-1) * grad_of_a_zero_image_labelled_0) / B rather than grad_i (it is only right when B == 1), and the work per example grows with B.
# SHOULD-SAY: The per-example gradients do not match the gradient of the loss on example i alone: the padded zero rows (label 0) take part in the mean, diluting example i by 1/B and adding the gradient of the padding. vmap and jit do not need the full batch shape inside the mapped function — each call sees one example; compute loss_fn(params, xi[None], yi[None]).
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
        # keep the batch shape static: put the example in row 0 of a batch shaped like x
        padded_x = jnp.zeros_like(x).at[0].set(xi)
        padded_y = jnp.zeros_like(y).at[0].set(yi)
        return loss_fn(params, padded_x, padded_y)

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
