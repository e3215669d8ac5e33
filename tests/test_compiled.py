"""grader.harness.compiled: a student's function compiled only where that gives what running it op by op gives."""

from __future__ import annotations

import os
import subprocess
import sys
import types

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from conftest import ROOT
from grader.harness import compiled
from grader.harness.compiled import compiled_or_eager, compiles_as_eagerly

#: Tests that count compiled programs: where this JAX compiles otherwise than eagerly, every call runs op by op.
compiling = pytest.mark.skipif(not compiles_as_eagerly(), reason="this JAX's XLA does not compile as eagerly")


def student(source: str) -> types.ModuleType:
    """A module of its own, as a submission's file is: what its functions keep lives in its globals."""
    module = types.ModuleType("submission")
    exec(compile("import jax, jax.numpy as jnp, numpy as np\n" + source, "submission.py", "exec"), vars(module))
    return module


def programs(fn) -> int:
    """How many compiled programs compiled_or_eager holds for ``fn``."""
    return sum(1 for key in compiled._COMPILED if key[0] is fn)


@compiling
def test_a_stateless_function_runs_op_by_op_once_then_compiled_with_the_same_values():
    m = student("def f(p, x):\n    return jnp.tanh(x @ p['w'] + p['b']).sum(axis=1)\n")
    p = {"w": jnp.ones((3, 2)) / 3, "b": jnp.arange(2.0)}
    xs = [jnp.arange(12.0).reshape(4, 3), jnp.arange(15.0).reshape(5, 3), jnp.ones((4, 3))]
    got = [compiled_or_eager(m.f, p, x) for x in xs]
    for x, value in zip(xs, got):
        np.testing.assert_array_equal(value, m.f(p, x))
    assert programs(m.f) == 2  # the first call ran op by op; the next two, on two shapes, are two programs


@compiling
def test_dicts_keep_their_key_order_and_python_numbers_stay_numbers():
    """jax.jit hands a function its dicts sorted ('layer10' before 'layer2') and its numbers as tracers; a
    function that follows the order it was given, or branches on a rate, gets them as the caller gave them."""
    m = student("def f(params, x, rate):\n"
                "    for name in params:\n"
                "        x = x @ params[name]\n"
                "    return x * 0 if rate == 0 else x / (1 - rate)\n")
    params = {f"layer{i}": jnp.full((2, 2), float(i)) + jnp.eye(2) for i in (1, 2, 10)}
    x = jnp.arange(4.0).reshape(2, 2)
    compiled_or_eager(m.f, params, x, 0.5)  # the first call
    for rate in (0.5, 0.0, 0.25):
        np.testing.assert_array_equal(compiled_or_eager(m.f, params, x, rate), m.f(params, x, rate))
    assert programs(m.f) == 3  # one per rate: the rate is part of the program, as a Python number is eagerly


@compiling
def test_results_that_are_not_arrays_computed_in_the_call_come_back_as_op_by_op_gives_them():
    m = student("KEPT = jnp.ones(3)\n"
                "def index(x):\n    return int(jnp.argmax(x))\n"
                "def kept(x):\n    return KEPT\n"
                "def host(x):\n    return np.asarray(x) * 2\n"
                "def pair(x):\n    return {'b': x, 'a': [x * 2, (x, x + 1)]}\n")
    x = jnp.arange(3.0)
    for fn in (m.index, m.kept, m.host, m.pair):
        compiled_or_eager(fn, x)
        assert type(compiled_or_eager(fn, x)) is type(fn(x)), fn.__name__
    assert compiled_or_eager(m.index, x) == 2 and compiled_or_eager(m.kept, x) is m.KEPT
    assert list(compiled_or_eager(m.pair, x)) == ["b", "a"]
    assert type(compiled_or_eager(m.pair, x)["a"][1]) is tuple
    assert programs(m.pair) == 1 and programs(m.index) + programs(m.kept) + programs(m.host) == 3  # tried, refused


@pytest.mark.parametrize("source", [
    "SEEN = {}\ndef f(x):\n    key = x.shape\n    if key not in SEEN:\n        SEEN[key] = x * 2\n"
    "    return SEEN[key]\n",
    "CALLS = 0\ndef f(x):\n    global CALLS\n    CALLS += 1\n    return x * CALLS\n",
    "def f(x, _total={}):\n    _total['s'] = _total.get('s', 0.0) + x\n    return _total['s']\n",
    "class Cache:\n    last = None\ndef f(x):\n    out = x * 2 if Cache.last is None else Cache.last\n"
    "    Cache.last = out\n    return out\n",
])
def test_a_function_whose_first_call_keeps_something_always_runs_op_by_op(source):
    """What it keeps may answer a later call (a stale result), and a trace would keep tracers there."""
    m, twin = student(source), student(source)
    xs = [jnp.arange(3.0), jnp.arange(3.0) + 1, jnp.ones(3)]
    got = [compiled_or_eager(m.f, x) for x in xs]
    for x, value in zip(xs, got):
        np.testing.assert_array_equal(value, twin.f(x))  # the same answers, stale ones included
    assert programs(m.f) == 0


