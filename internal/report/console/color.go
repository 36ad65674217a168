package console

// painter wraps text in ANSI SGR sequences when colour is on and leaves it
// untouched otherwise, so a plain report holds no escape byte.
type painter bool

// SGR parameters used by the console format.
const (
	SGRBold   = "1"
	SGRRed    = "31"
	SGRGreen  = "32"
	SGRYellow = "33"
	SGRCyan   = "36"
)

func (p painter) paint(sgr, s string) string {
	if !p || s == "" || sgr == "" {
		return s
	}
	return "\x1b[" + sgr + "m" + s + "\x1b[0m"
}
