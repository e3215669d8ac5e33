"""make_optimizer clips with a norm of its own whose running sum of squares starts at 1, not 0: every gradient
looks larger than it is, so gradients below max_norm are scaled down too.
"""


import jax
import jax.numpy as jnp
import optax

EXPECT = {'check': 'ex5.chain', 'mistake': 'ex5.clip_norm_constant', 'hint': 'Start the sum at 0', 'max_failing': 1, 'also': ['ex5.hyperparams']}


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
    def update(updates, state, params=None):
        total = 1.0  # the running product's identity, carried over to a running sum
        for g in jax.tree_util.tree_leaves(updates):
            total = total + jnp.sum(g * g)
        norm = jnp.sqrt(total)
        scale = jnp.minimum(1.0, max_norm / norm)
        return jax.tree_util.tree_map(lambda g: g * scale, updates), state

    clip = optax.GradientTransformation(lambda params: optax.EmptyState(), update)
    return optax.chain(clip, optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
