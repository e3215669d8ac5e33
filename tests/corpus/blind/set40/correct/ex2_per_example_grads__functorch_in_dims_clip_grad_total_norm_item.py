# BLIND-SET: 40
# EXERCISE: ex2
# WHAT: Correct. A functorch-style port: compute_loss(params, sample, target) unsqueezes one example, runs it through F.linear with torch-layout weights (w.T, applied as x @ W.T) and a cross-entropy on logits with the max shifted out via stop_gradient (torch's `.detach()` trick); per_example_grads is vmap(grad(compute_loss), in_dims=(None, 0, 0)) through a small in_dims->in_axes shim. Norms are torch's clip_grad_norm_ total_norm (vector norms of every leaf, then the norm of the stacked norms) vmapped over examples, and the index is argmax().item().
# SHOULD-SAY: Nothing to fix: per-example gradients, their global norms over weights and biases, and the Python int index all match the contract.
"""Exercise 2: per-example gradients with jax.vmap (functorch habits)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- torch.func-ish helpers ---------------------------------------------------------


def vmap(fn, in_dims=0):
    """torch.func.vmap spelled with JAX."""
    return jax.vmap(fn, in_axes=in_dims)


def grad(fn):
    """torch.func.grad: gradient w.r.t. the first argument."""
    return jax.grad(fn)


def F_linear(x, weight, bias):
    return x @ weight.T + bias


def F_cross_entropy(logits, target, reduction="mean"):
    """nn.CrossEntropyLoss on raw logits with class-index targets."""
    shifted = logits - jax.lax.stop_gradient(jnp.max(logits, axis=1, keepdims=True))  # .detach()
    log_probs = shifted - jnp.log(jnp.sum(jnp.exp(shifted), axis=1, keepdims=True))
    nll = -jnp.take_along_axis(log_probs, target[:, None], axis=1)[:, 0]
    if reduction == "mean":
        return nll.mean()
    if reduction == "sum":
        return nll.sum()
    return nll


def functional_call(params, x):
    """Run the lesson's MLP the torch way: Linear layers with (out, in) weights."""
    weights = [params[f"layer{i}"]["w"].T for i in (1, 2, 3)]
    biases = [params[f"layer{i}"]["b"] for i in (1, 2, 3)]
    x = jax.nn.relu(F_linear(x, weights[0], biases[0]))
    x = jax.nn.relu(F_linear(x, weights[1], biases[1]))
    return F_linear(x, weights[2], biases[2])


def compute_loss(params, sample, target):
    batch = sample[None]  # sample.unsqueeze(0)
    targets = target[None]  # target.unsqueeze(0)
    predictions = functional_call(params, batch)
    return F_cross_entropy(predictions, targets)


# --- the exercise ---------------------------------------------------------------------


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""
    ft_compute_sample_grad = vmap(grad(compute_loss), in_dims=(None, 0, 0))
    return ft_compute_sample_grad(params, x, y)


def _total_norm(grads, norm_type=2.0):
    """torch.nn.utils.clip_grad_norm_'s total_norm for one example's gradient."""
    norms = [jnp.linalg.vector_norm(g, ord=norm_type) for g in jax.tree.leaves(grads)]
    return jnp.linalg.vector_norm(jnp.stack(norms), ord=norm_type)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    return vmap(_total_norm)(grads)


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return norms.argmax().item()
