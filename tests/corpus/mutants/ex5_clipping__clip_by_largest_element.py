"""The clip rescales by the largest absolute element (torch's norm_type=inf), not by the global L2 norm.
"""

import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex5.chain", "mistake": "ex5.clip_other_norm", "hint": "another quantity", "max_failing": 1, "also": ["ex5.hyperparams"]}


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _clip_grad_norm(max_norm):
    """Port of torch.nn.utils.clip_grad_norm_(params, max_norm, norm_type=float('inf'))."""

    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        total_norm = jnp.max(jnp.stack([jnp.max(jnp.abs(u)) for u in jax.tree.leaves(updates)]))
        clip_coef = jnp.minimum(1.0, max_norm / (total_norm + 1e-6))
        return jax.tree.map(lambda u: u * clip_coef, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(_clip_grad_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
