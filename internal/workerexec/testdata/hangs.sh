# A worker that never answers: it waits for a child of its own, whose pid
# it writes to $PIDFILE when that is set.
printf 'flybench-worker 1\ncase sum\nready\n'
read -r req
sleep 30 &
if [ -n "$PIDFILE" ]; then echo $! >"$PIDFILE"; fi
wait
