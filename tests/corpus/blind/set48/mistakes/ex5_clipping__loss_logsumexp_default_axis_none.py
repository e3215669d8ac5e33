# BLIND-SET: 48
# EXERCISE: ex5
# WHAT: loss_fn is rewritten as mean(jax.nn.logsumexp(logits) - logit of the label), but jax.nn.logsumexp has axis=None by default, so the normaliser is one logsumexp over the whole (B, 10) batch instead of one per row. For B > 1 the step's loss is larger than the cross-entropy by about log B and its gradients are different (each row's softmax is replaced by a softmax over the whole batch), so the new params and Adam state differ; for B = 1 it is right. make_optimizer is right.
# SHOULD-SAY: The step's loss is not the mean softmax cross-entropy: jax.nn.logsumexp reduces over all axes unless told otherwise, so each example is normalised over the whole batch. Use jax.nn.logsumexp(logits, axis=-1) (or jax.nn.log_softmax / optax.losses.softmax_cross_entropy_with_integer_labels).
"""Exercise 5: gradient clipping in an optax chain, loss via logsumexp."""

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
    """Mean softmax cross-entropy over 10 classes: logsumexp(z) - z_y."""
    logits = forward(params, x)
    picked = jnp.take_along_axis(logits, y[:, None], axis=-1)[:, 0]
    return jnp.mean(jax.nn.logsumexp(logits) - picked)


# --- Your code ----------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping, then Adam."""
    return optax.named_chain(
        ("clip", optax.clip_by_global_norm(max_norm)),
        ("adam", optax.adam(learning_rate)),
    )


def make_train_step(optimizer):
    """A jitted training step for optimizer."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
