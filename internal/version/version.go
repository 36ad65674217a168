// Package version is the flybench release every tool reports and stamps
// into the records it writes.
package version

import "runtime/debug"

// Version is set at link time by the Makefile (-X) with git describe.
// Unstamped (go install, go build), it is the module version from the
// build information, with the VCS revision when the build has one.
var Version string

func init() {
	if Version == "" {
		Version = fromBuildInfo(debug.ReadBuildInfo())
	}
}

// fromBuildInfo is the version an unstamped binary reports: the main
// module's version ("v0.3.1" from go install ...@v0.3.1), or for a build
// of a checkout "devel" with the revision and "-dirty" when it had
// uncommitted changes, or "0.1.0-dev" when nothing is known.
func fromBuildInfo(info *debug.BuildInfo, ok bool) string {
	if !ok {
		return "0.1.0-dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev == "" {
		return "0.1.0-dev"
	}
	return "devel-" + rev[:min(len(rev), 12)] + dirty
}
