package field

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
)

func flags(path string) string {
	return map[string]string{"Samples": "--samples", "Until.Rule": "--until", "Sequential": "--sequential"}[path]
}

// An error spells its fields by path until it is named, and then as the
// names say, in the message and the hint alike.
func TestErrorSpellsFieldsAsNamed(t *testing.T) {
	e := Errorf("Until.Rule", "decision", "%s cannot be combined with %s", Name("Until.Rule"), Name("Sequential")).
		WithHint("drop %s", Name("Sequential"))
	if got := e.Error(); got != "Until.Rule cannot be combined with Sequential" {
		t.Errorf("unnamed: %q", got)
	}
	n := e.Named(flags)
	if got := n.Error(); got != "--until cannot be combined with --sequential" {
		t.Errorf("named: %q", got)
	}
	if got := n.Hint(); got != "drop --sequential" {
		t.Errorf("hint: %q", got)
	}
	if e.Error() != "Until.Rule cannot be combined with Sequential" {
		t.Error("Named changed the original")
	}
	if got := e.Fields(); !reflect.DeepEqual(got, []string{"Until.Rule", "Sequential"}) {
		t.Errorf("fields %q", got)
	}
}

// A user's value is an argument, never part of the format: braces and
// percent signs in it are printed as they are.
func TestErrorKeepsValuesVerbatim(t *testing.T) {
	v := "{Samples} 100%"
	e := Errorf("Samples", v, "%s %q: use auto", Name("Samples"), v).Named(flags)
	if got := e.Error(); got != `--samples "{Samples} 100%": use auto` {
		t.Errorf("%q", got)
	}
	if e.Hint() != "" {
		t.Errorf("hint %q without one", e.Hint())
	}
}

func TestErrorIsFoundThroughWrapping(t *testing.T) {
	err := fmt.Errorf("case a: %w", Errorf("Samples", 5, "%s %d out of range", Name("Samples"), 5))
	var fe *Error
	if !errors.As(err, &fe) || fe.Field != "Samples" || fe.Value != 5 {
		t.Fatalf("%v", err)
	}
}
