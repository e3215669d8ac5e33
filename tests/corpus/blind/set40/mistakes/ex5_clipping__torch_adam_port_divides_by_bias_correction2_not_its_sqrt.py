# BLIND-SET: 40
# EXERCISE: ex5
# WHAT: make_optimizer chains optax.clip_by_global_norm(max_norm) with a line-by-line port of torch.optim.Adam's step, but the denominator is written sqrt(exp_avg_sq) / bias_correction2 + eps instead of sqrt(exp_avg_sq) / sqrt(bias_correction2) + eps. Every update is multiplied by about sqrt(1 - 0.999**t): 0.032x at step 1, 0.045x at step 2, approaching 1 only after thousands of steps. The optimizer's updates and the train step's new params are wrong from the first step; the loss the step returns is right for the params it is given.
# SHOULD-SAY: The Adam updates are far too small in early steps: the second-moment bias correction must be applied under the square root (sqrt(v) / sqrt(1 - b2**t), i.e. v_hat = v / (1 - b2**t) then sqrt). Fix the denominator, or use optax.adam(learning_rate) after the clip.
"""Exercise 5: gradient clipping in an optax chain (Adam ported from torch.optim.Adam)."""

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


def torch_adam(lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
    """torch.optim.Adam (no weight decay, no amsgrad), as an optax transformation."""
    beta1, beta2 = betas

    def init_fn(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return {"step": jnp.zeros([], jnp.int32), "exp_avg": zeros, "exp_avg_sq": zeros}

    def update_fn(updates, state, params=None):
        del params
        step = state["step"] + 1
        exp_avg = jax.tree.map(lambda m, g: beta1 * m + (1 - beta1) * g, state["exp_avg"], updates)
        exp_avg_sq = jax.tree.map(lambda v, g: beta2 * v + (1 - beta2) * g * g, state["exp_avg_sq"], updates)
        t = step.astype(jnp.float32)
        bias_correction1 = 1 - beta1**t
        bias_correction2 = 1 - beta2**t
        step_size = lr / bias_correction1

        def delta(m, v):
            denom = jnp.sqrt(v) / bias_correction2 + eps
            return -step_size * m / denom  # p.addcdiv_(exp_avg, denom, value=-step_size)

        new_updates = jax.tree.map(delta, exp_avg, exp_avg_sq)
        return new_updates, {"step": step, "exp_avg": exp_avg, "exp_avg_sq": exp_avg_sq}

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """An optax optimizer that clips, then applies Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), torch_adam(lr=learning_rate))


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    @jax.jit
    def step(params, opt_state, x, y):
        # optimizer.zero_grad(); loss.backward()
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        # optimizer.step()
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
