#!/usr/bin/env bash
# flybench-gate.sh BASE_COMMAND HEAD_COMMAND
#
# The CI recipe's one step: under the host claim and a quiescence gate,
# compare the base revision's benchmark command with the head revision's
# in adjacent order-balanced pairs until the interval decides (or the
# time budget ends), analyse, write the report and the gate's table as
# Markdown to the job summary, and exit with fb-check's status:
#   0 no regression · 12 a metric regressed · 13 cannot judge (advisory).
# Any other status is an error of the pipeline itself.
#
# Settings (environment):
#   FB_NOISE         noise profile from fb-noise (committed; optional)
#   FB_BASELINE      archived baseline stream to compare with as well (optional)
#   FB_ALLOW         fingerprint fields allowed to differ from the baseline
#                    (default tag.revision: the revision differs by design)
#   FB_MAX_TIME      fb-pair --max-time (default 60s)
#   FB_PAIR_FLAGS    more fb-pair flags (e.g. "--metrics resources")
#   FB_LOCK_FLAGS    fb-lock flags (e.g. "--timeout 10m", "--path DIR")
#   FB_GATE_FLAGS    fb-gate limits (default: --max-average 25 --stable 3s --timeout 120s)
#   FB_CHECK_FLAGS   more fb-check flags (e.g. "--max-slowdown 3")
#   FB_OUT           where the analysed stream goes (default flybench.ndjson; keep it
#                    as an artifact, or as the next baseline)
#   FB_REVISION      recorded as --tag revision= (default: git rev-parse HEAD, if any)
#   FB_HISTORY       a results store (optional): a SQLite file cached between jobs, or a
#                    postgres:// URL from a secret. fb-check --history judges each case
#                    against its last runs there too (same machine class; at least 5, or
#                    that item cannot judge), then fb-history add records this run. A
#                    SQLite file that does not exist yet is started by this run, unjudged.
#   FB_HISTORY_ADD   0: judge against FB_HISTORY but add nothing (e.g. on pull requests,
#                    so only the main branch's runs make the history; default 1)
#   FB_HISTORY_BLOCK 1: a case that fails against its history fails the step too. By
#                    default the history's judgement is advisory (its own table in the
#                    summary): a level judged against other runs moves with the
#                    machine's speed, and on a VM whose level moved ±10% between runs it
#                    failed unchanged cases in 2-4 of 15 runs (README, History)
#   GITHUB_STEP_SUMMARY  the Markdown goes there when set, else to stdout
set -euo pipefail

if [ $# -ne 2 ]; then
	echo "usage: flybench-gate.sh BASE_COMMAND HEAD_COMMAND" >&2
	exit 2
fi
base=$1 head=$2
out=${FB_OUT:-flybench.ndjson}
summary=${GITHUB_STEP_SUMMARY:-/dev/stdout}
revision=${FB_REVISION:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
read -r -a pair_flags <<<"${FB_PAIR_FLAGS:-}"
read -r -a lock_flags <<<"${FB_LOCK_FLAGS:-}"
read -r -a gate_flags <<<"${FB_GATE_FLAGS:---max-average 25 --stable 3s --timeout 120s}"
read -r -a check_flags <<<"${FB_CHECK_FLAGS:-}"
analyze_flags=()
if [ -n "${FB_BASELINE:-}" ]; then
	analyze_flags=(--baseline "$FB_BASELINE" --allow-mismatch "${FB_ALLOW:-tag.revision}")
fi
if [ -n "${FB_NOISE:-}" ]; then
	check_flags+=(--noise "$FB_NOISE")
fi
history=${FB_HISTORY:-}
history_flags=()
if [ -n "$history" ]; then
	case $history in
	postgres://* | postgresql://*) history_flags=(--history "$history") ;;
	*)
		if [ -e "${history#sqlite:}" ]; then
			history_flags=(--history "$history")
		else
			echo "flybench: no history yet in $history: this run starts it" >&2
		fi
		;;
	esac
fi

# Measure: claim the host, wait for it to be quiet, then the paired run.
fb-lock "${lock_flags[@]}" fb-gate "${gate_flags[@]}" --progress plain \
	fb-pair --progress plain --name base --name head --tag "revision=$revision" \
	--until decision --max-time "${FB_MAX_TIME:-60s}" "${pair_flags[@]}" -- "$base" "$head" \
	| fb-analyze "${analyze_flags[@]}" > "$out"

# Report, then judge: the gate's status is the step's.
fb-report --format markdown "$out" >> "$summary"
status=0
if [ ${#history_flags[@]} -gt 0 ] && [ "${FB_HISTORY_BLOCK:-0}" != 1 ]; then
	fb-check "${check_flags[@]}" --format markdown "$out" >> "$summary" || status=$?
	printf '\n#### Against the history (advisory; FB_HISTORY_BLOCK=1 makes it block)\n\n' >> "$summary"
	hstatus=0
	fb-check "${check_flags[@]}" "${history_flags[@]}" --format markdown "$out" >> "$summary" || hstatus=$?
	case $hstatus in
	0 | 12 | 13) [ "$hstatus" -ne 12 ] || echo "flybench: a case failed against its history (advisory)" >&2 ;;
	*) status=$hstatus ;; # a store that cannot be read is still an error
	esac
else
	fb-check "${check_flags[@]}" "${history_flags[@]}" --format markdown "$out" >> "$summary" || status=$?
fi
# Record the run in the history after judging it (fb-check adds nothing).
if [ -n "$history" ] && [ "${FB_HISTORY_ADD:-1}" != 0 ] && { [ "$status" -eq 0 ] || [ "$status" -eq 12 ] || [ "$status" -eq 13 ]; }; then
	fb-history add --db "$history" "$out" >&2
fi
case $status in
0) echo "flybench: no regression" >&2 ;;
12) echo "flybench: regression (see the job summary)" >&2 ;;
13) echo "flybench: cannot judge on this machine; the table is advisory (see the job summary)" >&2 ;;
*) echo "flybench: fb-check failed with status $status" >&2 ;;
esac
exit "$status"
