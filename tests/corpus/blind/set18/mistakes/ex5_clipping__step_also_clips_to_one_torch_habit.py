# BLIND-SET: 18
# EXERCISE: ex5
# WHAT: out of PyTorch habit (clip_grad_norm_(model.parameters(), 1.0) before optimizer.step()), the train step clips the gradients to global norm 1.0 itself before calling optimizer.update, on top of whatever the optimizer does.
# SHOULD-SAY: make_optimizer is right and the step is jitted, uses value_and_grad at the incoming params, returns the pre-update loss and threads the optimizer state, but it clips the gradients to norm 1.0 by itself before the optimizer sees them: with the lesson's default max_norm=1.0 this is invisible, yet with an optimizer that clips at another max_norm (or does not clip at all) the step's new params differ; clipping belongs in the optax chain, so remove the extra clip from the step and let the given optimizer do all gradient processing.
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


# --- Your code ----------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """An optax optimizer that clips, then applies Adam."""
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.adam(learning_rate),
    )


def _clip_grad_norm(grads, max_norm=1.0):
    """Like torch.nn.utils.clip_grad_norm_."""
    total_norm = jnp.sqrt(sum(jnp.sum(g * g) for g in jax.tree.leaves(grads)))
    clip_coef = jnp.minimum(max_norm / (total_norm + 1e-6), 1.0)
    return jax.tree.map(lambda g: g * clip_coef, grads)


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        grads = _clip_grad_norm(grads)  # keep training stable
        updates, new_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        return new_params, new_state, loss

    return jax.jit(step)
