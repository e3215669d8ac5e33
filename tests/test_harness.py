"""The child harness's own set-up, outside any sandbox."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT

LOWER = """
import sys
import jax, jax.numpy as jnp
from jax._src.interpreters import mlir
from grader.harness.child import share_ir_context
if sys.argv[1] == "shared":
    share_ir_context()
    share_ir_context()  # twice is once
    assert mlir.make_ir_context() is mlir.make_ir_context()
elif sys.argv[1] == "forked":  # built before the backend starts, as the fork server does, and used after a fork
    import os
    from jax._src import xla_bridge
    from grader.harness.child import make_shared_ir_context
    threads = len(os.listdir("/proc/self/task"))
    make_shared_ir_context()
    built = mlir.make_ir_context()
    assert not xla_bridge._backends and len(os.listdir("/proc/self/task")) == threads, "nothing a fork would break"
    pid = os.fork()
    if pid:
        _, status = os.waitpid(pid, 0)
        raise SystemExit(os.waitstatus_to_exitcode(status))
    assert mlir.make_ir_context() is built
else:
    assert mlir.make_ir_context() is not mlir.make_ir_context()
f = lambda x, w: jax.nn.relu(x @ w).sum(axis=-1)
texts = [jax.jit(f).lower(jnp.ones((b, 3)), jnp.ones((3, 2))).as_text() for b in (4, 5, 4)]
values = jax.vmap(jax.grad(lambda w, x: f(x[None], w).sum()), in_axes=(None, 0))(jnp.ones((3, 2)), jnp.arange(12.).reshape(4, 3))
print(repr((texts, values.tolist())))
"""


def _lowered(mode: str) -> str:
    return subprocess.run([sys.executable, "-c", LOWER, mode], check=True, capture_output=True, text=True,
                          cwd=ROOT).stdout


@pytest.mark.e2e
def test_one_shared_ir_context_lowers_and_computes_as_fresh_ones_do():
    # Same modules (so the same compilation-cache keys) and the same values, lowering after lowering.
    assert _lowered("shared") == _lowered("fresh")


@pytest.mark.e2e
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork server runs on Linux only")
def test_a_context_built_in_the_fork_server_serves_its_children_as_fresh_ones_do():
    assert _lowered("forked") == _lowered("fresh")


def test_an_error_message_names_no_object_address(tmp_path):
    # Addresses change from run to run; the same submission must get the same report.
    from grader.harness.recorder import Recorder

    def broken():
        raise TypeError(f"got {broken!r} and {object()!r} where an array was expected")

    recorder = Recorder(tmp_path)
    recorder.record("case", broken)
    message = recorder.values["case"]["message"]
    assert "0x" not in message and message.startswith("got <function test_an_error_message_names_no_object_address")


def test_a_leaked_trace_is_a_leak_whose_message_names_no_object_id(tmp_path):
    # jax.checking_leaks names each object on the path to a leaked tracer by its id, which changes from run to
    # run; the chain of types and attributes stays (it says where the value was kept), and the kind is a leak.
    import jax
    import jax.numpy as jnp

    from grader.harness.probe_tools import no_leaks
    from grader.harness.recorder import Recorder

    class Keeper:
        kept = []

    def keeps(x):
        Keeper.kept.append(x * 2)
        return x

    recorder = Recorder(tmp_path)
    recorder.record("case", lambda: no_leaks(jax.jit(keeps), jnp.ones(3)))
    entry = recorder.values["case"]
    assert entry["crash"] == "leaked_tracer", entry
    assert "is referred to by <list>" in entry["message"] and "['kept']" in entry["message"]
    assert not re.search(r"\d{6,}", entry["message"]), entry["message"]


def test_an_error_message_quotes_no_array_values(tmp_path):
    # JAX quotes a whole params dict it could not hash as a static argument: kilobytes of numbers the student does
    # not need. The arrays keep their dtype; the rest of the message is kept as raised.
    import jax.numpy as jnp
    import numpy as np

    from grader.harness.recorder import Recorder

    params = {"layer1": {"w": jnp.ones((784, 256)), "b": jnp.zeros(256)}, "mask": np.array([True, False])}

    def broken():
        raise ValueError(f"Non-hashable static arguments are not supported: {params}. The error was: unhashable")

    recorder = Recorder(tmp_path)
    recorder.record("case", broken)
    message = recorder.values["case"]["message"]
    assert message == ("Non-hashable static arguments are not supported: {'layer1': {'w': Array([...], dtype=float32), "
                       "'b': Array([...], dtype=float32)}, 'mask': array([...])}. The error was: unhashable")


@pytest.mark.parametrize("raised", ["Array([" * 50_000, "Array([" + "1 " * 200_000, "Array([1," + "]" * 10 ** 6])
def test_an_error_message_is_read_in_linear_time_whatever_it_holds(tmp_path, raised):
    # A message the student's code raised goes through the same elision: it must not backtrack on crafted text
    # (a pattern that did would take minutes on each of these, not milliseconds).
    from grader.harness.recorder import Recorder

    def broken():
        raise ValueError(raised)

    recorder = Recorder(tmp_path)
    recorder.record("case", broken)
    assert recorder.values["case"]["message"] == raised[:4000]


def test_only_exercises_that_time_their_code_compile_it_fully(monkeypatch):
    """ex4 times steps and accuracy trains: their programs are optimised. Every other run compiles quickly; every
    run with the older code generators (where this jaxlib has them) and as eagerly (AS_EAGER); a user's own XLA
    flags are kept before the grader's, none given twice."""
    from grader.exercises import BY_ID
    from grader.harness.child import set_compilation
    from grader.harness.xla_options import AS_EAGER, QUICK_COMPILE, older_generators, portable

    assert {e for e, record in BY_ID.items() if record.runs_for_speed} == {"ex4", "accuracy"}
    for exercise in BY_ID:
        own = AS_EAGER + (() if exercise in ("ex4", "accuracy") else QUICK_COMPILE) + older_generators() + (
            () if exercise == "accuracy" else portable())  # the training compiles for this CPU
        monkeypatch.setenv("XLA_FLAGS", "--xla_cpu_enable_fast_math=false")
        set_compilation(exercise)
        flags = os.environ["XLA_FLAGS"].split()
        assert flags == ["--xla_cpu_enable_fast_math=false", *own], exercise
        monkeypatch.setenv("XLA_FLAGS", " ".join(AS_EAGER))  # as the test suite's own process has it
        set_compilation(exercise)
        assert os.environ["XLA_FLAGS"].split() == list(own), "no option twice: a key of its own"


