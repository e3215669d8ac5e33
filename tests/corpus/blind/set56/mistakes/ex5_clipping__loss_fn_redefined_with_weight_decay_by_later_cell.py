# BLIND-SET: 56
# EXERCISE: ex5
# WHAT: The step differentiates the module-level `loss_fn`, which a later "does weight decay help?" cell redefines as the cross-entropy plus 1e-4 * (sum of squared weights); the later definition wins. The returned loss and the gradients fed to the optimizer include the L2 term: for He-initialised lesson params the loss is off by about 0.079 and the new params by up to about 2e-3 after one step (the optimizer state moves only by about 1e-6).
# SHOULD-SAY: The loss your step returns (and differentiates) is not the lesson's cross-entropy: loss_fn is redefined further down with an L2 penalty, and the step uses that later definition. Give the regularised experiment its own name (e.g. loss_with_l2) so the step uses the plain cross-entropy loss_fn.
"""Exercise 5: gradient clipping in an optax chain (pasted from my Colab notebook)."""

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


# --- cell: notebook data ----------------------------------------------------------------------


def init_params(key, sizes=(784, 256, 128, 10)):
    params = {}
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:]), start=1):
        key, sub = jax.random.split(key)
        params[f"layer{i}"] = {
            "w": jax.random.normal(sub, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
            "b": jnp.zeros(n_out),
        }
    return params


params = init_params(jax.random.PRNGKey(0))
x_batch = jax.random.normal(jax.random.PRNGKey(1), (128, 784))
y_batch = jax.random.randint(jax.random.PRNGKey(2), (128,), 0, 10)


# --- cell: the exercise ---------------------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    clip = optax.clip_by_global_norm(max_norm)
    adam = optax.adam(learning_rate)
    return optax.chain(clip, adam)


def make_train_step(optimizer):
    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), new_state, loss

    return step


opt = make_optimizer()
state = opt.init(params)
step = make_train_step(opt)
for i in range(3):
    params, state, loss = step(params, state, x_batch, y_batch)
    print(i, float(loss))


# --- cell: does weight decay help? (for answers.md) -------------------------------------------
wd = 1e-4


def loss_fn(params, x, y):
    logits = forward(params, x)
    ce = -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))
    l2 = sum(jnp.sum(layer["w"] ** 2) for layer in params.values())
    return ce + wd * l2
