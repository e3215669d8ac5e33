# BLIND-SET: 56
# EXERCISE: ex3
# WHAT: Correct. The numeric layer order is worked out from the names with a regex and cached in a module-level dict keyed by frozenset(params) (so different depths get their own entry); the forward is a while loop over that order with jnp.maximum(h, 0) after every layer but the last. A first draft of mlp_forward is redefined later (the later one wins), and globals and prints are left in; none of it changes outputs.
# SHOULD-SAY: Nothing to fix: layers are applied in numeric order layer1..layerN for any depth and any dict order, ReLU after every layer but the last, and params are not modified.
"""Exercise 3: a generic MLP that reads its depth from the params pytree (from my notebook)."""

import re

import jax
import jax.numpy as jnp

ORDER_CACHE = {}  # frozenset of names -> ordered names (saves re-sorting in the training loop)


# first draft (only works up to layer9 because of string sorting) -- replaced below
def mlp_forward(params, x):
    names = sorted(params)
    for n in names[:-1]:
        x = jax.nn.relu(x @ params[n]["w"] + params[n]["b"])
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]


def layer_order(params):
    k = frozenset(params)
    if k not in ORDER_CACHE:
        nums = {int(re.search(r"(\d+)$", n).group(1)): n for n in params}
        ORDER_CACHE[k] = [nums[i] for i in sorted(nums)]
        print("new architecture:", ORDER_CACHE[k])
    return ORDER_CACHE[k]


def mlp_forward(params, x):
    names = layer_order(params)
    h = x
    i = 0
    while i < len(names):
        layer = params[names[i]]
        h = jnp.matmul(h, layer["w"]) + layer["b"]
        i += 1
        if i < len(names):
            h = jnp.maximum(h, 0.0)
    return h


# --- cell: 12 layers, names inserted in string order ---------------------------------------
key = jax.random.PRNGKey(1)
toy = {}
for name in sorted(f"layer{i}" for i in range(1, 13)):
    key, sub = jax.random.split(key)
    toy[name] = {"w": jax.random.normal(sub, (6, 6)) * 0.4, "b": jnp.full((6,), 0.1)}
print(mlp_forward(toy, jnp.ones((2, 6))))
