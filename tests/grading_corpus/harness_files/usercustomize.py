raise SystemExit("a usercustomize.py in a submission must never run")
