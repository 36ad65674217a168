package simcount

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// refsLine is cachegrind's total instruction count in its summary:
// "==4174== I   refs:      9,375,766".
var refsLine = regexp.MustCompile(`^==\d+==\s+I\s+refs:\s+([0-9,]+)\s*$`)

// ParseLog reads one process's valgrind log and returns its instruction
// count. A log without the summary (the process was killed, or valgrind
// could not start it) is an error quoting the log's first message.
func ParseLog(r io.Reader) (int64, error) {
	sc := bufio.NewScanner(r)
	first := ""
	for sc.Scan() {
		line := sc.Text()
		if m := refsLine.FindStringSubmatch(line); m != nil {
			n, err := strconv.ParseInt(strings.ReplaceAll(m[1], ",", ""), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("instruction count %q: %w", m[1], err)
			}
			return n, nil
		}
		if first == "" {
			first = message(line)
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	if first == "" {
		return 0, fmt.Errorf("no instruction count in valgrind's log: the process ended before valgrind's summary (killed?)")
	}
	return 0, fmt.Errorf("no instruction count in valgrind's log: %s", first)
}

// message is a log line without valgrind's "==PID==" prefix and its
// banner, or "" for a line that says nothing about the outcome.
func message(line string) string {
	if strings.HasPrefix(line, "==") || strings.HasPrefix(line, "--") {
		if i := strings.Index(line[2:], line[:2]); i >= 0 {
			line = line[i+4:]
		}
	}
	line = strings.TrimSpace(line)
	for _, banner := range []string{"Cachegrind,", "Copyright", "Using Valgrind", "Command:", "Parent PID:", "warning: L3 cache", "warning: specified LL", "warning: simulated LL"} {
		if strings.HasPrefix(line, banner) {
			return ""
		}
	}
	return line
}
