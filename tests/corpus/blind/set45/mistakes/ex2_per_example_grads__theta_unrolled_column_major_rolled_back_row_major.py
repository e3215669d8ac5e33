# BLIND-SET: 45
# EXERCISE: ex2
# WHAT: params are unrolled into one vector theta Ng-course style with column-major p.ravel(order="F") (MATLAB's Theta(:)), but rolled back inside the loss with a plain C-order reshape, so every weight matrix is scrambled; the gradients are therefore taken at scrambled weights (and returned in that scrambled layout), and all weight-gradient leaves, the bias gradients, the norms and the index differ from the reference.
# SHOULD-SAY: Your gradients are evaluated at the wrong weights: you unroll the params with ravel(order="F") but roll them back with reshape in the default C order, so the model inside the loss sees every weight matrix reshuffled. Unroll and roll back in the same order, or drop the flat vector and take jax.grad with respect to the params dict directly.
"""Exercise 2: per-example gradients with jax.vmap (theta-vector style)."""

import math

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

NAMES = [("layer1", "w"), ("layer1", "b"), ("layer2", "w"), ("layer2", "b"), ("layer3", "w"), ("layer3", "b")]


def unroll(params):
    """nn_params = [Theta1(:); b1(:); Theta2(:); ...]  (column-major, as in MATLAB)."""
    return jnp.concatenate([params[l][p].ravel(order="F") for l, p in NAMES])


def roll(theta, shapes):
    """Inverse of unroll: reshape(nn_params(a:b), size(Theta))."""
    out = {}
    start = 0
    for (l, p), shp in zip(NAMES, shapes):
        n = math.prod(shp)
        out.setdefault(l, {})[p] = theta[start:start + n].reshape(shp)
        start = start + n
    return out


def per_example_grads(params, x, y):
    """Gradient of the loss on each example, via a flat parameter vector theta."""
    shapes = [params[l][p].shape for l, p in NAMES]
    theta = unroll(params)

    def cost(th, xi, yi):  # costFunction(theta, X(i,:), y(i))
        return loss_fn(roll(th, shapes), xi[None, :], yi[None])

    gtheta = jax.vmap(jax.grad(cost), in_axes=(None, 0, 0))(theta, x, y)  # (B, n_params)
    return jax.vmap(lambda g: roll(g, shapes))(gtheta)  # back to the params layout, per example


def per_example_grad_norms(grads):
    """sqrt(sum(g.^2)) per example over every leaf."""
    leaves = jax.tree.leaves(grads)
    B = leaves[0].shape[0]
    sq = [jnp.sum(g.reshape(B, -1) ** 2, axis=1) for g in leaves]
    return jnp.sqrt(sum(sq))


def largest_gradient_example(params, x, y):
    """Index (0-based) of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
