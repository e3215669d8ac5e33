# BLIND-SET: 40
# EXERCISE: ex5
# WHAT: The hand-written port of torch's clip_grad_norm_ clamps the clip coefficient at max_norm instead of 1.0 (`clamp(clip_coef, max=max_norm)`), so the factor is min(max_norm / (n + 1e-6), max_norm) for global norm n. With max_norm == 1 (the default) this is correct. Otherwise a gradient with n < 1 is multiplied by max_norm (halved for max_norm=0.5, scaled 5x for max_norm=5), and for max_norm > 1 one with 1 <= n <= max_norm is scaled up to norm max_norm; only norms above max(1, max_norm) are clipped correctly. The Adam updates differ for any max_norm != 1 (in my run from step 0 at max_norm=5, from the step after the spike at max_norm=0.5).
# SHOULD-SAY: For max_norm other than 1 the gradients that should pass unchanged are rescaled by max_norm: the clip coefficient must be capped at 1.0 (only ever scale down), not at max_norm. Use min(max_norm / (norm + eps), 1.0), or simply optax.clip_by_global_norm(max_norm).
"""Exercise 5: gradient clipping in an optax chain (ported from my torch loop)."""

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


def clip_grad_norm(max_norm, norm_type=2.0):
    """torch.nn.utils.clip_grad_norm_ as an optax transformation."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        grads = jax.tree.leaves(updates)
        norms = [jnp.linalg.vector_norm(g, ord=norm_type) for g in grads]
        total_norm = jnp.linalg.vector_norm(jnp.stack(norms), ord=norm_type)
        clip_coef = max_norm / (total_norm + 1e-6)
        clip_coef_clamped = jnp.clip(clip_coef, max=max_norm)  # torch.clamp(clip_coef, max=max_norm)
        return jax.tree.map(lambda g: g * clip_coef_clamped.astype(g.dtype), updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """An optax optimizer that clips, then applies Adam."""
    return optax.chain(
        clip_grad_norm(max_norm),
        optax.adam(learning_rate, b1=0.9, b2=0.999, eps=1e-8),  # torch.optim.Adam defaults
    )


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    def step(params, opt_state, x, y):
        # optimizer.zero_grad(); loss = criterion(model(x), y); loss.backward()
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        # clip_grad_norm_(...); optimizer.step()  -- both inside `optimizer`
        updates, opt_state = optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, opt_state, loss  # loss.detach(): the value before the step

    return jax.jit(step)