def test_a_call_that_changes_its_arguments_runs_op_by_op_and_the_caller_sees_the_change():
    m = student("def f(params, x):\n    params['seen'] = x\n    return x + 1\n")
    compiled_or_eager(m.f, {"w": jnp.ones(2)}, jnp.ones(2))  # the first call: nothing kept in the module
    params = {"w": jnp.ones(2)}
    np.testing.assert_array_equal(compiled_or_eager(m.f, params, jnp.zeros(2)), jnp.ones(2))
    assert list(params) == ["w", "seen"] and not isinstance(params["seen"], jax.core.Tracer)


def test_a_later_call_that_keeps_a_tracer_runs_op_by_op():
    """A function that keeps nothing on its first call but keeps a result later: the leak checker refuses the
    trace, and the call runs op by op."""
    m = student("KEPT = []\ndef f(x):\n    if x.shape[0] > 3:\n        KEPT.append(x * 2)\n    return x + 1\n")
    compiled_or_eager(m.f, jnp.ones(2))
    np.testing.assert_array_equal(compiled_or_eager(m.f, jnp.ones(5)), jnp.full(5, 2.0))
    assert m.KEPT and not any(isinstance(v, jax.core.Tracer) for v in m.KEPT[-1:])


def test_a_function_that_refuses_to_trace_or_raises_gives_what_op_by_op_gives():
    m = student("def branch(x):\n    return x if float(x.sum()) > 0 else -x\n"
                "def broken(x):\n    return x @ jnp.ones((7, 2))\n")
    x = -jnp.arange(3.0)
    compiled_or_eager(m.branch, x)
    np.testing.assert_array_equal(compiled_or_eager(m.branch, x), m.branch(x))
    with pytest.raises(TypeError) as eager:
        m.broken(x)
    for _ in range(2):
        with pytest.raises(TypeError) as got:
            compiled_or_eager(m.broken, x)
        assert str(got.value) == str(eager.value)


BF16 = """
import jax, jax.numpy as jnp, numpy as np
from grader.harness.compiled import compiled_or_eager, compiles_as_eagerly
def norms(leaves):
    return jnp.sqrt(sum(jnp.sum(leaf.astype(jnp.bfloat16).reshape(leaf.shape[0], -1) ** 2, axis=1)
                        for leaf in leaves)).astype(jnp.float32)
rng = np.random.default_rng(0)
leaves = [jnp.asarray(rng.standard_normal(shape), jnp.float32) for shape in ((6, 40, 12), (6, 12))]
compiled_or_eager(norms, leaves)
print(np.array_equal(compiled_or_eager(norms, leaves), norms(leaves)), compiles_as_eagerly(),
      np.array_equal(jax.jit(norms)(leaves), norms(leaves)))
"""


@pytest.mark.parametrize("as_eager", [True, False])
def test_a_low_precision_mistake_is_computed_as_op_by_op_computes_it(as_eager):
    """A bfloat16 sum compiled by default keeps float32 between operations: more precise than eager, which would
    hide a precision mistake. Every child compiles with AS_EAGER, which rounds each operation as eagerly; where
    this JAX cannot (older XLA), or without those options, compiles_as_eagerly says so and every call runs op
    by op. Either way the result is the eager one."""
    from grader.harness.xla_options import AS_EAGER

    env = {**os.environ, "XLA_FLAGS": " ".join(AS_EAGER) if as_eager else "", "JAX_PLATFORMS": "cpu",
           "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", BF16], capture_output=True, text=True, env=env, check=True)
    same, gate, jit_same = out.stdout.split()[-3:]
    assert same == "True"
    assert gate == jit_same  # the gate is open exactly where a compiled program gives the eager bits here


def test_a_function_that_catches_a_value_read_under_the_trace_runs_op_by_op():
    """Defensive code that tries to read a value and goes another way when it cannot: traced, it would take the
    other way, so it runs op by op, on the path it takes when called."""
    m = student("def f(x):\n"
                "    try:\n"
                "        scale = float(jnp.max(x))\n"
                "    except Exception:\n"
                "        scale = 1.0\n"
                "    return x / scale\n")
    x = jnp.arange(1.0, 4.0)
    compiled_or_eager(m.f, x)
    np.testing.assert_array_equal(compiled_or_eager(m.f, x), x / 3)
