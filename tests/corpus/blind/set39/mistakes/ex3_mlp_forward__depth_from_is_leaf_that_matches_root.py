# BLIND-SET: 39
# EXERCISE: ex3
# WHAT: The depth is counted as len(jax.tree_util.tree_leaves(params, is_leaf=lambda n: isinstance(n, dict))); is_leaf is also true for the top-level params dict, so the "depth" is always 1 and the output test i == depth - 1 fires at the first layer. For N >= 2 layer1 gets no ReLU and every later layer, including the output layer, gets one; N = 1 is right.
# SHOULD-SAY: Your ReLUs are in the wrong places for two or more layers: none after layer1, and one on the output. The depth you compute is always 1, because your is_leaf predicate (isinstance(n, dict)) already matches the whole params dict, so tree_leaves returns [params]. Use len(params), or an is_leaf that only matches a layer ({"w", "b"}), and apply ReLU to every layer except the last.
"""Exercise 3: a generic MLP whose depth is read off the params pytree."""

import jax
import jax.numpy as jnp


def _is_layer(node):
    return isinstance(node, dict)


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    depth = len(jax.tree_util.tree_leaves(params, is_leaf=_is_layer))
    names = sorted(params, key=lambda n: int(n.removeprefix("layer")))
    for i, name in enumerate(names):
        layer = params[name]
        x = x @ layer["w"] + layer["b"]
        x = jax.lax.cond(i == depth - 1, lambda h: h, jax.nn.relu, x)
    return x
