#!/usr/bin/env bash
# The kit on dependency versions other than the newest, tested: a fresh virtualenv with
#   floors: every dependency of pyproject.toml pinned to the lowest version it declares (`>=X`
#           becomes `==X`, read from pyproject.toml so the two cannot drift apart);
#   colab:  the versions Google Colab's image preinstalls (Python 3.12, jax 0.7.2, numpy 2.1.3;
#           jaxtyping, beartype and watchfiles are not preinstalled there, so pip resolves them);
# the kit installed into it, then
#   - the catalog's solutions checked (every puzzle, exit 0), and
#   - an answer that calls jax.jacfwd refused (exit 1, the autodiff guard names it), and
#   - list, show, hint and solution run.
# Usage: .ci/versions.sh floors|colab [PYTHON]   (default python3; about 2 minutes each with a warm pip cache)
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:?usage: .ci/versions.sh floors|colab [PYTHON]}"
python="${2:-python3}"
COLAB=("jax==0.7.2" "jaxlib==0.7.2" "numpy==2.1.3")  # jax[cpu] is jax and jaxlib: no extras in a constraints file

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$python" -m venv "$work/venv"
# A copy of the tree to build and check: building writes build/ and *.egg-info, and check
# writes its progress file into the folder it checks; neither belongs in the checkout.
"$python" -c 'import shutil, sys; shutil.copytree(".", sys.argv[1], ignore=shutil.ignore_patterns(".git", "build", "*.egg-info", ".mypy_cache", "__pycache__", ".jacpuzzles*"))' "$work/src"
venv_python="$work/venv/bin/python"
export JACPUZZLES_CACHE="$work/cache"

if [ "$mode" = floors ]; then
  # `name[extras]>=X` -> `name[extras]==X`, markers kept; a dependency without a floor fails here.
  "$venv_python" - pyproject.toml >"$work/pins.txt" <<'PY'
import re, sys, tomllib
with open(sys.argv[1], "rb") as file:
    dependencies = tomllib.load(file)["project"]["dependencies"]
for dependency in dependencies:
    requirement, _, marker = dependency.partition(";")
    match = re.fullmatch(r"\s*([A-Za-z0-9_.\-\[\]]+)\s*>=\s*([0-9][0-9A-Za-z.]*)\s*", requirement)
    if match is None:
        sys.exit(f"pyproject.toml: {dependency!r} has no `>=` floor to pin")
    print(f"{match[1]}=={match[2]}" + (f"; {marker.strip()}" if marker else ""))
PY
elif [ "$mode" = colab ]; then
  printf '%s\n' "${COLAB[@]}" >"$work/pins.txt"
else
  echo "usage: .ci/versions.sh floors|colab [PYTHON]" >&2
  exit 2
fi
echo "== $mode on $("$venv_python" --version): $(tr '\n' ' ' <"$work/pins.txt")"
start=$SECONDS
"$venv_python" -m pip install --disable-pip-version-check -q -r "$work/pins.txt"
if [ "$mode" = floors ]; then
  # --no-deps: the floors above are what the kit runs on, not what pip would resolve to.
  "$venv_python" -m pip install --disable-pip-version-check -q --no-deps "$work/src"
else
  # The rest resolved as a learner's `%pip install` would, beside the preinstalled pins.
  "$venv_python" -m pip install --disable-pip-version-check -q "$work/src" -c "$work/pins.txt"
fi
echo "== installed in $((SECONDS - start)) s: $("$venv_python" -m pip freeze | grep -iE '^(jax|jaxlib|numpy|beartype|jaxtyping|rich|watchfiles)==' | tr '\n' ' ')"

cd "$work"
start=$SECONDS
echo "== the catalog's solutions"
"$venv_python" -m checker check --dir "$work/src/solutions" >"$work/solutions.out" 2>&1 \
  || { cat "$work/solutions.out"; echo "$mode: the catalog's solutions fail" >&2; exit 1; }
tail -n 3 "$work/solutions.out"

echo "== an answer that calls jax.jacfwd"
mkdir -p "$work/autodiff"
sed -n '1,/^# ---- your answer/p' "$work/src/solutions/autodiff/cos.py" >"$work/autodiff/cos.py"
cat >>"$work/autodiff/cos.py" <<'PY'
def jac(x):
    return jax.jacfwd(cos)(x)
PY
status=0
"$venv_python" -m checker check --dir "$work/autodiff" cos >"$work/autodiff.out" 2>&1 || status=$?
if [ "$status" -ne 1 ] || ! grep -qi "jacfwd\|autodiff\|automatic differentiation" "$work/autodiff.out"; then
  cat "$work/autodiff.out"
  echo "$mode: an answer calling jax.jacfwd was not refused (exit $status)" >&2
  exit 1
fi
grep -i -m 2 "jacfwd\|autodiff" "$work/autodiff.out"

echo "== the learner's other commands (rich at its floor draws them)"
for command in "list" "show conv2d" "hint cumsum" "solution softmax --force"; do
  # shellcheck disable=SC2086
  COLUMNS=80 "$venv_python" -m checker $command --dir "$work/src/solutions" >"$work/command.out" 2>&1 \
    || { cat "$work/command.out"; echo "$mode: \`jacpuzzles $command\` fails" >&2; exit 1; }
done
echo "== $mode holds ($((SECONDS - start)) s of checks)"
