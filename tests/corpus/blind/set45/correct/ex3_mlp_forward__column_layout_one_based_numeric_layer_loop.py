# BLIND-SET: 45
# EXERCISE: ex3
# WHAT: correct. Layer numbers are parsed from the names and sorted as integers, the loop runs l = 1..N with 1-based positions converted by hand (nums[l - 1]), activations are kept as columns (H = W' * H + b, bias as a column) with ReLU for l < N, and the result is transposed back to (B, dN); params are only read.
# SHOULD-SAY: Nothing to fix: layers run in numeric order at any depth, ReLU after every layer but the last, params untouched, same under jit.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


def mlp_forward(params, x):
    """H = relu(W' * H + b) for layers 1..N-1, then the output layer, examples as columns."""
    nums = sorted(int(name[len("layer"):]) for name in params)  # sort(str2double(...))
    N = len(nums)
    H = x.T  # (d0, B)
    for l in range(1, N + 1):  # for l = 1:N
        layer = params[f"layer{nums[l - 1]}"]
        H = layer["w"].T @ H + jnp.reshape(layer["b"], (-1, 1))
        if l < N:
            H = jax.nn.relu(H)
    return H.T
