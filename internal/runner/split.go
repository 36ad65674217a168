package runner

import (
	"errors"
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/field"
)

// ShellPath is the shell that runs commands when the caller asks for one.
const ShellPath = "/bin/sh"

// FieldShell is the request field that sends commands through ShellPath
// (measure.Request's Command.Shell), which a ShellError names.
const FieldShell = "Command.Shell"

// ShellError is shell syntax that Split refuses: what it is and where,
// and that the command needs a shell.
type ShellError struct {
	What  string
	names field.Names
}

func (e *ShellError) Error() string {
	return fmt.Sprintf("%s; pass %s to run the command through %s", e.What, e.names.Spell(FieldShell), ShellPath)
}

// Spelled is err with a ShellError's field spelled by names; any other
// error is returned as it is.
func Spelled(err error, names field.Names) error {
	if se, ok := err.(*ShellError); ok {
		return &ShellError{What: se.What, names: names}
	}
	return err
}

// Split splits a command line into argv the way a POSIX shell splits words:
// blanks separate words; single quotes keep everything literally; double
// quotes keep everything but a backslash before $ ` " \ or newline; outside
// quotes a backslash keeps the next character and backslash-newline is
// removed. Nothing is expanded and no globbing is done, so * ? [ and ~ are
// literal. Syntax that a shell would act on and Split cannot honour without
// changing the meaning is a *ShellError: unquoted | & ; < > ( ) or
// newline, # starting a word, $ or ` starting a substitution or expansion
// (quoted or not), and a leading NAME=value assignment.
//
// With shell set the argv is ShellPath -c command, untouched.
func Split(command string, shell bool) ([]string, error) {
	if strings.TrimSpace(command) == "" {
		return nil, errors.New("empty command")
	}
	if shell {
		return []string{ShellPath, "-c", command}, nil
	}
	s := splitter{in: command}
	return s.split()
}

// splitter is the state of one Split: the input, the position, the word
// being built and whether a word has started (a pair of empty quotes is a word).
type splitter struct {
	in     string
	i      int
	word   strings.Builder
	inWord bool
	argv   []string
}

func (s *splitter) split() ([]string, error) {
	for s.i < len(s.in) {
		if err := s.step(); err != nil {
			return nil, err
		}
	}
	s.endWord()
	if len(s.argv) == 0 {
		return nil, errors.New("empty command")
	}
	if isAssignment(s.argv[0]) {
		return nil, &ShellError{What: fmt.Sprintf("%q is a variable assignment", s.argv[0])}
	}
	return s.argv, nil
}

// isAssignment reports whether a shell would take word, at the start of a
// command, as an environment assignment rather than the program: NAME=...
func isAssignment(word string) bool {
	name, _, ok := strings.Cut(word, "=")
	if !ok || name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for i := range len(name) {
		if !isAlnum(name[i]) && name[i] != '_' {
			return false
		}
	}
	return true
}

// step consumes one unquoted character, or one whole quoted section.
func (s *splitter) step() error {
	c := s.in[s.i]
	switch {
	case c == ' ' || c == '\t':
		s.endWord()
		s.i++
	case c == '\'':
		return s.singleQuoted()
	case c == '"':
		return s.doubleQuoted()
	case c == '\\':
		return s.escaped()
	case c == '#' && !s.inWord:
		return s.refuse("# starts a comment")
	case strings.IndexByte("|&;<>()\n", c) >= 0:
		return s.refuse(fmt.Sprintf("unquoted %q is shell syntax", c))
	default:
		return s.literal(c)
	}
	return nil
}

// literal adds c to the word unless it starts a substitution or expansion.
func (s *splitter) literal(c byte) error {
	if err := s.checkExpansion(c); err != nil {
		return err
	}
	s.add(c)
	s.i++
	return nil
}

func (s *splitter) singleQuoted() error {
	end := strings.IndexByte(s.in[s.i+1:], '\'')
	if end < 0 {
		return fmt.Errorf("unterminated single quote in %q", s.in)
	}
	s.inWord = true
	s.word.WriteString(s.in[s.i+1 : s.i+1+end])
	s.i += end + 2
	return nil
}

func (s *splitter) doubleQuoted() error {
	s.inWord = true
	for s.i++; s.i < len(s.in); s.i++ {
		c := s.in[s.i]
		switch {
		case c == '"':
			s.i++
			return nil
		case c == '\\' && s.i+1 < len(s.in) && strings.IndexByte("$`\"\\\n", s.in[s.i+1]) >= 0:
			s.i++
			if s.in[s.i] != '\n' {
				s.add(s.in[s.i])
			}
		default:
			if err := s.checkExpansion(c); err != nil {
				return err
			}
			s.add(c)
		}
	}
	return fmt.Errorf("unterminated double quote in %q", s.in)
}

func (s *splitter) escaped() error {
	if s.i+1 == len(s.in) {
		return fmt.Errorf("trailing backslash in %q", s.in)
	}
	if s.in[s.i+1] != '\n' { // backslash-newline is a line continuation
		s.add(s.in[s.i+1])
	}
	s.i += 2
	return nil
}

// checkExpansion refuses ` and a $ that a shell would expand: $( ${ $name
// $1 and the special parameters. A $ before anything else is literal in a
// shell too.
func (s *splitter) checkExpansion(c byte) error {
	if c == '`' {
		return s.refuse("` is command substitution")
	}
	if c != '$' || s.i+1 == len(s.in) {
		return nil
	}
	switch n := s.in[s.i+1]; {
	case n == '(':
		return s.refuse("$( is command substitution")
	case n == '{' || n == '_' || isAlnum(n) || strings.IndexByte("?#@*!$-", n) >= 0:
		return s.refuse("$ is variable expansion")
	}
	return nil
}

func (s *splitter) refuse(what string) error {
	return &ShellError{What: fmt.Sprintf("%s at offset %d of %q", what, s.i, s.in)}
}

func (s *splitter) add(c byte) {
	s.inWord = true
	s.word.WriteByte(c)
}

func (s *splitter) endWord() {
	if s.inWord {
		s.argv = append(s.argv, s.word.String())
		s.word.Reset()
		s.inWord = false
	}
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
