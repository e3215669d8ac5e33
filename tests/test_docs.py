"""The documentation says what the grader does: the checks table, points quoted in prose, and links.

Fast: nothing is graded; the registry and the rubric are read as the grader reads them.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from grader.engine import CHECKS
from grader.rubric import load_rubric

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _checks_table():
    spec = importlib.util.spec_from_file_location("checks_table", ROOT / "scripts" / "checks_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _prose(text: str) -> str:
    """``text`` without fenced code blocks (links and points in examples are not claims)."""
    return re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.S | re.M)


def test_checks_table_is_what_the_script_writes():
    table = _checks_table()
    text = table.DOC.read_text()
    assert table.render(text) == text, (
        "docs/checks.md's table of checks and points differs from the registry and grader/rubric.toml: "
        "run python scripts/checks_table.py")


def test_checks_table_lists_every_check_with_its_points_and_name():
    """Read back from the committed file, independently of the script: one row per check, nothing else."""
    points = load_rubric(CHECKS).points
    text = (ROOT / "docs" / "checks.md").read_text()
    rows = re.findall(r"^\| `([\w.]+)` \| ([\d.]+) \| (.*) \|$", text, flags=re.M)
    assert [row[0] for row in rows] == [c.id for c in CHECKS]
    for (check_id, shown, name), check in zip(rows, CHECKS):
        assert float(shown) == points[check_id], f"{check_id}: docs/checks.md says {shown} points"
        assert name.replace("\\|", "|") == check.name


def test_points_quoted_in_prose_match_the_rubric():
    """A check named with its points, as in "`ex2.jit` (2, ...)", quotes the rubric's points."""
    points = load_rubric(CHECKS).points
    ids = "|".join(re.escape(c.id) for c in CHECKS)
    quoted = re.compile(rf"`({ids})` \((\d+(?:\.\d+)?)[,)]")
    wrong = [f"{doc.relative_to(ROOT)}: `{check_id}` ({shown}), the rubric gives {points[check_id]:g}"
             for doc in DOCS for check_id, shown in quoted.findall(_prose(doc.read_text()))
             if float(shown) != points[check_id]]
    assert not wrong, "\n".join(wrong)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*]|<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    anchors = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", _prose(path.read_text()), flags=re.M):
        slug = _slug(heading)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def _links(text: str) -> list[str]:
    prose = re.sub(r"`[^`\n]*`", "", _prose(text))
    return re.findall(r"\]\(([^)\s]+)(?: \"[^\"]*\")?\)", prose)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_at_files_and_headings_that_exist(doc):
    broken = []
    for target in _links(doc.read_text()):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        dest = (doc.parent / path).resolve() if path else doc
        if not dest.exists():
            broken.append(f"{target}: no file {dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest}")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target}: no heading #{anchor} in {dest.relative_to(ROOT)}")
    assert not broken, f"{doc.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_link_checker_sees_links_and_headings():
    """The checks above would pass on nothing: make sure they parse what the docs hold."""
    assert "docs/checks.md" in _links((ROOT / "README.md").read_text())
    assert "where-courses-grade-now" in _anchors(ROOT / "docs" / "integrations.md")
    assert _slug("What a push costs in CI") == "what-a-push-costs-in-ci"
    assert _slug("ex1: dropout with split PRNG keys (`ex1_dropout.py`, 20 points)") == \
        "ex1-dropout-with-split-prng-keys-ex1_dropoutpy-20-points"