@pytest.mark.parametrize("release, given", [("0.4.30", False), ("0.5.1", False), ("0.5.3", True), ("0.6.0", True),
                                             ("0.10.2", True), ("0.10.3.dev20261130", True), ("0.11.0", False),
                                             ("1.0.0", False)])
def test_the_older_code_generators_are_chosen_only_where_xla_is_known_to_have_the_option(monkeypatch, release,
                                                                                          given):
    """XLA ends a process whose $XLA_FLAGS holds an option it does not know: the option that chooses the older CPU
    code generators is given to the jaxlib releases known to have it (0.5.3 up to the 0.10 series), no other."""
    import jaxlib.version

    from grader.harness import xla_options
    from grader.harness.xla_options import AS_EAGER, LEGACY_EMITTERS, QUICK_COMPILE, for_exercise

    monkeypatch.setattr(jaxlib.version, "__version__", release)
    monkeypatch.setattr(xla_options, "portable", lambda: ())
    assert for_exercise("ex3") == AS_EAGER + QUICK_COMPILE + (LEGACY_EMITTERS if given else ())
    assert for_exercise("ex4") == AS_EAGER + (LEGACY_EMITTERS if given else ())
    assert for_exercise("accuracy") == AS_EAGER + (LEGACY_EMITTERS if given else ())


AVX2_CPU = {"AVX": True, "AVX2": True, "FMA3": True, "F16C": True, "AVX512F": False}


@pytest.mark.parametrize("machine, release, features, flags, given", [
    ("x86_64", "0.10.2", AVX2_CPU, "", True),
    ("AMD64", "0.4.34", AVX2_CPU, "--xla_cpu_enable_fast_math=false", True),  # Windows names it so
    ("x86_64", "0.4.33", AVX2_CPU, "", False),  # before the option
    ("x86_64", "0.4.30", AVX2_CPU, "", False),
    ("x86_64", "0.11.0", AVX2_CPU, "", False),  # not known to have it yet
    ("arm64", "0.10.2", AVX2_CPU, "", False),  # Apple silicon: its own programs
    ("aarch64", "0.10.2", {}, "", False),
    ("x86_64", "0.10.2", {**AVX2_CPU, "AVX2": False}, "", False),  # Sandy Bridge, Ivy Bridge, older Pentiums
    ("x86_64", "0.10.2", {**AVX2_CPU, "FMA3": False}, "", False),
    ("x86_64", "0.10.2", {}, "", False),  # NumPy could not say
    ("x86_64", "0.10.2", AVX2_CPU, "--xla_cpu_max_isa=AVX512", False),  # the user's own choice stands
    ("x86_64", "0.10.2", AVX2_CPU, "--xla_cpu_max_isa=AVX2", True),  # the grader's own, already given
])
def test_runs_compile_for_every_avx2_cpu_only_where_every_part_is_known_to_allow_it(monkeypatch, machine, release,
                                                                                   features, flags, given):
    """Programs compiled for AVX2 (and keyed so, not by the CPU) run on any x86-64 CPU that has it: the option that
    caps the instruction set is given on such a CPU with a jaxlib known to have it (0.4.34 up to the 0.10 series;
    an option XLA does not know ends the process), never where the user set an instruction set of their own."""
    import platform

    import jaxlib.version

    from grader.harness import xla_options

    monkeypatch.setattr(platform, "machine", lambda: machine)
    monkeypatch.setattr(jaxlib.version, "__version__", release)
    monkeypatch.setattr(xla_options, "_cpu_features", lambda: dict(features))
    monkeypatch.setenv("XLA_FLAGS", flags)
    assert xla_options.portable() == (xla_options.PORTABLE_ISA if given else ())
    for exercise in ("ex1", "ex2", "ex3", "ex4", "ex5"):
        assert (xla_options.PORTABLE_ISA[0] in xla_options.for_exercise(exercise)) == given, exercise
    assert xla_options.PORTABLE_ISA[0] not in xla_options.for_exercise("accuracy")  # the training: this CPU's own


