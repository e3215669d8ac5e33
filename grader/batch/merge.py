"""Combine the output folders of ``--shard K/N`` runs into one: ``python -m grader merge SHARD_DIR... --out DIR``.

Each shard's ``manifest.json`` says which slice it graded, with which
settings, and which students it holds. Merging refuses shards graded with
different settings or exercises, a slice given twice, a missing slice and an
unfinished shard (unless ``partial``), so a merged ``grades.csv`` is exactly
what one unsharded run gives.
"""

from __future__ import annotations

from pathlib import Path

from grader.batch import outputs, state
from grader.batch.grading import Outcome
from grader.batch.runner import finish
from grader.config import DEFAULT_FORMATS, Options


class MergeError(ValueError):
    """The shards do not fit together; the message says which and why."""


def merge(shard_dirs: list[Path], dest: Path, formats: tuple[str, ...] = DEFAULT_FORMATS,
          partial: bool = False) -> list[Outcome]:
    """Write the merged outputs (and a state and manifest, so the result reads like one batch) into ``dest``."""
    if not shard_dirs:
        raise MergeError("name at least one shard output folder")
    manifests = [(Path(d), state.read_manifest(Path(d))) for d in shard_dirs]
    fingerprints = {m.get("fingerprint") for _, m in manifests}
    if len(fingerprints) > 1:
        raise MergeError("these shards were graded with different settings or grader versions ("
                         + ", ".join(f"{d}: {m['settings']['only']}, timeout {m['settings']['timeout']}"
                                     for d, m in manifests)
                         + "); grade them all with the same command")
    counts = {m["shard"][1] for _, m in manifests}
    if len(counts) > 1:
        raise MergeError(f"these shards split the class differently (N = {sorted(counts)}); use one N for all")
    count = counts.pop()
    seen: dict[int, Path] = {}
    problems = []
    for folder, manifest in manifests:
        k = manifest["shard"][0]
        if k in seen:
            raise MergeError(f"shard {k}/{count} is given twice: {seen[k]} and {folder}")
        seen[k] = folder
        if not manifest.get("complete"):
            problems.append(f"{folder} (shard {k}/{count}) did not finish: run its command again")
    missing = [f"{k}/{count}" for k in range(1, count + 1) if k not in seen]
    if missing:
        problems.append(f"shard(s) {', '.join(missing)} are missing")
    if problems and not partial:
        raise MergeError("; ".join(problems) + ". Pass --partial to merge what is there (missing students are "
                         "not listed; unfinished ones are marked pending).")
    outcomes: dict[str, Outcome] = {}
    for folder, manifest in manifests:
        recorded = state.load(folder)
        for sid in manifest["ids"]:
            if sid in outcomes:
                raise MergeError(f"student {sid!r} appears in more than one shard ({folder}); "
                                 "were these shards cut from different class folders?")
            outcome = recorded.get(sid)
            outcomes[sid] = outcome if outcome is not None else Outcome(
                sid, "pending", "not graded yet: its shard did not finish")
    merged = [outcomes[sid] for sid in sorted(outcomes)]
    settings = Options.from_json(manifests[0][1]["settings"])
    sources = [str(Path(d).resolve()) for d, _ in manifests]
    lock = state.prepare(Path(dest), tuple(Path(d) for d in shard_dirs))
    try:
        outputs.prune_students(Path(dest), [o.id for o in merged])
        log = state.StateFile(Path(dest))
        log.compact(merged)
        state.write_manifest(Path(dest), {
            "kind": "merge", "shard": [1, 1], "ids": [o.id for o in merged], "settings": settings.to_json(),
            "fingerprint": manifests[0][1].get("fingerprint"), "sources": sources,
            "complete": not problems,
        })
        finish(Path(dest), merged, settings, formats, notes=problems)
    finally:
        lock.close()
    return merged
