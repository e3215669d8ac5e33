"""Find the submissions of a class, hash their content, and unpack archives safely.

A class folder holds one entry per student, named by student id: a folder, a
``.py`` file, an ``.ipynb`` notebook or a ``.zip`` archive (``alice/``,
``bob.ipynb``, ``carol.zip``). Discovery never drops an entry: anything that is
not a submission still becomes a :class:`Entry` (kind ``other``), and two
entries claiming one id become one entry of kind ``duplicate``, so each gets a
row saying so. Only hidden names (``.DS_Store``) and ``__MACOSX`` are ignored.

Nothing here follows a link or opens a special file (see :mod:`grader.untrusted`):
an entry that is a link is of kind ``other``; hashing reads regular files only,
each up to a cap, and hashes a link's text instead of its target; a folder
holding a link or special file is refused (:func:`find_code`).

Archives are unpacked by hand, member by member, never with ``extractall``:
absolute paths, ``..`` components, links and devices are refused, and so is an
archive whose content exceeds a size or member-count cap (counted while
decompressing, not read from the headers it declares).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from grader import untrusted
from grader.config import MAX_ARCHIVE_MB
from grader.exercises import MODULES
from grader.submission import JUNK_DIRS

KINDS = {".py": "py", ".ipynb": "ipynb", ".zip": "zip"}
IGNORED = ("__MACOSX",)
#: Bytes of one entry that go into its content hash; beyond them each file's size stands for its bytes.
MAX_HASHED_BYTES = 256 << 20
MAX_ARCHIVE_BYTES = int(MAX_ARCHIVE_MB * 2**20)
"""Default cap on what one archive may unpack to."""
MAX_ARCHIVE_MEMBERS = 2000
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._@+-]")
_EXERCISE_FILES = {f"{name}.py" for name in MODULES.values()}


class InvalidSubmission(ValueError):
    """This entry cannot be graded; the message says why, in words meant for the instructor."""


@dataclass(frozen=True)
class Entry:
    """One student's input, as found in the class folder."""

    id: str
    """The student id: the entry's name without its ``.py``/``.ipynb``/``.zip`` suffix."""
    paths: tuple[Path, ...]
    """The input (one path; several for a duplicate id)."""
    kind: str
    """``folder``, ``py``, ``ipynb``, ``zip``, ``other`` (not a submission) or ``duplicate``."""

    @property
    def path(self) -> Path:
        return self.paths[0]

    def describe(self) -> str:
        return ", ".join(_describe(p) for p in self.paths)

    @classmethod
    def of(cls, path: Path) -> Entry:
        """One submission on its own (``--watch``'s), named by its file or folder name."""
        return cls(path.name, (path,), kind_of(path))


def _describe(path: Path) -> str:
    """The entry's name for messages, escaped onto one line, and what it is when it cannot be graded."""
    kind, name = untrusted.lstat_kind(path), untrusted.shown(path.name)
    if kind == "dir":
        return name + "/"
    if kind in ("link", "special"):
        return f"{name} ({untrusted.describe_mode(os.lstat(path).st_mode)}, not graded)"
    return name


def shown(name: str) -> str:
    """A file name as text that can be written anywhere (undecodable bytes replaced)."""
    return os.fsencode(name).decode("utf-8", "replace")


def kind_of(path: Path) -> str:
    """The entry's kind from what it is itself: a link or special file is ``other``, whatever it points to."""
    kind = untrusted.lstat_kind(path)
    if kind == "dir":
        return "folder"
    return KINDS.get(path.suffix.lower(), "other") if kind == "file" else "other"


def student_id(path: Path) -> str:
    """``alice`` for ``alice/``, ``alice.zip``, ``alice.py`` or ``alice.ipynb``; other names stay whole.

    A name that is not valid UTF-8 is shown with replacement characters (the
    entry keeps its real path).
    """
    name = shown(path.name)
    if untrusted.lstat_kind(path) == "dir" or path.suffix.lower() not in KINDS:
        return name
    return name[: -len(path.suffix)] or name


