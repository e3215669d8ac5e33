"""The oldest versions pyproject allows grade like the newest (run by ``.ci/run`` in a floor venv).

Marked ``floor``: ``.ci/run`` builds one venv with the declared floors (jax and
jaxlib 0.4.30, optax 0.2.3, numpy 1.26; IPython 7.34 and ipykernel 6.17, as on
Colab) and runs ``pytest -m floor`` in it. On newer versions these two are
skipped: ``test_corpus.py`` grades the same submissions there (the whole
submissions at 100, every mutant against its header). The mutant's verdict is
read from its corpus ``EXPECT`` header, the one ``test_corpus.py`` holds every
version to.
"""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version

import pytest
from conftest import CORPUS, REFERENCE, ROOT, by_id, submission_with
from test_corpus import _header

from grader.engine import Options, grade


def _at_floor() -> bool:
    """Whether the installed jax is the oldest pyproject.toml allows."""
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    floor = next(re.fullmatch(r"jax>=([0-9.]+)", d).group(1) for d in dependencies if d.startswith("jax>="))
    return version("jax") == floor


pytestmark = [pytest.mark.floor,
              pytest.mark.skipif(not _at_floor(), reason="at current versions test_corpus.py grades the same "
                                                         "submissions; this runs in .ci/run's version-floor step")]

MUTANT = CORPUS / "mutants" / "ex3_mlp_forward__relu_on_output.py"


def test_the_reference_scores_full_marks(cache_dir):
    report = grade(REFERENCE, Options(cache_dir=cache_dir))
    assert report.score == report.max_score == 100, [(c.id, c.message[:300]) for c in report.checks
                                                       if c.status != "pass"]


def test_a_known_mutant_gets_its_recorded_verdict(tmp_path, cache_dir):
    _, expect = _header(MUTANT)
    report = grade(submission_with(tmp_path, {"ex3_mlp_forward": MUTANT}), Options(only=("ex3",), cache_dir=cache_dir))
    named = by_id(report)[expect["check"]]
    assert named.status != "pass" and named.mistake == expect["mistake"]
    assert expect["hint"].lower() in named.hint.lower()
    failing = [c for c in report.checks if c.status in ("fail", "error")]
    assert 1 <= len(failing) <= expect["max_failing"], [(c.id, c.message[:200]) for c in failing]
