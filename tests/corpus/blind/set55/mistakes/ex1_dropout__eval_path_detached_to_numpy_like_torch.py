# BLIND-SET: 55
# EXERCISE: ex1
# WHAT: the train=False branches copy PyTorch's eval habit (out.detach().cpu().numpy()): dropout returns np.asarray(x) and forward_with_dropout returns np.asarray(forward(...)). Eagerly the values are right (as NumPy arrays, not x itself), but under jax.jit with train=False both raise TracerArrayConversionError.
# SHOULD-SAY: Under jax.jit the eval path fails because np.asarray cannot convert a traced array; JAX has no .detach()/.numpy() step: in eval mode return x itself (and forward(params, x) as a JAX array), with no NumPy conversion.
"""Exercise 1: dropout with split keys; eval mode handled like model.eval() + no_grad."""

import jax
import jax.numpy as jnp
import numpy as np


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        # eval: like `with torch.no_grad(): return x.detach().cpu().numpy()`
        return np.asarray(jax.lax.stop_gradient(x))
    keep = 1.0 - rate
    u = jax.random.uniform(key, x.shape)
    return jnp.where(u < keep, x * (1.0 / keep), 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    if not train:
        # model.eval(); with torch.no_grad(): logits = model(x).numpy()
        return np.asarray(jax.lax.stop_gradient(forward(params, x)))
    key, k1 = jax.random.split(key)
    key, k2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(k1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(k2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