def discover(folder: Path, exclude: tuple[Path, ...] = ()) -> list[Entry]:
    """Every student entry of ``folder``, sorted by id; ``exclude`` names paths to leave out (OUT_DIR)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InvalidSubmission(f"{folder} is not a folder; pass the folder that holds one entry per student")
    excluded = {p.resolve() for p in exclude}
    claims: dict[str, list[Path]] = {}
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or path.name in IGNORED or Path(os.path.realpath(path)) in excluded:
            continue
        claims.setdefault(student_id(path), []).append(path)
    entries = []
    for sid, paths in sorted(claims.items()):
        kind = "duplicate" if len(paths) > 1 else kind_of(paths[0])
        entries.append(Entry(sid, tuple(paths), kind))
    return entries


def safe_name(sid: str) -> str:
    """A file name for ``sid`` that cannot leave its folder; a changed name gets a short hash to stay unique."""
    name = _SAFE_NAME.sub("_", sid).lstrip(".") or "_"
    if name != sid:
        name = f"{name[:80]}-{hashlib.sha256(sid.encode('utf-8', 'surrogateescape')).hexdigest()[:8]}"
    return name


def shard_of(sid: str, count: int) -> int:
    """The shard (0-based) of a student: stable whatever else is in the class folder."""
    digest = hashlib.sha256(sid.encode("utf-8", "surrogateescape")).digest()
    return int.from_bytes(digest[:8], "big") % count


def content_digest(entry: Entry) -> str:
    """A hash of everything in the entry that grading could read (file names and bytes).

    Bounded by construction: links are hashed by their text (never followed),
    special files by their kind (never opened), a folder is listed up to
    :data:`untrusted.MAX_ENTRIES` entries, and at most :data:`MAX_HASHED_BYTES`
    of content are read per entry (past it, a file's size stands for its bytes).
    """
    digest = hashlib.sha256(entry.kind.encode())
    budget = [MAX_HASHED_BYTES]
    for path in entry.paths:
        digest.update(b"\0entry\0" + path.name.encode("utf-8", "surrogateescape"))
        kind = untrusted.lstat_kind(path)
        if kind == "dir":
            try:
                found = untrusted.walk(path, JUNK_DIRS)
            except (untrusted.UnsafeFile, OSError) as exc:
                digest.update(f"unwalkable:{exc}".encode("utf-8", "surrogateescape"))
                continue
            for item in found:
                digest.update(f"\0{item.kind}\0".encode() + item.path.as_posix().encode("utf-8", "surrogateescape"))
                _hash_entry(digest, path / item.path, item.kind, path, budget)
        else:
            _hash_entry(digest, path, kind, path.parent, budget)
    return digest.hexdigest()


def _hash_entry(digest: "hashlib._Hash", path: Path, kind: str, root: Path, budget: list[int]) -> None:
    if kind == "link":
        try:
            digest.update(b"link:" + os.fsencode(os.readlink(path)))
        except OSError as exc:
            digest.update(f"unreadable:{exc.errno}".encode())
    elif kind == "file":
        _hash_file(digest, path, root, budget)
    elif kind == "special":
        digest.update(b"special")


def _hash_file(digest: "hashlib._Hash", path: Path, root: Path, budget: list[int]) -> None:
    """Hash the file's bytes while ``budget[0]`` lasts (shared by the entry's files), then its size."""
    try:
        with untrusted.open_regular(path, root) as handle:
            while budget[0] > 0 and (chunk := handle.read(min(1 << 20, budget[0]))):
                digest.update(chunk)
                budget[0] -= len(chunk)
            digest.update(f"size:{os.fstat(handle.fileno()).st_size}".encode())
    except (OSError, untrusted.UnsafeFile) as exc:  # unreadable or swapped: hash the error, so it is graded again
        digest.update(f"unreadable:{getattr(exc, 'errno', None) or exc}".encode("utf-8", "surrogateescape"))


def unpack_zip(archive: Path, dest: Path, max_bytes: int = MAX_ARCHIVE_BYTES,
               max_members: int = MAX_ARCHIVE_MEMBERS) -> Path:
    """Unpack ``archive`` into ``dest`` (which must not exist), refusing anything unsafe.

    Raises :class:`InvalidSubmission` for a corrupt, encrypted or oversized
    archive, or one with a member that would land outside ``dest``; ``dest``
    is removed again in that case.
    """
    dest = Path(dest)
    dest.mkdir(parents=True)
    try:
        _unpack(archive, dest, max_bytes, max_members)
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise
    return dest


def _unpack(archive: Path, dest: Path, max_bytes: int, max_members: int) -> None:
    # The archive is opened as a regular file, never through a link; compressed, it is at most
    # about the size of what it unpacks to.
    try:
        with untrusted.open_regular(archive, limit=max_bytes + (1 << 20)) as handle:
            try:
                zf = zipfile.ZipFile(handle)
            except (zipfile.BadZipFile, OSError, ValueError) as exc:
                raise InvalidSubmission(f"{shown(archive.name)} is not a readable zip archive ({exc})") from exc
            _unpack_members(zf, archive, dest, max_bytes, max_members)
    except untrusted.UnsafeFile as exc:
        raise InvalidSubmission(str(exc)) from None


def _unpack_members(zf: zipfile.ZipFile, archive: Path, dest: Path, max_bytes: int, max_members: int) -> None:
    with zf:
        members = zf.infolist()
        if len(members) > max_members:
            raise InvalidSubmission(f"{archive.name} holds {len(members)} files, more than the {max_members} "
                                    "allowed; zip only the submission folder")
        planned = [(info, _member_parts(archive, info)) for info in members]  # refuse before writing anything
        written = 0
        for info, parts in planned:
            if parts is None:
                continue
            target = dest.joinpath(*parts)
            if info.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                with zf.open(info) as source, target.open("xb") as sink:
                    while chunk := source.read(1 << 16):
                        written += len(chunk)
                        if written > max_bytes:
                            raise InvalidSubmission(
                                f"{archive.name} unpacks to more than {max_bytes >> 20} MB (the cap); "
                                "zip only the submission files")
                        sink.write(chunk)
            except InvalidSubmission:
                raise
            except FileExistsError as exc:
                raise InvalidSubmission(f"{archive.name} holds {info.filename!r} twice") from exc
            except Exception as exc:  # noqa: BLE001 - BadZipFile, zlib.error, encryption, OSError...: a bad member
                raise InvalidSubmission(f"{archive.name}: cannot unpack {info.filename!r} "
                                        f"({type(exc).__name__}: {exc})") from exc


def _member_parts(archive: Path, info: zipfile.ZipInfo) -> tuple[str, ...] | None:
    """The member's path components, ``None`` to skip it; raise if it is unsafe."""
    name = info.filename
    if "\x00" in name:
        raise InvalidSubmission(f"{archive.name} holds a member whose name contains a NUL byte; not unpacked")
    kind = stat.S_IFMT(info.external_attr >> 16)
    if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
        raise InvalidSubmission(f"{archive.name} holds {name!r}, a link or special file; not unpacked "
                                "(zip the files themselves)")
    posix = PurePosixPath(name.replace("\\", "/"))
    parts = tuple(p for p in posix.parts if p not in ("", "."))
    if posix.is_absolute() or re.match(r"^[A-Za-z]:", name) or ".." in parts:
        raise InvalidSubmission(f"{archive.name} holds {name!r}, a path outside the archive's folder; "
                                "not unpacked")
    if not parts or parts[0] in IGNORED or any(p in JUNK_DIRS for p in parts):
        return None
    return parts


