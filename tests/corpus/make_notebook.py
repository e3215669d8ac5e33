"""Build ``correct/whole/notebook.ipynb``: a whole submission as a student's notebook.

Markdown between the cells, IPython magics and shell lines (which the grader
drops), a small demo that runs at import, and exercises in an unusual order.
Run ``python tests/corpus/make_notebook.py`` after editing the cells below.
"""

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

CELLS = [
    ("md", "# Introduction to JAX: exercises\n\nMy solutions; the answers to the questions are in answers.md."),
    ("code", "!pip install -q optax\n%matplotlib inline\nimport time\nimport timeit\n\nimport jax\n"
             "import jax.numpy as jnp\nimport numpy as np\nimport optax"),
    ("md", "## Exercise 3: a generic MLP\n\nThe depth comes from the params; `layer10` sorts after `layer9` "
           "because I sort on the number."),
    ("code", "def mlp_forward(params, x):\n"
             "    depth = max(int(name.split('layer')[1]) for name in params)\n"
             "    for i in range(1, depth + 1):\n"
             "        layer = params['layer' + str(i)]\n"
             "        x = jnp.dot(x, layer['w']) + layer['b']\n"
             "        if i < depth:\n"
             "            x = jax.nn.relu(x)\n"
             "    return x"),
    ("code", "def loss_fn(params, x, y):\n"
             "    logp = jax.nn.log_softmax(mlp_forward(params, x))\n"
             "    return -jnp.mean(jnp.sum(logp * jax.nn.one_hot(y, 10), axis=-1))"),
    ("md", "## Exercise 1: dropout"),
    ("code", "def dropout(key, x, rate, train=True):\n"
             "    if not train or rate == 0:\n"
             "        return x\n"
             "    keep_prob = 1.0 - rate\n"
             "    keep = jax.random.uniform(key, x.shape) < keep_prob\n"
             "    return x * keep / keep_prob\n\n\n"
             "def forward_with_dropout(params, x, key, rate=0.5, train=True):\n"
             "    keys = jax.random.split(key, 2)\n"
             "    h = x\n"
             "    for i, name in enumerate(['layer1', 'layer2']):\n"
             "        h = jax.nn.relu(h @ params[name]['w'] + params[name]['b'])\n"
             "        h = dropout(keys[i], h, rate, train)\n"
             "    return h @ params['layer3']['w'] + params['layer3']['b']"),
    ("code", "# quick look: about half the entries are zeroed, the rest doubled\n"
             "%timeit dropout(jax.random.PRNGKey(0), jnp.ones((2, 6)), 0.5)\n"
             "print(dropout(jax.random.PRNGKey(0), jnp.ones((2, 6)), 0.5))"),
    ("md", "## Exercise 2: per-example gradients"),
    ("code", "def per_example_grads(params, x, y):\n"
             "    def one(p, xi, yi):\n"
             "        return loss_fn(p, jnp.expand_dims(xi, 0), jnp.expand_dims(yi, 0))\n"
             "    return jax.vmap(jax.grad(one), in_axes=(None, 0, 0))(params, x, y)\n\n\n"
             "def per_example_grad_norms(grads):\n"
             "    leaves = jax.tree_util.tree_leaves(grads)\n"
             "    b = leaves[0].shape[0]\n"
             "    return jnp.sqrt(sum(jnp.sum(jnp.reshape(g, (b, -1)) ** 2, axis=-1) for g in leaves))\n\n\n"
             "def largest_gradient_example(params, x, y):\n"
             "    norms = per_example_grad_norms(per_example_grads(params, x, y))\n"
             "    return int(jnp.argmax(norms))"),
    ("md", "## Exercise 5: clipping"),
    ("code", "def make_optimizer(learning_rate=1e-3, max_norm=1.0):\n"
             "    return optax.chain(\n"
             "        optax.clip_by_global_norm(max_norm),\n"
             "        optax.scale_by_adam(),\n"
             "        optax.scale_by_learning_rate(learning_rate),\n"
             "    )\n\n\n"
             "def make_train_step(optimizer):\n"
             "    def train_step(params, opt_state, x, y):\n"
             "        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)\n"
             "        updates, opt_state = optimizer.update(grads, opt_state, params)\n"
             "        return optax.apply_updates(params, updates), opt_state, loss\n"
             "    return jax.jit(train_step)"),
    ("md", "## Exercise 4: how much does jit buy?"),
    ("code", "def time_steps(step_fn, params, opt_state, x, y, n_steps=100):\n"
             "    params, opt_state, loss = step_fn(params, opt_state, x, y)\n"
             "    jax.block_until_ready(loss)\n"
             "    start = timeit.default_timer()\n"
             "    for _ in range(n_steps):\n"
             "        params, opt_state, loss = step_fn(params, opt_state, x, y)\n"
             "    jax.block_until_ready((params, opt_state, loss))\n"
             "    return timeit.default_timer() - start\n\n\n"
             "def jit_speedup(n_steps=100):\n"
             "    keys = jax.random.split(jax.random.PRNGKey(7), 5)\n"
             "    sizes = [784, 256, 128, 10]\n"
             "    params = {f'layer{i + 1}': {'w': jax.random.normal(keys[i], (m, n)) * jnp.sqrt(2 / m),\n"
             "                                'b': jnp.zeros(n)}\n"
             "              for i, (m, n) in enumerate(zip(sizes[:-1], sizes[1:]))}\n"
             "    x = jax.random.uniform(keys[3], (128, 784))\n"
             "    y = jax.random.randint(keys[4], (128,), 0, 10)\n"
             "    optimizer = optax.adam(1e-3)\n\n"
             "    def step(params, opt_state, x, y):\n"
             "        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)\n"
             "        updates, opt_state = optimizer.update(grads, opt_state, params)\n"
             "        return optax.apply_updates(params, updates), opt_state, loss\n\n"
             "    eager_s = time_steps(step, params, optimizer.init(params), x, y, n_steps)\n"
             "    jit_s = time_steps(jax.jit(step), params, optimizer.init(params), x, y, n_steps)\n"
             "    return {'eager_s': eager_s, 'jit_s': jit_s, 'speedup': eager_s / jit_s}"),
    ("code", "# result = jit_speedup(50)\n# result"),
]


def build() -> nbformat.NotebookNode:
    nb = new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    nb.cells = [new_markdown_cell(text) if kind == "md" else new_code_cell(text) for kind, text in CELLS]
    return nb


if __name__ == "__main__":
    out = Path(__file__).resolve().parent / "correct" / "whole" / "notebook.ipynb"
    nbformat.write(build(), str(out))
    print(f"wrote {out}")
