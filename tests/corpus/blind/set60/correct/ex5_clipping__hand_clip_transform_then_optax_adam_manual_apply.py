# BLIND-SET: 60
# EXERCISE: ex5
# WHAT: correct: make_optimizer is optax.chain(a hand-written clip, optax.adam(lr)). The clip is an optax.GradientTransformation with optax.EmptyState(). It flattens the updates, adds up sum(leaf * leaf) in a loop, takes sqrt, and maps each leaf to where(norm < max_norm, leaf, leaf / norm * max_norm). Its state has the same tree structure as the reference's. make_train_step jits a step with value_and_grad(loss_fn) and the given optimizer, and adds the updates to params layer by layer in nested loops. Measured over 6 gradients (norm about 4.85, a ×5000 spike at step 3) at (lr, max_norm) = (1e-3, 1), (3e-2, 0.5), (1e-2, 5), (1e-3, 100) and (1e-3, 2000): updates and final state are bit-identical, and jit agrees with eager within 7.5e-9. One and two steps at B = 128/32/1, with the reference optimizer and with its own, give bit-identical params, state and loss (the loss before the update).
# SHOULD-SAY: full marks
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

        # the length of the whole gradient, all leaves together
        total = 0.0
        for leaf in leaves:
            total = total + jnp.sum(leaf * leaf)
        norm = jnp.sqrt(total)

        new_leaves = []
        for leaf in leaves:
            # short gradients stay, long ones are shrunk to length max_norm
            new_leaves.append(jnp.where(norm < max_norm, leaf, leaf / norm * max_norm))
        return jax.tree.unflatten(treedef, new_leaves), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    clipper = clip_by_total_norm(max_norm)
    adam = optax.adam(learning_rate)
    # clip first, then adam
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
