"""The integrity report of a class graded with variants: `OUT/integrity.md` and `OUT/integrity.json`.

With variants on, each student's answer is graded on their own variant of each puzzle. The
grader also runs every answer that fails its own variant on the puzzle's other variants (the
canonical one too: the published puzzle, whose answers circulate) and keeps, per submission,
which variants it fits and a fingerprint of the wrong Jacobians it returned on each variant's
draws (`OUT/.evidence/<submission>.json`, written by `_grade`). This module reads those files and
lists, for an instructor to read:

- strong evidence: per pair of students, the puzzles where one's answer fits the other's
  variant and not its own (and per student, the puzzles where it fits the published puzzle);
- weak evidence: clusters of students whose wrong answers returned identical Jacobians on the
  same draws (a common mistake can do that too), and of students with the same variant who
  handed in the same answer file, whitespace aside (copying that variants cannot show: two
  students who share a variant; a short answer is often written alike too).

Nothing here grades or accuses: scores never depend on it, and its wording says what was seen.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from checker.grading._gradebook import md, write_atomic
from checker.grading._journal import Key, read_plain

FOLDER = ".evidence"  # in OUT: one file per submission, kept across runs like the journal
CAP = 1024 * 1024  # bytes of an answer file digested (the grader's own copy, capped already)

_PREAMBLE = (
    "Evidence for you to read, not a verdict: no score depends on it. Each student was graded on a variant of "
    "each puzzle drawn for their student id. An answer that fails its own variant but fits another one was most "
    "likely written for that other variant: shared by a classmate who has it, found online (the published puzzle), "
    "or solved from the wrong stub by mistake. Several students share each variant, so every one of them is listed "
    "as a possible source; an identical answer file says more. Talk with the students before drawing a conclusion."
)


def fingerprint(answers: Sequence[Sequence[Any]]) -> str:
    """A digest of the blocks an answer returned on every draw, rounded (8 decimals) so that the
    same formula computed in another order gives the same digest."""
    digest = hashlib.sha256()
    for blocks in answers:
        for block in blocks:
            array = np.asarray(block, dtype=np.float64)
            rounded = np.round(array, 8) + 0.0  # -0.0 and 0.0 alike
            digest.update(repr(array.shape).encode())
            digest.update(np.nan_to_num(rounded, nan=7e300, posinf=8e300, neginf=-8e300).tobytes())
    return digest.hexdigest()[:16]


def file_digest(path: Path) -> str:
    """A digest of an answer file with its whitespace left out ("" when it cannot be read)."""
    try:
        with open(path, "rb") as f:
            data = f.read(CAP)
    except OSError:
        return ""
    return hashlib.sha256(b"".join(data.split())).hexdigest()[:16]


def entry(name: str, key: str, student: str, slots: dict[str, str], labels: dict[str, str], statuses: dict[str, str],
          fits: dict[str, list[str]], wrong: dict[str, dict[str, str]], files: dict[str, str], flag: str = "") -> dict[str, Any]:
    """One submission's evidence: its student, per puzzle its own slot and variant (`labels`),
    its status, the slots its answer fits, its wrong Jacobians' fingerprints per slot, and its
    answer files' digests."""
    return {"submission": name, "key": key, "student": student, "slots": slots, "labels": labels, "statuses": statuses,
            "fits": fits, "wrong": wrong, "files": files, "flag": flag}


def store(out: Path, name: str, doc: dict[str, Any], signer: Key) -> None:
    """Write a submission's evidence into `OUT/.evidence/`, signed."""
    folder = out / FOLDER
    folder.mkdir(mode=0o700, exist_ok=True)
    write_atomic(folder / f"{name}.json", json.dumps(signer.sign(doc), indent=1, sort_keys=True) + "\n")


def _signed(out: Path, name: str, signer: Key) -> dict[str, Any] | None:
    """A submission's stored evidence when its signature checks, else None."""
    raw = read_plain(out / FOLDER / f"{name}.json")
    try:
        doc = json.loads(raw.decode("utf-8")) if raw is not None else None
    except ValueError:
        return None
    return doc if isinstance(doc, dict) and signer.verifies(doc) else None


def stored_key(out: Path, name: str, signer: Key) -> str:
    """The journal key a submission's stored (and signed) evidence was gathered under ("" when none)."""
    doc = _signed(out, name, signer)
    return str(doc.get("key", "")) if doc is not None else ""


def load(out: Path, names: Sequence[str], signer: Key) -> list[dict[str, Any]]:
    """The stored evidence of the submissions `names` (those without any, or whose signature
    does not check, are left out)."""
    found = []
    for name in names:
        doc = _signed(out, name, signer)
        if doc is not None:
            found.append({k: v for k, v in doc.items() if k != "mac"})
    return found


