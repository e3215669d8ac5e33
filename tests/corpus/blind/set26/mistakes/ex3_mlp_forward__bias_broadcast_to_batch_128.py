# BLIND-SET: 26
# EXERCISE: ex3
# WHAT: each bias is expanded to an explicit (128, width) matrix with jnp.broadcast_to before it is added (the notebook's batch size, "to be sure the broadcast is right"); B = 128 is right, but a batch of one comes back as (128, dN) and any other batch size raises a broadcasting error.
# SHOULD-SAY: mlp_forward only works for batches of exactly 128: the bias is broadcast to a hard-coded (128, width) shape, so B = 1 returns 128 rows and other B raise; add the (width,) bias directly (x @ w + b broadcasts over any batch) or broadcast to (x.shape[0], width).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


BATCH_SIZE = 128  # the lesson's batch size


def _bias(b):
    """The bias as a (batch, width) matrix, so the addition is explicit."""
    return jax.numpy.broadcast_to(b, (BATCH_SIZE, b.shape[0]))


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + _bias(params[name]["b"]))
    last = params[names[-1]]
    return x @ last["w"] + _bias(last["b"])
