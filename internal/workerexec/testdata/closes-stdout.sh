# A worker that closes its stdout at the first request and keeps running.
printf 'flybench-worker 1\ncase sum\nready\n'
read -r req
exec >&-
exec sleep 30
