# BLIND-SET: 53
# EXERCISE: ex5
# WHAT: The `OptimizerFactory` registers optax transforms under the first word of their `__name__`; optax.clip_by_global_norm and optax.clip both become "clip" and the later optax.clip wins, so make_optimizer builds chain(clip(max_norm), adam): each gradient element is clamped to [-max_norm, max_norm] instead of the whole gradient being rescaled by its global norm. Updates differ whenever an element exceeds max_norm, or when the global norm exceeds max_norm but no element does.
# SHOULD-SAY: make_optimizer clips element by element, not by the global norm: the registry key "clip" is overwritten by optax.clip. Register the transforms under distinct explicit names (or call optax.clip_by_global_norm directly).
"""Exercise 5: gradient clipping in an optax chain (factory and trainer classes)."""
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


class OptimizerFactory:
    """make("clip", 1.0), make("adam", 1e-3) -> optax transformations."""

    registry = {}

    @classmethod
    def register(cls, transform):
        # "clip_by_global_norm" -> "clip", "adam" -> "adam"
        cls.registry[transform.__name__.split("_")[0]] = transform
        return transform

    @classmethod
    def make(cls, name, *args):
        return cls.registry[name](*args)

    @classmethod
    def chain(cls, *specs):
        return optax.chain(*(cls.make(name, *args) for name, *args in specs))


for _transform in (optax.clip_by_global_norm, optax.clip, optax.adam, optax.sgd):
    OptimizerFactory.register(_transform)


class TrainStep:
    def __init__(self, optimizer):
        self.optimizer = optimizer
        self.jitted = jax.jit(self.step)

    def step(self, params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = self.optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    return OptimizerFactory.chain(("clip", max_norm), ("adam", learning_rate))


def make_train_step(optimizer):
    return TrainStep(optimizer).jitted
