package collect

import "fmt"

// MaxLayoutPad is the longest environment padding of a randomized layout,
// in bytes: paddings are uniform on 0..MaxLayoutPad, hyperfine's range.
const MaxLayoutPad = 4095

// LayoutNote says in one line what a randomized layout varies and what it
// cannot, for the run record.
const LayoutNote = "environment padding of every batch's processes, the same for every case of a pair or round, drawn again for the next; execve copies the environment onto the new stack, so the padding moves the initial stack pointer in 16-byte steps (no other stack offset is settable from outside the process); where the kernel randomizes the stack (aslr 1 or 2, no ADDR_NO_RANDOMIZE) it moves it per exec already"

// Padded is an Operation whose processes can start with an environment
// padded to a given length (Config.RandomizeLayout): every later batch
// starts its processes with n bytes of padding until the next call.
type Padded interface {
	SetLayoutPad(n int) error
}

// LayoutPad is the padding, 0 to MaxLayoutPad bytes, of every case in
// unit u of a run with the given seed: a fixed function of the two,
// splitmix64(seed + (u+1)·0x9e3779b97f4a7c15) mod 4096, so a stream's
// paddings can be recomputed from its seed, and consecutive units draw
// independently.
func LayoutPad(seed uint64, u int) int {
	z := splitmix64(seed + (uint64(u)+1)*0x9e3779b97f4a7c15)
	return int(z % (MaxLayoutPad + 1))
}

// checkPadded refuses a randomized layout over an operation that cannot
// pad its environment.
func (e *Engine) checkPadded() error {
	if !e.Config.RandomizeLayout {
		return nil
	}
	for _, c := range e.Cases {
		if _, ok := c.Op.(Padded); !ok {
			return fmt.Errorf("%s: layout randomization needs an operation that starts processes with a padded environment", c.Name)
		}
	}
	return nil
}

// padUnit sets unit j's padding on every case it runs and returns it, or
// nil when the layout is not randomized.
func (e *Engine) padUnit(j job) (*int, error) {
	if !e.Config.RandomizeLayout {
		return nil, nil
	}
	pad := LayoutPad(e.Config.Seed, j.unit)
	for _, c := range j.order {
		if err := e.Cases[c].Op.(Padded).SetLayoutPad(pad); err != nil {
			return nil, &FailedError{Case: e.Cases[c].Name, Err: err}
		}
	}
	return &pad, nil
}
