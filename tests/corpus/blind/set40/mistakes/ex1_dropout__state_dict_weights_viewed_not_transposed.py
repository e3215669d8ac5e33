# BLIND-SET: 40
# EXERCISE: ex1
# WHAT: forward_with_dropout first converts the lesson params into a torch-style state_dict with weights in (out_features, in_features) layout, but does it with `w.reshape(out, in)` (torch's `.view(out, in)` habit) instead of `w.T`, then applies each layer as x @ W.T + b. The shapes still line up, but every weight matrix is scrambled, so the logits are wrong for train=True and train=False alike (train=False no longer equals the plain forward pass); dropout() itself is correct.
# SHOULD-SAY: The MLP's logits are wrong even with train=False: reshaping an (in, out) weight to (out, in) reorders its elements; it is not a transpose. Use w.T for the torch layout (or simply x @ w with the lesson's layout).
"""Exercise 1: dropout with split PRNG keys (torch-style state_dict and F.linear)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout, like torch.nn.functional.dropout(x, p=rate, training=train)."""
    if not train or rate == 0.0:
        return x
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0).astype(x.dtype)


def to_state_dict(params):
    """The lesson's params as a torch state_dict: fcN.weight is (out_features, in_features)."""
    state = {}
    for i in (1, 2, 3):
        w = params[f"layer{i}"]["w"]
        in_features, out_features = w.shape
        state[f"fc{i}.weight"] = w.reshape(out_features, in_features)  # .view(out, in)
        state[f"fc{i}.bias"] = params[f"layer{i}"]["b"]
    return state


def linear(x, weight, bias):
    """torch.nn.functional.linear."""
    return x @ weight.T + bias


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    sd = to_state_dict(params)
    key1, key2 = jax.random.split(key)
    x = dropout(key1, jax.nn.relu(linear(x, sd["fc1.weight"], sd["fc1.bias"])), rate, train)
    x = dropout(key2, jax.nn.relu(linear(x, sd["fc2.weight"], sd["fc2.bias"])), rate, train)
    return linear(x, sd["fc3.weight"], sd["fc3.bias"])
