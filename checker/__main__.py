"""`python -m checker` is the `jacpuzzles` command."""

from checker._cli import entry

if __name__ == "__main__":
    entry()
