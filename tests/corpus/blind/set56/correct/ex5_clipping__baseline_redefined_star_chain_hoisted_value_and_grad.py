# BLIND-SET: 56
# EXERCISE: ex5
# WHAT: Correct. A first make_optimizer (plain Adam, the no-clipping baseline) is redefined by a later cell that builds optax.chain(*stages) from a list [clip_by_global_norm(max_norm), adam(learning_rate)]; the later definition wins. value_and_grad(loss_fn) is built once into a module-level global (loss_fn is never rebound), the step is wrapped with jax.jit(step) and uses the optimizer it is given; a step counter global is only printed outside jit.
# SHOULD-SAY: Nothing to fix: the optimizer clips the global norm to max_norm and then applies Adam, and the jitted step returns the updated params and state and the loss at the incoming params.
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
loss_and_grad = jax.value_and_grad(loss_fn)  # built once
n_steps_run = 0


# --- cell: baseline without clipping (for answers.md) -- redefined below -------------------------
def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    return optax.adam(learning_rate)


baseline_state = make_optimizer().init(params)


# --- cell: the exercise ---------------------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    stages = [optax.clip_by_global_norm(max_norm)]  # 1) clip the raw gradient
    stages.append(optax.adam(learning_rate))  # 2) then Adam
    return optax.chain(*stages)


def make_train_step(optimizer):
    def step(params, opt_state, x, y):
        loss, grads = loss_and_grad(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        new_params = jax.tree.map(lambda p, u: p + u, params, updates)
        return new_params, opt_state, loss

    return jax.jit(step)


opt = make_optimizer(1e-3, 1.0)
state = opt.init(params)
train_step = make_train_step(opt)
p = params
for _ in range(3):
    p, state, loss = train_step(p, state, x_batch, y_batch)
    n_steps_run += 1
    print(n_steps_run, float(loss))
