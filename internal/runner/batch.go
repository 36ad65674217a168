package runner

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Placeholder is replaced by the batch size in a batch command's arguments.
const Placeholder = "{n}"

// Batch-mode environment: the batch size, and the descriptor of the report
// channel (man fb-worker(7)).
const (
	EnvN        = "FLYBENCH_N"
	EnvReportFD = "FLYBENCH_REPORT_FD"
	ReportFD    = 3
)

// batch is the batch-mode state of a Command: one process per batch
// performs N logical operations itself.
type batch struct {
	template []string // argv with the placeholder
	env      []string
	report   *os.File // a MemFile the child sees as fd 3; a file, so a child never blocks writing it
	last     []byte
}

// setupBatch prepares fd 3 and the argument template.
func (c *Command) setupBatch(files []uintptr) ([]uintptr, error) {
	f, err := MemFile("flybench-report", "report channel")
	if err != nil {
		return nil, fmt.Errorf("create report channel: %w", err)
	}
	c.batch = &batch{template: c.argv, report: f}
	return append(files, f.Fd()), nil
}

// prepareBatch sets the arguments and environment of a batch of n and
// empties the report channel.
func (c *Command) prepareBatch(n int64) error {
	b := c.batch
	num := strconv.FormatInt(n, 10)
	c.argv = make([]string, len(b.template))
	for i, a := range b.template {
		c.argv[i] = strings.ReplaceAll(a, Placeholder, num)
	}
	if b.env == nil {
		b.env = append(c.attr.Env[:len(c.attr.Env):len(c.attr.Env)], EnvReportFD+"="+strconv.Itoa(ReportFD), "")
	}
	c.setLaunchArgv()
	b.env[len(b.env)-1] = EnvN + "=" + num
	c.attr.Env = b.env
	if err := b.report.Truncate(0); err != nil {
		return fmt.Errorf("empty report channel: %w", err)
	}
	_, err := b.report.Seek(0, io.SeekStart)
	return err
}

// collectReport keeps what the batch wrote on its report channel.
func (c *Command) collectReport() error {
	b := c.batch
	if _, err := b.report.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("read report channel: %w", err)
	}
	data, err := io.ReadAll(io.LimitReader(b.report, 1<<20))
	if err != nil {
		return fmt.Errorf("read report channel: %w", err)
	}
	b.last = data
	return nil
}

// Report is what the last batch wrote on its report channel (fd 3), or nil
// for an exec-mode command.
func (c *Command) Report() []byte {
	if c.batch == nil {
		return nil
	}
	return c.batch.last
}
