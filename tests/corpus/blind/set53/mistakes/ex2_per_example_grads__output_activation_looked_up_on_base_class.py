# BLIND-SET: 53
# EXERCISE: ex2
# WHAT: The given forward is refactored into `Dense`/`Linear` layer classes; `Dense.__call__` applies `Dense.activation` (looked up on the base class) instead of `self.activation`, so the `Linear` output layer's identity override is skipped and a ReLU is applied to the logits. The loss, and hence every per-example gradient, norm and usually the largest index, differ from the reference (layer3 gradients are zero wherever a logit is negative).
# SHOULD-SAY: the per-example gradients are those of a model with a ReLU on the logits: `Dense.__call__` reads `Dense.activation`, which bypasses the `Linear` subclass override; use `self.activation` (or keep the given forward) so the last layer stays linear.
"""Exercise 2: per-example gradients with jax.vmap, written with small classes."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's model and loss (rewritten as layer classes) --------


class Dense:
    """Affine layer followed by an activation (ReLU by default)."""

    activation = staticmethod(jax.nn.relu)

    def __init__(self, layer):
        self.w = layer["w"]
        self.b = layer["b"]

    def __call__(self, h):
        return Dense.activation(h @ self.w + self.b)


class Linear(Dense):
    """The output layer: no activation."""

    activation = staticmethod(lambda z: z)


class MLP:
    def __init__(self, params):
        self.layers = [Dense(params["layer1"]), Dense(params["layer2"]), Linear(params["layer3"])]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    return MLP(params)(x)


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------


class PerExample:
    @staticmethod
    def loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    def __call__(self, params, x, y):
        return jax.vmap(jax.grad(self.loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grads(params, x, y):
    return PerExample()(params, x, y)


def per_example_grad_norms(grads):
    squares = [jnp.sum(jnp.reshape(g, (g.shape[0], -1)) ** 2, axis=-1) for g in jax.tree.leaves(grads)]
    return jnp.sqrt(sum(squares))


def largest_gradient_example(params, x, y):
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