def report(entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Strong evidence (per pair: puzzles where one's answer fits the other's variant and not its
    own; per student: puzzles where it fits the published puzzle) and weak evidence (clusters of
    identical wrong Jacobians on the same draws), from the submissions' evidence."""
    by_slot: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for doc in entries:
        for puzzle, slot in doc["slots"].items():
            by_slot.setdefault((puzzle, slot), []).append(doc)
    pairs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    published: dict[str, list[dict[str, Any]]] = {}
    for doc in entries:
        for puzzle, slots in sorted(doc.get("fits", {}).items()):
            own = doc["slots"].get(puzzle)
            for slot in slots:
                if slot == own:
                    continue  # its own variant: it passed there on this run (it failed a draw only the graded run saw)
                if "@" not in slot:
                    published.setdefault(doc["submission"], []).append({"puzzle": puzzle, "own": doc["labels"].get(puzzle, "")})
                for other in by_slot.get((puzzle, slot), []):
                    if other["submission"] == doc["submission"]:
                        continue
                    same = bool(doc["files"].get(puzzle)) and doc["files"].get(puzzle) == other["files"].get(puzzle)
                    pairs.setdefault((doc["submission"], other["submission"]), []).append(
                        {"puzzle": puzzle, "own": doc["labels"].get(puzzle, ""), "fits": other["labels"].get(puzzle, ""), "same_file": same})
    clusters: dict[tuple[str, str, str], list[str]] = {}
    for doc in entries:
        for puzzle, prints in doc.get("wrong", {}).items():
            own = doc["slots"].get(puzzle)
            if own in prints:  # on its own variant's draws: classmates with that variant got the same wrong Jacobian
                clusters.setdefault((puzzle, own, prints[own]), []).append(doc["submission"])
    same_files: dict[tuple[str, str, str], list[str]] = {}
    for doc in entries:
        for puzzle, digest in doc.get("files", {}).items():
            own = doc["slots"].get(puzzle, "")
            if digest and "@" in own:  # a puzzle without variants: everyone's answer may match the published one
                same_files.setdefault((puzzle, own, digest), []).append(doc["submission"])
    students = {doc["submission"]: doc.get("student", "") for doc in entries}
    labels = {(p, s): docs[0]["labels"].get(p, "") for (p, s), docs in by_slot.items()}
    weak = [{"puzzle": p, "variant": labels.get((p, s), _slot_label(entries, p, s)), "submissions": sorted(set(names))}
            for (p, s, _), names in sorted(clusters.items()) if len(set(names)) > 1]
    strong = [{"submission": a, "student": students.get(a, ""), "other": b, "other_student": students.get(b, ""),
               "puzzles": sorted(found, key=lambda f: (not f["same_file"], f["puzzle"]))}
              for (a, b), found in sorted(pairs.items(), key=lambda kv: (-sum(f["same_file"] for f in kv[1]), -len(kv[1]), kv[0]))]
    return {
        "about": _PREAMBLE,
        "submissions": len(entries),
        "fits_another_variant": strong,
        "fits_published_puzzle": [{"submission": s, "student": students.get(s, ""), "puzzles": found} for s, found in sorted(published.items())],
        "identical_wrong_jacobians": weak,
        "identical_answer_files": [{"puzzle": p, "variant": labels.get((p, s), ""), "submissions": sorted(set(names))}
                                   for (p, s, _), names in sorted(same_files.items()) if len(set(names)) > 1],
        "workspace_records": [{"submission": d["submission"], "student": d.get("student", ""), "flag": d["flag"]} for d in entries if d.get("flag")],
    }


def _slot_label(entries: Sequence[dict[str, Any]], puzzle: str, slot: str) -> str:
    """A slot's variant in words, for a variant no student in the class has."""
    from checker.engine import _variants

    name, _, k = slot.partition("@")
    return _variants.label(_variants.variant(name, _variants.choices(name)[int(k)])) if k else "canonical"


def markdown(found: dict[str, Any]) -> str:
    """The report for people."""
    lines = ["# jacpuzzles grade: integrity report", "", found["about"], ""]
    lines += [f"{found['submissions']} submissions with evidence gathered.", "", "## An answer fits a classmate's variant, not its own (strong evidence)", ""]
    if not found["fits_another_variant"]:
        lines.append("None seen.")
    for pair in found["fits_another_variant"]:
        lines.append(f"- {md(pair['submission'])} ({md(pair['student'])}) and {md(pair['other'])} ({md(pair['other_student'])}): "
                     f"{len(pair['puzzles'])} puzzle(s) where {md(pair['submission'])}'s answer fits {md(pair['other'])}'s variant and not its own")
        for f in pair["puzzles"]:
            same = "; the two answer files are identical (whitespace aside)" if f["same_file"] else ""
            lines.append(f"  - {f['puzzle']}: own variant {f['own']}; fits {f['fits']}{same}")
    lines += ["", "## An answer fits the published puzzle, not its own variant (strong evidence)", ""]
    if not found["fits_published_puzzle"]:
        lines.append("None seen.")
    for item in found["fits_published_puzzle"]:
        puzzles = ", ".join(f"{f['puzzle']} (own variant {f['own']})" for f in item["puzzles"])
        lines.append(f"- {md(item['submission'])} ({md(item['student'])}): {puzzles}")
    lines += ["", "## Identical wrong Jacobians on the same draws (weak evidence: a common mistake gives them too)", ""]
    if not found["identical_wrong_jacobians"]:
        lines.append("None seen.")
    for cluster in found["identical_wrong_jacobians"]:
        lines.append(f"- {cluster['puzzle']} (variant {cluster['variant']}): {', '.join(md(n) for n in cluster['submissions'])}")
    lines += ["", "## Identical answer files for the same variant, whitespace aside (weak evidence: a short answer is often written alike)", ""]
    if not found["identical_answer_files"]:
        lines.append("None seen.")
    for cluster in found["identical_answer_files"]:
        lines.append(f"- {cluster['puzzle']} (variant {cluster['variant']}): {', '.join(md(n) for n in cluster['submissions'])}")
    if found["workspace_records"]:
        lines += ["", "## Workspace records that do not match the submission", ""]
        lines += [f"- {md(r['submission'])} ({md(r['student'])}): {md(r['flag'])}" for r in found["workspace_records"]]
    return "\n".join(lines) + "\n"


def write(out: Path, names: Sequence[str], signer: Key) -> dict[str, Any]:
    """Write `OUT/integrity.md` and `OUT/integrity.json` from the signed evidence of `names`; returns the report."""
    found = report(load(out, names, signer))
    write_atomic(out / "integrity.json", json.dumps(found, indent=2) + "\n")
    write_atomic(out / "integrity.md", markdown(found))
    return found
