# BLIND-SET: 53
# EXERCISE: ex2
# WHAT: Norm reducers are registered by name in a class-level registry and looked up by prefix (`key.startswith(name)`); "l2_squared" is registered before "l2", so `Reducer.get("l2")` returns the squared reducer and per_example_grad_norms returns the sum of squares (the norm squared) instead of its square root. Gradients and the largest index are right.
# SHOULD-SAY: per_example_grad_norms returns squared norms (no square root): the registry's prefix lookup for "l2" matches the earlier "l2_squared" entry. Look the reducer up by exact key (`registry[name]`) or take the sqrt of the sum of squares.
"""Exercise 2: per-example gradients with jax.vmap, written with small classes."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------


class Reducer:
    """Turns a per-example gradient tree into one number per example."""

    registry = {}

    @classmethod
    def register(cls, name):
        def deco(sub):
            cls.registry[name] = sub
            return sub

        return deco

    @classmethod
    def get(cls, name):
        # allow short names: "l2" finds "l2_norm", "l2_squared", ...
        for key, sub in cls.registry.items():
            if key.startswith(name):
                return sub()
        raise KeyError(name)

    def leaf(self, g):
        return jnp.sum(jnp.reshape(g, (g.shape[0], -1)) ** 2, axis=1)

    def finish(self, total):
        return total

    def __call__(self, grads):
        return self.finish(sum(self.leaf(g) for g in jax.tree.leaves(grads)))


@Reducer.register("l2_squared")
class SquaredL2(Reducer):
    pass


@Reducer.register("l2")
class L2(Reducer):
    def finish(self, total):
        return jnp.sqrt(total)


class GradientProbe:
    def __init__(self, loss=loss_fn):
        self.loss = loss

    def example_loss(self, params, xi, yi):
        return self.loss(params, xi[None], yi[None])

    def grads(self, params, x, y):
        return jax.vmap(jax.grad(self.example_loss), in_axes=(None, 0, 0))(params, x, y)


_PROBE = GradientProbe()


def per_example_grads(params, x, y):
    return _PROBE.grads(params, x, y)


def per_example_grad_norms(grads):
    return Reducer.get("l2")(grads)


def largest_gradient_example(params, x, y):
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
