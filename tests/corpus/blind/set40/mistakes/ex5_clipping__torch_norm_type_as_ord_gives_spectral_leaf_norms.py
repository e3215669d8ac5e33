# BLIND-SET: 40
# EXERCISE: ex5
# WHAT: The hand-written port of torch's clip_grad_norm_ computes each leaf's norm as jnp.linalg.norm(g, ord=norm_type) with norm_type=2, copying torch.norm(g, 2). For the bias vectors that is the 2-norm, but for the 2-D weight matrices numpy/JAX's ord=2 is the spectral norm (largest singular value), not the Frobenius norm torch computes. The "global norm" is too small, so a gradient whose true global norm exceeds max_norm is scaled down too little (its norm stays above max_norm) or not at all; the Adam updates differ from the first step whose gradient should have been clipped.
# SHOULD-SAY: Clipping does not cap the global L2 norm at max_norm: the per-leaf norm uses ord=2 on matrices, which is the spectral norm, so weight matrices are under-measured. Use the Frobenius / flattened 2-norm (jnp.linalg.vector_norm, jnp.sqrt(jnp.sum(g**2)), or optax.clip_by_global_norm).
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
        norms = [jnp.linalg.norm(g, ord=norm_type) for g in grads]  # torch.norm(g, norm_type)
        total_norm = jnp.linalg.vector_norm(jnp.stack(norms), ord=norm_type)
        clip_coef = max_norm / (total_norm + 1e-6)
        clip_coef_clamped = jnp.clip(clip_coef, max=1.0)  # torch.clamp(clip_coef, max=1.0)
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
