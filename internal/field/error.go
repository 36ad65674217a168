// Package field names a request value that cannot be used. An engine
// validates typed values and returns an *Error naming the field at fault
// by its path in the engine's own types ("Samples", "Watch.MaxPause");
// the front end decides what a user calls that field (cli: a flag), so
// no engine spells a flag and every message keeps one wording.
package field

import (
	"fmt"
	"slices"
)

// Name stands for a field in a message: give it as an argument where the
// field's name goes (with %s), and the message spells it as its Names
// say.
type Name string

// Names spells a field path as the user knows it; nil spells the path.
type Names func(path string) string

// Spell is the field at path as names spell it: the path itself when
// names is nil. It is for text that is not a field error, such as a
// bad line's message or a record's.
func (names Names) Spell(path string) string {
	if names == nil {
		return path
	}
	return names(path)
}

// Error is a field whose value cannot be used, and why. Its message and
// hint are kept as format and arguments, so that Named can spell every
// field they name, the one at fault and any other, afresh.
type Error struct {
	Field string // the path of the field at fault
	Value any    // its value
	msg   text
	hint  text
	names Names
}

// text is a message as fmt takes it, with Name arguments.
type text struct {
	format string
	args   []any
}

// Errorf returns the error of the field at path, whose value is value:
// format and args as fmt.Sprintf takes them, with a Name argument for
// every field named, path itself included.
func Errorf(path string, value any, format string, args ...any) *Error {
	return &Error{Field: path, Value: value, msg: text{format, args}}
}

// WithHint returns a copy of e with a hint: what to do instead, one line,
// naming fields as the message does.
func (e *Error) WithHint(format string, args ...any) *Error {
	c := *e
	c.hint = text{format, args}
	return &c
}

// Named returns a copy of e whose Error and Hint spell field names with
// names.
func (e *Error) Named(names Names) *Error {
	c := *e
	c.names = names
	return &c
}

// Error is the message, the fields spelled by the names e was given.
func (e *Error) Error() string { return e.msg.render(e.names) }

// Hint is the hint, or "" without one.
func (e *Error) Hint() string { return e.hint.render(e.names) }

// Fields lists the field at fault and every field its message and hint
// name, each once.
func (e *Error) Fields() []string {
	out := []string{e.Field}
	for _, t := range []text{e.msg, e.hint} {
		for _, a := range t.args {
			if n, ok := a.(Name); ok && !slices.Contains(out, string(n)) {
				out = append(out, string(n))
			}
		}
	}
	return out
}

func (t text) render(names Names) string {
	if t.format == "" {
		return ""
	}
	args := slices.Clone(t.args)
	for i, a := range args {
		if n, ok := a.(Name); ok {
			args[i] = names.Spell(string(n))
		}
	}
	return fmt.Sprintf(t.format, args...)
}
