"""`python3 -m checker.authoring.mutation PUZZLE...`."""

from checker.authoring.mutation._main import main

raise SystemExit(main())
