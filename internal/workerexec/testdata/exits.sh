# A worker that exits before its handshake is complete.
printf 'flybench-worker 1\ncase sum\n'
echo "not today" >&2
exit 1
