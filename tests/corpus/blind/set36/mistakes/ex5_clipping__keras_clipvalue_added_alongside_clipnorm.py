# BLIND-SET: 36
# EXERCISE: ex5
# WHAT: make_optimizer chains optax.clip(max_norm) (Keras clipvalue) before clip_by_global_norm(max_norm) (Keras global_clipnorm), as if passing both options to a Keras optimizer: whenever any gradient element exceeds max_norm (e.g. a norm spike) the clipped direction changes, so the updates differ from clip-by-global-norm then Adam.
# SHOULD-SAY: The optimizer also clips element-wise by value (Keras clipvalue), which changes the gradient direction on spikes. The exercise asks only for global-norm clipping: optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)), no optax.clip.
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
    # Keras: Adam(learning_rate, clipvalue=max_norm, global_clipnorm=max_norm)
    return optax.chain(
        optax.clip(max_norm), optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)
    )


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
