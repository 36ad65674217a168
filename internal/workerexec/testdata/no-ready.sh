# A worker that never finishes its handshake.
printf 'flybench-worker 1\ncase sum\n'
exec sleep 30
