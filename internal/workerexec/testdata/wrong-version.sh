# A worker speaking a protocol version this harness does not.
printf 'flybench-worker 2\ncase sum\nready\n'
exec cat >/dev/null
