# A worker that dies in the middle of its first request.
printf 'flybench-worker 1\ncase sum\nready\n'
read -r req
echo "starting $req" >&2
echo "dying: out of cheese" >&2
exit 3
