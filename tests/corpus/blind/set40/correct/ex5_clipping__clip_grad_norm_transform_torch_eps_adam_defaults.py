# BLIND-SET: 40
# EXERCISE: ex5
# WHAT: Correct. make_optimizer chains a hand-written port of torch.nn.utils.clip_grad_norm_ (vector 2-norm of every leaf, norm of the stacked norms, clip_coef = max_norm / (total_norm + 1e-6) clamped to at most 1.0 and multiplied into every leaf) before optax.adam with torch's Adam defaults spelled out (betas (0.9, 0.999), eps 1e-8). The 1e-6 changes the clipped gradients by at most about 1e-6 relative, so the updates equal optax.clip_by_global_norm + optax.adam to float tolerance. The step keeps the torch loop shape (zero_grad/backward/clip/step as comments) inside one jax.jit and returns the loss from before the update.
# SHOULD-SAY: Nothing to fix: clipping by the global norm happens before Adam, the hyperparameters are passed through, and the jitted step returns the new params, the new state and the pre-update loss.
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
