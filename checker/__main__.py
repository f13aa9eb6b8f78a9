"""`python -m checker` is the `jacpuzzles` command."""

from checker.cli._cli import entry

if __name__ == "__main__":
    entry()
