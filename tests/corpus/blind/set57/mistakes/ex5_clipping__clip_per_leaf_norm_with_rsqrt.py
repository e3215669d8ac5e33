# BLIND-SET: 57
# EXERCISE: ex5
# WHAT: make_optimizer chains a hand-written optax.stateless clip that scales each leaf separately, g * min(1, max_norm * rsqrt(vdot(g, g))), to avoid the cross-tree reduction, then adam(learning_rate). Each leaf is capped at max_norm on its own instead of scaling the whole gradient by max_norm / global_norm: leaves whose own norm is below max_norm are not scaled even when the global norm is above it, and the clipped gradient's global norm can be up to sqrt(6) * max_norm. Over 6 gradients (global norm ~4.85, one x5000 spike to ~24227, per-leaf norms 0.04 to 4.5 normally): with max_norm 1.0 the updates differ by 6e-5 on the first step and ~1e-3 after the spike (lr 1e-3); with max_norm 0.5, lr 3e-2 by 3e-3 then ~2e-2; with max_norm 5 or 100 (nothing clipped before the spike) they are exact until the spike and differ by ~1e-2 (lr 1e-2) / ~1e-3 (lr 1e-3) from then on; the Adam state differs too. make_train_step is right (exact with the reference optimizer).
# SHOULD-SAY: clip_by_global_norm scales the whole gradient by max_norm / (global norm over all leaves) when that norm exceeds max_norm, but your clip caps every leaf's own norm separately, which is a different transformation: small leaves are left alone and the result can exceed max_norm. Use optax.clip_by_global_norm(max_norm) (or compute one norm over all leaves and one shared scale) before optax.adam.
"""Exercise 5: gradient clipping in an optax chain (tuned: jitted step, hoisted transforms)."""

import jax
import jax.numpy as jnp
import optax
from jax import lax

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


def _clip_leafwise(max_norm):
    """Scale each leaf down to norm <= max_norm: one vdot and one rsqrt per leaf,
    no reduction across the whole tree before anything can be scaled."""

    def clip(updates, params=None):
        def one(g):
            return g * jnp.minimum(1.0, max_norm * lax.rsqrt(jnp.vdot(g, g)))

        return jax.tree.map(one, updates)

    return optax.stateless(clip)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the gradient norm to `max_norm`, then Adam."""
    return optax.chain(_clip_leafwise(max_norm), optax.adam(learning_rate))


# Built once at import instead of on every make_train_step / trace.
_value_and_grad = jax.value_and_grad(loss_fn)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    update = optimizer.update  # bound once, closed over by the compiled step

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = _value_and_grad(params, x, y)
        updates, opt_state = update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
