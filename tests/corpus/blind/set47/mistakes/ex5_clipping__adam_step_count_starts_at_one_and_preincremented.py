# BLIND-SET: 47
# EXERCISE: ex5
# WHAT: The hand-written Adam stage initialises its step counter to 1 ("t starts at 1 in the paper") and also increments it before use, so the first update uses t = 2, the k-th uses t = k + 1: the bias corrections 1 - b1**t and 1 - b2**t are those of the next step, every update is mis-scaled (about 0.74x on step 1, shrinking toward 1x as t grows) and the state's count is one ahead of optax.adam's.
# SHOULD-SAY: Adam's updates are off from the first step (the first update is about 0.74 times too small) because the bias correction uses the step number plus one: the counter starts at 1 and is incremented before use. Start count at 0 and increment before the correction (or start at 1 and increment after), or use optax.adam(learning_rate) after the clip.
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


# --- Your code ----------------------------------------------------------------

B1 = 0.9
B2 = 0.999
EPS = 1e-8


def _scale_by_adam_t():
    """Adam moments with an explicit int32 step counter (same state as optax)."""

    def init_fn(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        # t starts at 1 (Kingma & Ba, Algorithm 1)
        return optax.ScaleByAdamState(count=jnp.ones([], jnp.int32), mu=zeros, nu=zeros)

    def update_fn(updates, state, params=None):
        del params
        t = state.count + jnp.int32(1)  # t <- t + 1
        mu = jax.tree.map(lambda m, g: B1 * m + (1.0 - B1) * g, state.mu, updates)
        nu = jax.tree.map(lambda v, g: B2 * v + (1.0 - B2) * (g * g), state.nu, updates)
        c1 = 1.0 - B1 ** t.astype(jnp.float32)
        c2 = 1.0 - B2 ** t.astype(jnp.float32)
        out = jax.tree.map(lambda m, v: (m / c1) / (jnp.sqrt(v / c2) + EPS), mu, nu)
        return out, optax.ScaleByAdamState(count=t, mu=mu, nu=nu)

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping to ``max_norm``, then Adam with ``learning_rate``."""
    adam = optax.chain(_scale_by_adam_t(), optax.scale_by_learning_rate(learning_rate))
    return optax.chain(optax.clip_by_global_norm(max_norm), adam)


def make_train_step(optimizer):
    """A jitted ``step(params, opt_state, x, y) -> (new_params, new_opt_state, loss)``.

    The loss returned is the one at the incoming params (before the update).
    """

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        return new_params, new_state, loss

    return jax.jit(step)
