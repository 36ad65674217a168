package measure

// angled spells a field as <path>: a front end's names, in tests that
// check where a message names a field.
func angled(path string) string { return "<" + path + ">" }

func must(t interface {
	Helper()
	Fatal(...any)
}, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
