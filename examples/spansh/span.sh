#!/bin/sh
# span.sh: a shell script that reports spans to fb-record over the span
# protocol (man fb-span(7)) through a FIFO, which needs nothing beyond
# POSIX sh. Run it under fb-record, which makes the FIFO and names it in
# FLYBENCH_RECORD_FIFO:
#
#	fb-record --fifo /tmp/spans.fifo -- sh span.sh 20 | fb-analyze | fb-report
#
# Each span is a "begin ID NAME" line before the work and an "end ID
# OUTCOME" line after it: fb-record times the span by its own clock when
# each line arrives, so a few microseconds of pipe latency are in the
# value (fine for work of milliseconds; a program that times itself
# writes "span NAME WALL_NS OUTCOME" lines instead). Every writer of a
# FIFO shares one stream: ids carry the shell's pid ($$) so that several
# scripts can write at once, and each printf writes one whole line
# (far below PIPE_BUF, so lines never interleave).
n=${1:-10}
fifo=${FLYBENCH_RECORD_FIFO:?run me under fb-record --fifo PATH}
case "$n" in '' | *[!0-9]*) echo "span.sh: the count must be a whole number" >&2; exit 2 ;; esac
exec 3>"$fifo"
printf 'flybench-span 1\n' >&3
i=0
while [ "$i" -lt "$n" ]; do
	printf 'begin %s-%s list-etc\n' "$$" "$i" >&3
	ls /etc >/dev/null
	printf 'end %s-%s success\n' "$$" "$i" >&3

	printf 'begin %s-%s grep-missing\n' "$$" "$i" >&3
	if grep -q no-such-text-here /etc/hostname 2>/dev/null; then
		outcome=success
	else
		outcome=failure
	fi
	printf 'end %s-%s %s\n' "$$" "$i" "$outcome" >&3
	i=$((i + 1))
done
exec 3>&-
