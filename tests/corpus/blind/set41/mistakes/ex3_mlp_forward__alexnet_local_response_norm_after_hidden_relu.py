# BLIND-SET: 41
# EXERCISE: ex3
# WHAT: After every hidden ReLU the forward pass applies Krizhevsky et al.'s (2012) local response normalisation across neighbouring units, with the paper's constants (k = 2, n = 5, alpha = 1e-4, beta = 0.75): b_i = a_i / (k + alpha * sum of a_j^2 over j in [i-2, i+2])^beta. Even for small activations this divides every hidden unit by about 2^0.75 = 1.68, and more where neighbours are large, so the output differs from the reference at every depth >= 2. Depth 1 is unchanged.
# SHOULD-SAY: For networks with hidden layers the outputs are wrong, while a single linear layer is right. The cause is that your hidden activations are not relu(h @ w + b): each is divided by (2 + 1e-4 * sum of neighbours' squares)^0.75, which is AlexNet's local response normalisation. The lesson's MLP has no normalisation layer; remove _local_response_norm and feed relu(h @ w + b) straight into the next layer.
"""Exercise 3: a generic MLP with the rectified units of Krizhevsky et al. (2012).

Section 3.3 of the AlexNet paper: ReLU followed by local response normalisation,
b_i = a_i / (k + alpha * sum_{j=i-n/2}^{i+n/2} a_j^2)^beta, k=2, n=5, alpha=1e-4, beta=0.75.
"""

import jax
import jax.numpy as jnp

LRN_K, LRN_N, LRN_ALPHA, LRN_BETA = 2.0, 5, 1e-4, 0.75


def _layer_index(name):
    return int(name[len("layer"):])


def _local_response_norm(a):
    """Normalise each unit by the squared activity of its n neighbours (clipped at the edges)."""
    half = LRN_N // 2
    sq = jnp.pad(a * a, ((0, 0), (half, half)))
    width = a.shape[-1]
    window = sum(sq[:, j:j + width] for j in range(LRN_N))
    return a / (LRN_K + LRN_ALPHA * window) ** LRN_BETA


def mlp_forward(params, x):
    """ReLU + LRN after every layer but the last, layers in numeric order."""
    names = sorted(params, key=_layer_index)
    h = x
    for name in names[:-1]:
        h = _local_response_norm(jax.nn.relu(h @ params[name]["w"] + params[name]["b"]))
    last = params[names[-1]]
    return h @ last["w"] + last["b"]
