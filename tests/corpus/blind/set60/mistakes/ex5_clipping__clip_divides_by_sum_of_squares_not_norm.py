# BLIND-SET: 60
# EXERCISE: ex5
# WHAT: make_optimizer chains a hand-written clip before optax.adam. The clip computes total (the sum of squares) and norm = sqrt(total), and triggers correctly on norm >= max_norm. But the clipped value is written leaf * max_norm / total, so a gradient over the threshold is scaled by max_norm/||g||^2 and ends up with norm max_norm/||g|| instead of max_norm. Gradients under max_norm are untouched. Over 6 gradients (norm about 4.85, a ×5000 spike at step 3): at (1e-3, 1) and (3e-2, 0.5) the updates differ from step 1 on (max |diff| 3.7e-4 to 1.3e-3, and 0.011 to 0.04); at (1e-2, 5), (1e-3, 100) and (1e-3, 2000) they are bit-identical for the 3 steps before the spike, then off by 0.011 to 0.013 and 1.3e-3 to 1.4e-3. The state structure is the same as the reference's. make_train_step is right: bit-identical with the reference optimizer. With its own optimizer one step at B = 128/32/1 moves params by up to 3.2e-4 to 7.5e-4 away from the reference.
# SHOULD-SAY: Clipping must rescale a too-large gradient to global norm max_norm, but the code divides by the sum of squares (total) instead of the norm, so a gradient with norm 24000 is scaled down to norm 4e-5 instead of 1. The threshold test is right; the scale factor is not: use leaf / norm * max_norm.
"""Exercise 5: gradient clipping in an optax chain."""

import jax
import jax.numpy as jnp
import optax

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- My code ------------------------------------------------------------------


def clip_by_total_norm(max_norm):
    # my own clipping step for the optax chain (it keeps no state)
    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        leaves, treedef = jax.tree.flatten(updates)

        # length of the whole gradient: square root of the sum of squares
        total = 0.0
        for leaf in leaves:
            total = total + jnp.sum(leaf ** 2)
        norm = jnp.sqrt(total)

        new_leaves = []
        for leaf in leaves:
            if_too_long = leaf * max_norm / total
            new_leaves.append(jnp.where(norm < max_norm, leaf, if_too_long))
        return jax.tree.unflatten(treedef, new_leaves), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    clipper = clip_by_total_norm(max_norm)
    adam = optax.adam(learning_rate)
    optimizer = optax.chain(clipper, adam)
    return optimizer


def make_train_step(optimizer):
    def step(params, opt_state, x, y):
        # loss and gradients at the params we were given
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_opt_state = optimizer.update(grads, opt_state, params)

        # new params = old params + updates, layer by layer
        new_params = {}
        for name in params:
            new_params[name] = {}
            for part in params[name]:
                new_params[name][part] = params[name][part] + updates[name][part]
        return new_params, new_opt_state, loss

    step = jax.jit(step)
    return step
