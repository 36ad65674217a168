# A worker that answers requests but mishandles quit: with $1 "ignore" it
# keeps running after quit, with "status" it exits with status 4.
printf 'flybench-worker 1\ncase sum\nready\n'
while read -r word name n; do
	if [ "$word" = quit ]; then break; fi
	echo "done $name $n"
done
if [ "$1" = status ]; then echo "quitting badly" >&2; exit 4; fi
exec sleep 30
