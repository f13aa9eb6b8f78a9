raise SystemExit("a sitecustomize.py in a submission must never run")
