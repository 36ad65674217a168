//go:build !linux

package runner

import "os"

// MemFile is an anonymous file: there is no memfd here, so it is a
// temporary file removed as soon as it is open. A child writing to it
// never blocks, and nothing of it is left behind once it is closed.
func MemFile(name, _ string) (*os.File, error) {
	f, err := os.CreateTemp("", name+"-*")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
