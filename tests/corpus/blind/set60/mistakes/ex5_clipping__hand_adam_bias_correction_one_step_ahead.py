# BLIND-SET: 60
# EXERCISE: ex5
# WHAT: make_optimizer chains optax.clip_by_global_norm before a hand-written Adam (optax.GradientTransformation, with state {step, m, v} as lists). The Adam increments step, then bias-corrects with b ** (step + 1), so the step count is one ahead. The first update is 26% too small, then 14%, 9%, 6.1%, 4.3% and 3.0% at steps 2 to 6, for every (lr, max_norm) tried. After that the error stays between 0.5% and 1% (0.47% at step 10, 0.92% at step 50, 0.47% at step 100, measured at lr 1e-3). Max |diff| is 2.6e-4 → 3e-5 at lr 1e-3 and 7.7e-3 → 9e-4 at lr 3e-2. Moments m and v and the clipping are right. The state's tree structure differs from optax's, which the contract allows. make_train_step is right: bit-identical with the reference optimizer. With its own optimizer, params after one step are off by 2.6e-4, and after two steps by 1.9e-3, where the loss is 2.12 vs 1.90 at B = 128.
# SHOULD-SAY: Your optimizer's updates do not match clip-then-Adam: the hand-written Adam bias-corrects with step + 1 after already incrementing step, so it divides by 1 - b^(t+1) instead of 1 - b^t. The early steps come out wrong: step 1 is 26% too small, and the updates are still off by 0.5 to 1% at step 100. Use 1 - b1 ** step and 1 - b2 ** step with the incremented count, or simply optax.adam(learning_rate).
"""Exercise 5: gradient clipping in an optax chain."""

import jax
import jax.numpy as jnp
import optax

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


def my_adam(learning_rate, b1=0.9, b2=0.999, eps=1e-8):
    # Adam written out by hand, as an optax transformation
    def init_fn(params):
        leaves = jax.tree.leaves(params)
        m_list = []
        v_list = []
        for leaf in leaves:
            m_list.append(jnp.zeros_like(leaf))
            v_list.append(jnp.zeros_like(leaf))
        return {"step": jnp.zeros([], jnp.int32), "m": m_list, "v": v_list}

    def update_fn(updates, state, params=None):
        grads, treedef = jax.tree.flatten(updates)
        step = state["step"] + 1

        new_m = []
        new_v = []
        new_updates = []
        for i in range(len(grads)):
            g = grads[i]
            m = b1 * state["m"][i] + (1 - b1) * g
            v = b2 * state["v"][i] + (1 - b2) * g * g
            # bias correction (the steps are counted from 1)
            m_hat = m / (1 - b1 ** (step + 1))
            v_hat = v / (1 - b2 ** (step + 1))
            new_updates.append(-learning_rate * m_hat / (jnp.sqrt(v_hat) + eps))
            new_m.append(m)
            new_v.append(v)

        new_state = {"step": step, "m": new_m, "v": new_v}
        return jax.tree.unflatten(treedef, new_updates), new_state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    # clip first, then my adam
    clipper = optax.clip_by_global_norm(max_norm)
    adam = my_adam(learning_rate)
    return optax.chain(clipper, adam)


def make_train_step(optimizer):
    def step(params, opt_state, x, y):
        # loss and gradients at the params we were given
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_opt_state = optimizer.update(grads, opt_state, params)

        # new params = old params + updates, layer by layer
        new_params = {}
        for name in params:
            new_params[name] = {}
            for part in params[name]:
                new_params[name][part] = params[name][part] + updates[name][part]
        return new_params, new_opt_state, loss

    step = jax.jit(step)
    return step
