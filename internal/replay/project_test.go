package replay

import "testing"

func TestHomePath(t *testing.T) {
	for _, tc := range []struct{ project, home, want string }{
		{"/home/you/shop", "/home/you", "~/shop"},
		{"/home/you/shop", "/home/you/", "~/shop"},
		{"/home/you", "/home/you", "~"},
		{"/home/yours/shop", "/home/you", "/home/yours/shop"},
		{"/srv/shop", "/home/you", "/srv/shop"},
		{"-home-you-shop", "/home/you", "-home-you-shop"},
		{"/home/you/shop", "", "/home/you/shop"},
	} {
		if got := HomePath(tc.project, tc.home); got != tc.want {
			t.Errorf("HomePath(%q, %q) = %q, want %q", tc.project, tc.home, got, tc.want)
		}
	}
}
