#!/usr/bin/env bash
# Gradescope autograder setup (docs/autograding.md): runs once, when Gradescope builds the image.
# Zip this file with run_autograder (the files, not their folder) and upload the zip.
set -euo pipefail

# Pin the kit: a commit, or a tag of your course's fork.
JACPUZZLES_REF="JACPUZZLES_REF"

apt-get update
apt-get install -y --no-install-recommends python3 python3-pip python3-venv git
python3 -m venv /opt/jacpuzzles
/opt/jacpuzzles/bin/python -m pip install --upgrade pip
/opt/jacpuzzles/bin/python -m pip install "jacpuzzles @ git+https://github.com/YOUR-ORG/jacpuzzles@${JACPUZZLES_REF}"
