# BLIND-SET: 24
# EXERCISE: ex5
# WHAT: make_optimizer appends optax.add_decayed_weights(1e-4) after optax.adam(learning_rate), meaning 'AdamW-style decoupled decay'; placed after Adam's learning-rate scaling it adds +1e-4 * params to every update (unscaled by the learning rate and with the sign that grows the weights), so every update differs from clip-then-Adam.
# SHOULD-SAY: The updates differ from clip_by_global_norm followed by Adam: an extra add_decayed_weights stage was added, and because optax applies a chain in order, placing it after adam (which already multiplied by -learning_rate) adds +1e-4 * params to the update — it pushes weights away from zero instead of decaying them. The exercise asks for clipping then Adam only; if you want decoupled decay, use optax.adamw (decay before the learning-rate scale), not a stage after adam.
"""Exercise 5 (reference): gradient clipping chained before Adam."""

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.adam(learning_rate),
        optax.add_decayed_weights(1e-4),  # decoupled weight decay, as in AdamW
    )


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
