# BLIND-SET: 41
# EXERCISE: ex5
# WHAT: The hand-written Adam mixes Algorithm 1 and the 'more efficient' variant. It divides m and v by their bias corrections (m_hat, v_hat) and also uses the folded step size alpha_t = alpha * sqrt(1 - beta2^t) / (1 - beta1^t) (with eps_hat), so the bias correction is applied twice. Every update is off by the factor sqrt(1 - beta2^t) / (1 - beta1^t): 0.316 at step 1, about 0.15 at steps 10-12, 0.31 at step 100 and 0.80 at step 1000. Clipping and the state layout are right.
# SHOULD-SAY: Your Adam updates are too small by a factor that depends on the step count t (about 0.32 at the first step, 0.15 at the tenth). The cause is that the bias correction is applied twice: you use both m_hat = m/(1-beta1^t), v_hat = v/(1-beta2^t) and alpha_t = alpha*sqrt(1-beta2^t)/(1-beta1^t). Use one or the other: alpha * m_hat / (sqrt(v_hat) + eps), or alpha_t * m / (sqrt(v) + eps_hat).
"""Exercise 5: gradient clipping in an optax chain, written from the papers.

Clipping: Pascanu, Mikolov & Bengio (2013), Algorithm 1:
    if ||g|| >= threshold:  g <- threshold / ||g|| * g
Adam: Kingma & Ba (2015), Algorithm 1 and the 'more efficient' ordering at the end of section 2.
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
        # Efficient ordering: the step size carries the bias corrections.
        alpha_t = alpha * jnp.sqrt(1 - beta2 ** tf) / (1 - beta1 ** tf)
        eps_hat = eps * jnp.sqrt(1 - beta2 ** tf)
        steps = jax.tree.map(lambda mh, vh: -alpha_t * mh / (jnp.sqrt(vh) + eps_hat), m_hat, v_hat)
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
