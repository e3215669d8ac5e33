# BLIND-SET: 14
# EXERCISE: ex5
# WHAT: make_optimizer uses optax.lamb (Adam plus a per-layer trust-ratio rescale, copied from a BERT pretraining recipe) after the clip instead of optax.adam.
# SHOULD-SAY: make_train_step is right (jitted, uses the optimizer it is given, returns new params, state and pre-update loss), and the clip comes first as required, but make_optimizer's updates are not Adam's: LAMB rescales each layer's step by ||param|| / ||adam update|| (and has a different epsilon), so the updates differ from clip_by_global_norm followed by adam; use optax.adam(learning_rate).
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
    # Large-batch recipe (BERT): clip, then LAMB, Adam with a layer-wise trust ratio.
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.lamb(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
