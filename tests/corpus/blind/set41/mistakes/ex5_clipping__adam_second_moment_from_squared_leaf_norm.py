# BLIND-SET: 41
# EXERCISE: ex5
# WHAT: The hand-written Adam reads the paper's g_t^2 as the squared l2 norm of each leaf's gradient: v <- beta2 * v + (1 - beta2) * ||g_leaf||^2, one number broadcast over the leaf, instead of the elementwise square. Every coordinate of a leaf is then divided by the leaf's RMS-over-time norm rather than its own, so the updates are much smaller than Adam's (by about the square root of the leaf's size for evenly spread gradients) and differ from clip-then-Adam from the first step. The state keeps optax's structure and shapes (nu is stored broadcast to the leaf's shape), but nu's values differ.
# SHOULD-SAY: Your Adam updates differ from optax.adam's from the first step: they are much smaller, and all coordinates of a leaf are scaled by the same denominator. The cause is the second-moment estimate: it uses the squared norm of the whole leaf's gradient, where Algorithm 1's g_t^2 means the elementwise square g_t * g_t. Use v = beta2 * v + (1 - beta2) * g * g, elementwise.
"""Exercise 5: gradient clipping in an optax chain, written from the papers.

Clipping: Pascanu, Mikolov & Bengio (2013), Algorithm 1:
    if ||g|| >= threshold:  g <- threshold / ||g|| * g
Adam: Kingma & Ba (2015), Algorithm 1.
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
        # g_t^2: the squared gradient (norm) of each parameter tensor.
        v = jax.tree.map(lambda v, g: beta2 * v + (1 - beta2) * jnp.broadcast_to(jnp.sum(g * g), g.shape), state.nu, updates)
        tf = t.astype(jnp.float32)
        m_hat = jax.tree.map(lambda m: m / (1 - beta1 ** tf), m)
        v_hat = jax.tree.map(lambda v: v / (1 - beta2 ** tf), v)
        steps = jax.tree.map(lambda mh, vh: -alpha * mh / (jnp.sqrt(vh) + eps), m_hat, v_hat)
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
