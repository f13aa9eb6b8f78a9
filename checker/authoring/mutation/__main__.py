"""`python3 -m checker.authoring.mutation PUZZLE...`."""

from checker.authoring.mutation._main import main

if __name__ == "__main__":  # imported alone (a walk over the package's modules), it does nothing
    raise SystemExit(main())
