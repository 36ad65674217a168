package report

// painter wraps text in ANSI SGR sequences when colour is on and leaves it
// untouched otherwise, so a plain report holds no escape byte.
type painter bool

// SGR parameters used by the console format.
const (
	sgrBold   = "1"
	sgrRed    = "31"
	sgrGreen  = "32"
	sgrYellow = "33"
	sgrCyan   = "36"
)

func (p painter) paint(sgr, s string) string {
	if !p || s == "" || sgr == "" {
		return s
	}
	return "\x1b[" + sgr + "m" + s + "\x1b[0m"
}
