"""Print the README's set-up and test commands, one a line, as CI must run them.

They are the fenced `sh` blocks at the top of the section "Set up and run, then test" (before
its first sub-heading), in order. Each block must hold one command line: that is the promise.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

SECTION = "## Set up and run, then test"


def commands(readme: str) -> list[str]:
    """The one-line commands of the `sh` blocks in the set-up section of `readme`."""
    start = readme.index(SECTION) + len(SECTION)
    ends = [i for i in (readme.find("\n## ", start), readme.find("\n### ", start)) if i >= 0]
    section = readme[start:min(ends, default=len(readme))]
    found = []
    for block in re.findall(r"```sh\n(.*?)```", section, flags=re.S):
        lines = [line for line in block.strip().splitlines() if line.strip()]
        if len(lines) != 1:
            raise SystemExit(f"a set-up block must hold one command line, found {len(lines)}: {block!r}")
        found.append(lines[0])
    return found


if __name__ == "__main__":
    print("\n".join(commands(Path(sys.argv[1]).read_text())))
