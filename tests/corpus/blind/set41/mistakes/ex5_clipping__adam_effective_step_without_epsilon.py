# BLIND-SET: 41
# EXERCISE: ex5
# WHAT: The hand-written Adam uses the paper's 'effective step' from section 2.1, Delta_t = alpha * m_hat / sqrt(v_hat), with no epsilon. Where sqrt(v_hat) is well above 1e-8 the updates match optax to float tolerance. Any coordinate whose gradient has been exactly 0 at every step so far (a dead ReLU unit, an unused input pixel, a zero gradient entry) gives 0/0 = NaN, and NaN params after apply_updates. Coordinates with a tiny gradient (|g| near 1e-8 or below, which occur even among random normal gradients, more so after clipping) get steps of about alpha where Adam's are much smaller, so the updates differ from step 1 on at a few coordinates.
# SHOULD-SAY: On gradients with zero (or tiny) entries your updates are NaN (or too large), where clip-then-Adam gives 0 (or a small step). The cause is that your Adam divides m_hat by sqrt(v_hat) with no epsilon. Algorithm 1 is m_hat / (sqrt(v_hat) + eps) with eps = 1e-8; section 2.1's 'effective step' leaves eps out only for the analysis. Add the + eps (or use optax.adam).
"""Exercise 5: gradient clipping in an optax chain, written from the papers.

Clipping: Pascanu, Mikolov & Bengio (2013), Algorithm 1:
    if ||g|| >= threshold:  g <- threshold / ||g|| * g
Adam: Kingma & Ba (2015), Algorithm 1, with the effective step of section 2.1.
"""

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


def clip_by_norm_pascanu(threshold):
    """Rescale the whole gradient (all leaves as one vector) when its l2 norm reaches threshold."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        norm = jnp.sqrt(sum(jnp.sum(g * g) for g in jax.tree.leaves(updates)))
        factor = jnp.where(norm >= threshold, threshold / jnp.where(norm > 0, norm, 1.0), 1.0)
        return jax.tree.map(lambda g: g * factor, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def adam_kingma_ba(alpha, beta1=0.9, beta2=0.999, eps=1e-8):
    """Adam as in the paper, returning -step so that optax.apply_updates adds it."""

    def init_fn(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return optax.ScaleByAdamState(count=jnp.zeros([], jnp.int32), mu=zeros, nu=zeros)

    def update_fn(updates, state, params=None):
        del params
        t = state.count + 1
        m = jax.tree.map(lambda m, g: beta1 * m + (1 - beta1) * g, state.mu, updates)
        v = jax.tree.map(lambda v, g: beta2 * v + (1 - beta2) * g * g, state.nu, updates)
        tf = t.astype(jnp.float32)
        m_hat = jax.tree.map(lambda m: m / (1 - beta1 ** tf), m)
        v_hat = jax.tree.map(lambda v: v / (1 - beta2 ** tf), v)
        # Section 2.1: the effective step is Delta_t = alpha * m_hat / sqrt(v_hat).
        steps = jax.tree.map(lambda mh, vh: -alpha * mh / jnp.sqrt(vh), m_hat, v_hat)
        return steps, optax.ScaleByAdamState(count=t, mu=m, nu=v)

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Pascanu clipping, then Adam. The trailing identity keeps optax.adam's state layout."""
    return optax.chain(
        clip_by_norm_pascanu(max_norm),
        optax.chain(adam_kingma_ba(learning_rate), optax.identity()),
    )


def make_train_step(optimizer):
    """A jitted step: loss and grads at the incoming params, one optimizer update."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