def find_code(root: Path) -> Path:
    """The path to grade inside an unpacked archive or a student folder.

    The folder itself when it holds exercise files; else its only sub-folder,
    recursively (archives often wrap everything in one folder); else its only
    notebook, or its only ``.py`` file.
    """
    root = Path(root)
    try:
        untrusted.refuse_unsafe(root, JUNK_DIRS, named=untrusted.shown(root.name))
    except untrusted.UnsafeFile as exc:
        raise InvalidSubmission(str(exc)) from None
    for _ in range(8):
        names = {p.name for p in root.iterdir()}
        if names & _EXERCISE_FILES:
            return root
        visible = [p for p in root.iterdir() if not p.name.startswith(".") and p.name not in JUNK_DIRS]
        if not visible:
            raise InvalidSubmission("the submission is empty")
        kinds = {p: untrusted.lstat_kind(p) for p in visible}
        folders = [p for p in visible if kinds[p] == "dir"]
        notebooks = [p for p in visible if kinds[p] == "file" and p.suffix.lower() == ".ipynb"]
        scripts = [p for p in visible if kinds[p] == "file" and p.suffix.lower() == ".py"]
        if len(notebooks) == 1:
            return notebooks[0]
        if not notebooks and len(scripts) == 1:
            return scripts[0]
        if len(folders) == 1 and not notebooks and not scripts:
            root = folders[0]
            continue
        found = ", ".join(sorted(untrusted.shown(p.name) + ("/" if kinds[p] == "dir" else "") for p in visible)[:8])
        raise InvalidSubmission(
            f"cannot tell which files to grade (found {found}); expected the exercise files "
            f"({', '.join(sorted(_EXERCISE_FILES))}), or a single .ipynb or .py file")
    raise InvalidSubmission("the submission is nested more than 8 folders deep")
