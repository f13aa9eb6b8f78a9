"""Code as a learner copies it: highlighted, every line whole.

A terminal narrower than a line folds it on screen, but the text stays one line, so what is
copied and pasted is the code as written; rich's `Syntax` would instead break the line in two
(`word_wrap=True`, which turns the tail of a comment into code) or cut it off. Print it with
`console.print(CodeLines(...), crop=False)`: `print` crops every line to the width otherwise.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment


class CodeLines:
    """Python `code`, highlighted, each line indented by `indent` spaces and never wrapped."""

    def __init__(self, code: str, indent: int = 0, theme: str = "ansi_dark") -> None:
        self.code = code
        self.indent = indent
        self.theme = theme

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.syntax import Syntax  # pygments: loaded when code is shown, not for every verdict

        highlighted = Syntax(self.code, "python", theme=self.theme).highlight(self.code)
        highlighted.rstrip()
        # Segments, not Text: a Text yielded here would be wrapped to the width again.
        for line in highlighted.split("\n", allow_blank=True):
            if self.indent and line.plain:
                yield Segment(" " * self.indent)
            yield from line.render(console, end="")
            yield Segment.line()
