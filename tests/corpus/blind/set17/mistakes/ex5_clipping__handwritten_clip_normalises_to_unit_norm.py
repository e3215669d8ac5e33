# BLIND-SET: 17
# EXERCISE: ex5
# WHAT: a hand-written clipping transformation uses max_norm only as the threshold: when the global norm exceeds max_norm it divides the gradient by its norm (unit norm) instead of rescaling it to max_norm; identical to clip_by_global_norm only when max_norm == 1
# SHOULD-SAY: the chain order (clip before Adam), Adam itself and the jitted train step are right, and with the default max_norm=1.0 the results match, but for any other max_norm the clipped gradient has norm 1 instead of max_norm (e.g. max_norm=5 shrinks a norm-6 gradient to 1); scale by max_norm / norm (or use optax.clip_by_global_norm(max_norm))
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



def clip_global_norm(max_norm):
    """Gradient transformation: tame gradients whose global norm exceeds max_norm."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        norm = jnp.sqrt(sum(jnp.sum(jnp.square(g)) for g in jax.tree.leaves(updates)))
        factor = jnp.where(norm > max_norm, 1.0 / norm, 1.0)
        return jax.tree.map(lambda g: g * factor, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """An optax optimizer that clips, then applies Adam."""
    return optax.chain(clip_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return jax.jit(step)
