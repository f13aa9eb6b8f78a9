"""A page in a real browser: Debian's headless Chromium lays out an HTML fragment, reports where
its pictures' parts landed, and takes a screenshot, so a test can look at what a learner sees."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
WINDOW = (1600, 1400)
# Runs in the page once it has loaded: where the first picture's panel titles and grids are.
_MEASURE = """
<script>
const picture = document.querySelector('svg');
const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const panels = [...picture.querySelectorAll(':scope > g')];
document.body.setAttribute('data-geometry', JSON.stringify({
  titles: panels.map((g) => box(g.querySelector('text.panel'))),
  grids: panels.map((g) => box([...g.querySelectorAll('rect')].find((r) => r.getAttribute('fill') === '#ffffff'))),
}));
</script>
"""


@dataclass(frozen=True)
class Page:
    """A fragment as the browser drew it: where its first picture's parts are, and the pixels."""

    geometry: dict[str, Any]
    screenshot: Path


def browser() -> str | None:
    """The browser's command, or None when none is installed."""
    return next((found for name in CHROMIUM if (found := shutil.which(name))), None)


def open_page(fragment: str, folder: Path) -> Page:
    """Lay `fragment` out on a white page (body margin 0) and take a screenshot of it."""
    command = browser()
    assert command is not None, "no Chromium: apt-get install chromium"
    page = folder / "page.html"
    page.write_text(f'<!doctype html><html><body style="margin:0;background:#fff">{fragment}{_MEASURE}</body></html>')
    flags = [
        command,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
    ]
    dom = subprocess.run(
        [*flags, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    start = dom.index("data-geometry=\"") + len("data-geometry=\"")
    geometry = json.loads(dom[start:dom.index('"', start)].replace("&quot;", '"'))
    shot = folder / "page.png"
    subprocess.run([*flags, f"--screenshot={shot}", page.as_uri()], capture_output=True, timeout=120, check=True)
    return Page(geometry, shot)
