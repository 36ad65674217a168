package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	cases := []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{nil, false, "0.1.0-dev"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.3.1"}}, true, "v0.3.1"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "36ca607f9ff38d13446e13709960fea9bfa46eea"}, {Key: "vcs.modified", Value: "true"}}}, true, "devel-36ca607f9ff3-dirty"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "0.1.0-dev"},
	}
	for _, c := range cases {
		if got := fromBuildInfo(c.info, c.ok); got != c.want {
			t.Errorf("%+v: %q, want %q", c.info, got, c.want)
		}
	}
	if Version == "" {
		t.Error("Version is empty: init must fall back to the build information")
	}
}
