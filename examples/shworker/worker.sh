#!/bin/sh
# worker.sh: a flybench worker (man fb-worker(7)) in POSIX shell, to show
# the protocol needs nothing but lines on stdin and stdout. Its one case,
# colon, runs the shell's null command n times. It times itself with
# GNU date +%s%N, which reads the real-time clock (NTP may step it) in a
# process of its own, so each elapsed_ns also includes about one process
# exit and one start (a millisecond or so): fine for operations of
# microseconds and more, not for nanoseconds.
#
#	printf 'run colon 1000\nquit\n' | sh worker.sh
printf 'flybench-worker 1\ncase colon\ntimer source=date(CLOCK_REALTIME) resolution_ns=1\nready\n'
while read -r word name n rest; do
	case "$word $name $n $rest" in
	"quit   ") exit 0 ;;
	"run colon "[1-9]*" ") ;;
	"run "*" "[1-9]*" ") echo "error $name unknown case"; continue ;;
	*) echo "worker.sh: bad request: $word $name $n $rest" >&2; exit 2 ;;
	esac
	case "$n" in *[!0-9]*) echo "worker.sh: bad request: run $name $n" >&2; exit 2 ;; esac
	t0=$(date +%s%N)
	i=0
	while [ "$i" -lt "$n" ]; do
		:
		i=$((i + 1))
	done
	t1=$(date +%s%N)
	echo "done colon $n elapsed_ns=$((t1 - t0))"
done
