# BLIND-SET: 53
# EXERCISE: ex5
# WHAT: Correct. A frozen `ClipAdamConfig` dataclass, an `OptimizerFactory` whose stage registry maps exact names ("clip", "adam") to builders and chains them in the class-level order clip -> adam (optax.chain(clip_by_global_norm, adam)), and a `Trainer` object per optimizer whose step is jax.jit of a closure over that optimizer. Updates, states and losses equal the reference.
# SHOULD-SAY: Nothing to fix: every ex5 check passes.
"""Exercise 5: gradient clipping in an optax chain (factory and trainer classes)."""

import dataclasses
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


@dataclasses.dataclass(frozen=True)
class ClipAdamConfig:
    learning_rate: float = 1e-3
    max_norm: float = 1.0


class OptimizerFactory:
    """Builds an optax chain from named stages, in a fixed order."""

    order = ("clip", "adam")
    builders = {
        "clip": lambda cfg: optax.clip_by_global_norm(cfg.max_norm),
        "adam": lambda cfg: optax.adam(cfg.learning_rate),
    }

    def __init__(self, config):
        self.config = config

    def stages(self):
        return [self.builders[name](self.config) for name in self.order]

    def build(self):
        return optax.chain(*self.stages())


class Trainer:
    """Holds one optimizer and a jitted step that uses it."""

    def __init__(self, optimizer):
        self.optimizer = optimizer
        opt = optimizer

        def step(params, opt_state, x, y):
            loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
            updates, new_state = opt.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), new_state, loss

        self.step = jax.jit(step)

    def __call__(self, params, opt_state, x, y):
        return self.step(params, opt_state, x, y)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    return OptimizerFactory(ClipAdamConfig(learning_rate, max_norm)).build()


def make_train_step(optimizer):
    return Trainer(optimizer).step
