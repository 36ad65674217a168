#!/usr/bin/env bash
# bisect-step.sh --good DIR --build COMMAND [--] BENCHMARK
#
# One step of `git bisect run`: build the revision git checked out, compare
# it with the known-good build in paired runs until the interval decides,
# and turn fb-check's verdict into bisect's answer, so a change point
# between two revisions (fb-history show) narrows to one commit:
#
#   git bisect start BAD GOOD
#   git bisect run examples/bisect/bisect-step.sh \
#       --good /tmp/good --build 'go build -o {out}/prog ./cmd/prog' -- '{bin}/prog --x'
#   git bisect reset
#
# --good DIR       the known-good revision's build (made once, e.g. from a
#                  git worktree of GOOD with the same build command)
# --build COMMAND  builds the checked-out revision; {out} is a fresh
#                  directory for its output
# BENCHMARK        the command to time; {bin} is the build's directory
#                  (DIR for the good side, {out} for the checked-out one)
#
# Answers: 0 good (no regression), 1 bad (fb-check: regressed, exit 12),
# 125 skip (the revision does not build, or fb-check cannot judge: exit 13),
# 255 stop the bisection (the measurement itself failed).
#
# Settings (environment):
#   FB_MAX_TIME     fb-pair --max-time of each step (default 60s)
#   FB_PAIR_FLAGS   more fb-pair flags (e.g. "--timer cpu", "--gotest")
#   FB_CHECK_FLAGS  more fb-check flags; set --max-slowdown below the size
#                   of the change you are looking for (default 5%): an
#                   undecided comparison passes as good
#   FB_KEEP         directory to keep each step's analysed stream in,
#                   named by the revision (optional)
set -uo pipefail

usage() {
	echo "usage: bisect-step.sh --good DIR --build COMMAND [--] BENCHMARK" >&2
	exit 255
}
good= build=
while [ $# -gt 0 ]; do
	case $1 in
	--good) good=${2:-}; shift 2 || usage ;;
	--build) build=${2:-}; shift 2 || usage ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] && [ -n "$good" ] && [ -n "$build" ] || usage
bench=$1
if [ ! -d "$good" ]; then
	echo "bisect-step: --good $good is not a directory: build the good revision there first" >&2
	exit 255
fi
rev=$(git rev-parse --short HEAD) || exit 255
out=$(mktemp -d "${TMPDIR:-/tmp}/bisect-step.XXXXXX") || exit 255
trap 'rm -rf "$out"' EXIT

if ! (eval "${build//\{out\}/$out}") >&2; then
	echo "bisect-step: $rev does not build: skipped" >&2
	exit 125
fi

read -r -a pair_flags <<<"${FB_PAIR_FLAGS:-}"
read -r -a check_flags <<<"${FB_CHECK_FLAGS:-}"
stream=$out/analysed.ndjson
fb-pair --progress none --name good --name "$rev" --tag "revision=$rev" \
	--until decision --max-time "${FB_MAX_TIME:-60s}" "${pair_flags[@]}" \
	-- "${bench//\{bin\}/$good}" "${bench//\{bin\}/$out}" | fb-analyze > "$stream"
codes=("${PIPESTATUS[@]}")
if [ "${codes[0]}" -ne 0 ] || [ "${codes[1]}" -ne 0 ]; then
	echo "bisect-step: $rev: the measurement failed (fb-pair ${codes[0]}, fb-analyze ${codes[1]}): stopping" >&2
	exit 255
fi
if [ -n "${FB_KEEP:-}" ]; then
	mkdir -p "$FB_KEEP" && cp "$stream" "$FB_KEEP/$rev.ndjson"
fi
fb-check "${check_flags[@]}" "$stream" >&2
status=$?
case $status in
0) echo "bisect-step: $rev is good (no regression against --good)" >&2; exit 0 ;;
12) echo "bisect-step: $rev is bad (regressed against --good)" >&2; exit 1 ;;
13) echo "bisect-step: $rev cannot be judged: skipped" >&2; exit 125 ;;
*) echo "bisect-step: $rev: fb-check failed with status $status: stopping" >&2; exit 255 ;;
esac
