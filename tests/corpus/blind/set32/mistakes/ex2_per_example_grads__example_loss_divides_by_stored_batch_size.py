# BLIND-SET: 32
# EXERCISE: ex2
# WHAT: the per-example loss is an ExampleLoss object built with the whole batch; it sums the one example's cross-entropy and divides by its `batch_size` property, which reads self.x (the full batch) instead of the single example. Every per-example gradient (and norm) is divided by B; right only when B = 1 (the argmax is unchanged).
# SHOULD-SAY: Each example's gradient is 1/B of what it should be: ExampleLoss.batch_size is read from the stored full batch, not from the one example being differentiated, so the "mean" over one example divides by B. Divide by the example's own batch size (1), i.e. use loss_fn(params, xi[None], yi[None]) as is.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import jax
import jax.numpy as jnp
import optax

# optax.tree.norm is the current name; optax.global_norm is the older one.
_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


class ExampleLoss:
    """Cross-entropy of one example, as a callable object bound to its batch."""

    def __init__(self, x, y):
        self.x = x
        self.y = y

    @property
    def batch_size(self):
        return self.x.shape[0]

    def __call__(self, params, xi, yi):
        logits = forward(params, xi[None])
        total = -jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(yi[None], 10))
        return total / self.batch_size


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    example_loss = ExampleLoss(x, y)
    return jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
