"""A probe step that fails outside its calls of the submission's functions costs the observations it never made,
not the run: what it observed before is judged, and the rest is charged with the error and a hint that says so."""

from __future__ import annotations

import pytest

from conftest import REFERENCE, submission_with

from grader.checks import StudentError
from grader.harness import probes
from grader.protocol import PROBE_STOPPED

pytestmark = pytest.mark.usefixtures("compilation_cache")


@pytest.fixture
def ex3_probe_stops_after_the_graded_cases(monkeypatch):
    """ex3's probe, failing as soon as it has recorded the graded outputs (as a probe step does on a params dict
    the submission changed)."""
    real = probes.PROBES["ex3"]

    def probe(rec, modules, inputs, options):
        record = rec.record

        def stopping(name, fn):
            if name.startswith("again/"):
                raise KeyError("b")
            return record(name, fn)

        rec.record = stopping
        real(rec, modules, inputs, options)

    monkeypatch.setitem(probes.PROBES, "ex3", probe)


def test_what_was_observed_is_judged_and_the_rest_is_charged_with_the_stop(
        tmp_path, judge_with, ex3_probe_stops_after_the_graded_cases):
    report = judge_with(submission_with(tmp_path, {}), only=("ex3",))
    by_id = {c.id: c for c in report.checks}
    assert by_id["ex3.depths"].status == "pass"  # its outputs were recorded before the stop
    stopped = [c for c in report.checks if c.status == "error"]
    assert stopped and report.runs["ex3"].status == "ok"
    for check in stopped:
        assert check.message.startswith("not observed: the grader's run of ex3 stopped before it, on KeyError")
        assert "leave their arguments as they found them" in check.hint


def test_an_observation_never_made_raises_the_stop_and_one_made_reads(tmp_path):
    from grader.checks import Context
    from grader.observations import ObservationError, Observations

    stop = ObservationError("KeyError", "'b'", kind="probe_stopped")
    ctx = Context(Observations({"out/d1": 1.0}, {PROBE_STOPPED: stop}), Observations(), {})
    assert ctx.got("out/d1") == 1.0
    with pytest.raises(StudentError) as raised:
        ctx.got("out/d2")
    assert raised.value.error is stop
