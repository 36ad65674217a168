# A worker that answers its first request with the line in $1, where %s
# stands for the request's n, then waits for more input. It declares an
# axis, items, so that axis values can be tested.
printf 'flybench-worker 1\ncase sum\ncase prod\naxis items unit=items/op\nready\n'
read -r word name n
printf "$1\n" "$n"
exec cat >/dev/null