def test_numpy_tells_the_cpu_features_a_portable_program_needs():
    """The features :func:`portable` asks for are names NumPy's run-time detection uses (a name it does not know
    would read as absent, and no CPU would ever share programs)."""
    from grader.harness import xla_options

    features = xla_options._cpu_features()
    if not features:
        pytest.skip("this NumPy does not say which CPU features it found")
    assert set(xla_options._PORTABLE_NEEDS) <= set(features)


KEYS = """
import hashlib, os, sys
import jax
from jax._src import cache_key
from jax._src.lib import xla_client
from grader.harness import child
os.environ["XLA_FLAGS"] = sys.argv[1]
child.share_across_cpus()
child.share_across_cpus()  # twice is once
devices = __import__("numpy").array(jax.devices())
fingerprints = iter([11, 22])

class Topology:
    def __init__(self, n): self.n = n
    def fingerprint(self): return self.n
    def serialize(self): return str(self.n).encode()

def key():
    xla_client.get_topology_for_devices = lambda devices: Topology(next(fingerprints))
    h = hashlib.sha256()
    try:
        cache_key._hash_accelerator_config(h, devices)
    except TypeError:  # JAX before 0.4.36 passes the backend too
        cache_key._hash_accelerator_config(h, devices, None)
    return h.hexdigest()

print(key() == key(), getattr(cache_key._hash_accelerator_config, "portable", False))
"""


@pytest.mark.parametrize("flags, shared", [("--xla_cpu_max_isa=AVX2", True), ("", False)])
def test_programs_compiled_for_any_avx2_cpu_are_keyed_by_that_not_by_this_cpu(flags, shared):
    """JAX keys each compiled program by the CPU's topology fingerprint, so what one CPU compiled never loads on
    another. A run that compiles for any AVX2 CPU keys them by that instead (the same on two CPUs whose
    fingerprints differ); one that compiles for its own CPU keeps JAX's key."""
    from grader.harness.xla_options import PORTABLE_ISA

    assert (flags == PORTABLE_ISA[0]) == shared
    done = subprocess.run([sys.executable, "-c", KEYS, flags], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == [str(shared), str(shared)]


@pytest.mark.floor
@pytest.mark.parametrize("exercise", ["ex3", "ex4", "accuracy"])
def test_this_jaxlib_starts_its_backend_with_every_option_a_run_is_given(exercise):
    """What a run's child puts in $XLA_FLAGS, this jaxlib's XLA accepts: its backend starts and computes (an option
    it did not know would end the process before the first result)."""
    from grader.harness.xla_options import for_exercise

    code = "import jax.numpy as jnp; print(float(jnp.tanh(jnp.arange(4.0)).sum()))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "XLA_FLAGS": " ".join(for_exercise(exercise)), "JAX_PLATFORMS": "cpu"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert abs(float(done.stdout) - 2.7207) < 1e-3


def test_a_run_loads_only_the_parts_of_the_inputs_it_reads(tmp_path):
    """The inputs' file holds every exercise's inputs (the accuracy run's images are most of it); each run loads
    its own part and what its record says it reads besides, the same arrays as the whole file holds."""
    import numpy as np

    from grader import inputs
    from grader.exercises import BY_ID
    from grader.harness.child import load_inputs

    path = inputs.write(tmp_path / "inputs.npz")
    everything = load_inputs(path)
    assert set(everything) == set(BY_ID)
    for exercise in BY_ID:
        part = load_inputs(path, exercise)
        assert set(part) == {p.split("/")[0] for p in BY_ID[exercise].input_parts}, exercise
        assert inputs.flatten(part[exercise]).keys() == inputs.flatten(everything[exercise]).keys()
    ex2 = load_inputs(path, "ex2")
    assert set(ex2["accuracy"]) == {"params"} and "x_train" in everything["accuracy"]
    assert all(np.array_equal(a, b) for a, b in zip(inputs.flatten(ex2["accuracy"]["params"]).values(),
                                                    inputs.flatten(everything["accuracy"]["params"]).values()))
