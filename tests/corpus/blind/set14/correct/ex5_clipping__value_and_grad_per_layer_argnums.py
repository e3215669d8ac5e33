# BLIND-SET: 14
# EXERCISE: ex5
# WHAT: The step differentiates with jax.value_and_grad over one positional argument per layer (argnums=(0, ..., N-1)) and reassembles the gradient dict, and make_optimizer chains optax.clip_by_global_norm with optax.adam built from keyword arguments.
# SHOULD-SAY: Everything correct: updates equal clip_by_global_norm followed by Adam for every learning_rate and max_norm (including the norm spike), and the jitted step returns the right new params, new optimizer state and the loss at the incoming params, using the optimizer it is given.
"""Exercise 5 (variant): per-layer argnums in value_and_grad."""

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
    clip = optax.clip_by_global_norm(max_norm=max_norm)
    adam = optax.adam(learning_rate=learning_rate, b1=0.9, b2=0.999, eps=1e-8)
    return optax.chain(clip, adam)


def make_train_step(optimizer):
    """A jitted step whose gradient is taken layer by layer."""

    def step(params, opt_state, x, y):
        names = list(params)

        def loss_of_layers(*layers):
            return loss_fn(dict(zip(names, layers)), x, y)

        loss, layer_grads = jax.value_and_grad(
            loss_of_layers, argnums=tuple(range(len(names)))
        )(*(params[n] for n in names))
        grads = dict(zip(names, layer_grads))
        updates, new_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), new_state, loss

    return jax.jit(step)
