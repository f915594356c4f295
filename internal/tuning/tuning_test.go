package tuning

import (
	"errors"
	"testing"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestFromEnvValid(t *testing.T) {
	def := Settings{WarnSaving: DefaultWarnSaving, PauseSaving: DefaultPauseSaving, Rate: RateForecast, Prefer: PreferRelay}
	with := func(f func(*Settings)) Settings { s := def; f(&s); return s }
	for _, tc := range []struct {
		name string
		env  []string
		want Settings
	}{
		{"nothing set", nil, def},
		{"warn", []string{EnvWarn, "250000"}, with(func(s *Settings) { s.Warn = 250000 })},
		{"warn trimmed", []string{EnvWarn, " 250000\n"}, with(func(s *Settings) { s.Warn = 250000 })},
		{"warn alone under the pause cap", []string{EnvWarn, "399999"}, with(func(s *Settings) { s.Warn = 399999 })},
		{"pause", []string{EnvPause, "500000"}, with(func(s *Settings) { s.Pause = 500000 })},
		{"pause alone over the warn cap", []string{EnvPause, "300001"}, with(func(s *Settings) { s.Pause = 300001 })},
		{"pause alone under the warn cap, for a 200k window", []string{EnvPause, "150000"}, with(func(s *Settings) { s.Pause = 150000 })},
		{"both, low", []string{EnvWarn, "100000", EnvPause, "150000"}, with(func(s *Settings) { s.Warn, s.Pause = 100000, 150000 })},
		{"both, one apart", []string{EnvWarn, "1", EnvPause, "2"}, with(func(s *Settings) { s.Warn, s.Pause = 1, 2 })},
		{"warn saving", []string{EnvWarnSaving, "0.5"}, with(func(s *Settings) { s.WarnSaving = 0.5 })},
		{"warn saving zero", []string{EnvWarnSaving, "0"}, with(func(s *Settings) { s.WarnSaving = 0 })},
		{"pause saving", []string{EnvPauseSaving, "2"}, with(func(s *Settings) { s.PauseSaving = 2 })},
		{"both savings", []string{EnvWarnSaving, "1.10", EnvPauseSaving, "1.20"}, with(func(s *Settings) { s.WarnSaving, s.PauseSaving = 1.10, 1.20 })},
		{"lines priced", []string{EnvLines, "priced"}, def},
		{"lines fixed", []string{EnvLines, "fixed"}, with(func(s *Settings) { s.Fixed = true })},
		{"lines fixed, any case", []string{EnvLines, " Fixed "}, with(func(s *Settings) { s.Fixed = true })},
		{"manual yes", []string{EnvManual, "yes"}, with(func(s *Settings) { s.Manual = Yes })},
		{"manual off", []string{EnvManual, "OFF"}, with(func(s *Settings) { s.Manual = No })},
		{"manual unreadable leaves the default", []string{EnvManual, "perhaps"}, def},
		{"window", []string{EnvWindow, "1000000"}, with(func(s *Settings) { s.Window = 1000000 })},
	} {
		got, err := FromEnv(env(tc.env...))
		if err != nil || got != tc.want {
			t.Errorf("%s: FromEnv = %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}
}

func TestFromEnvInvalid(t *testing.T) {
	for _, tc := range []struct {
		env     []string
		wantVar string
	}{
		{[]string{EnvWarn, "lots"}, EnvWarn},
		{[]string{EnvWarn, "0"}, EnvWarn},
		{[]string{EnvWarn, "-300000"}, EnvWarn},
		{[]string{EnvWarn, "300000.5"}, EnvWarn},
		{[]string{EnvWarn, "3e5"}, EnvWarn},
		{[]string{EnvWarn, "300k"}, EnvWarn},
		{[]string{EnvWarn, "99999999999999999999"}, EnvWarn},
		{[]string{EnvPause, "x"}, EnvPause},
		{[]string{EnvPause, "0"}, EnvPause},
		{[]string{EnvPause, "-1"}, EnvPause},
		// a warn line at or above the pause line
		{[]string{EnvWarn, "200000", EnvPause, "200000"}, EnvWarn},
		{[]string{EnvWarn, "250000", EnvPause, "200000"}, EnvWarn},
		{[]string{EnvWarn, "400000"}, EnvWarn},
		{[]string{EnvWarn, "500000"}, EnvWarn},
		// savings
		{[]string{EnvWarnSaving, "cheap"}, EnvWarnSaving},
		{[]string{EnvWarnSaving, "-0.10"}, EnvWarnSaving},
		{[]string{EnvWarnSaving, "$0.20"}, EnvWarnSaving},
		{[]string{EnvWarnSaving, "Inf"}, EnvWarnSaving},
		{[]string{EnvWarnSaving, "NaN"}, EnvWarnSaving},
		{[]string{EnvPauseSaving, "0,80"}, EnvPauseSaving},
		{[]string{EnvPauseSaving, "-1"}, EnvPauseSaving},
		{[]string{EnvPauseSaving, "+Inf"}, EnvPauseSaving},
		// a warn saving at or above the pause saving names the one set
		{[]string{EnvWarnSaving, "0.80"}, EnvWarnSaving},
		{[]string{EnvWarnSaving, "0.9"}, EnvWarnSaving},
		{[]string{EnvPauseSaving, "0.20"}, EnvPauseSaving},
		{[]string{EnvPauseSaving, "0.1"}, EnvPauseSaving},
		{[]string{EnvWarnSaving, "1", EnvPauseSaving, "1"}, EnvWarnSaving},
		{[]string{EnvLines, "sometimes"}, EnvLines},
		{[]string{EnvLines, "cap"}, EnvLines},
		{[]string{EnvWindow, "1M"}, EnvWindow},
		{[]string{EnvWindow, "0"}, EnvWindow},
		{[]string{EnvWindow, "-200000"}, EnvWindow},
	} {
		_, err := FromEnv(env(tc.env...))
		var ce *Error
		if !errors.As(err, &ce) || ce.Var != tc.wantVar {
			t.Errorf("FromEnv(%q) = %v; want an error naming %s", tc.env, err, tc.wantVar)
			continue
		}
		if msg := err.Error(); len(msg) < len(tc.wantVar) || msg[:len(tc.wantVar)] != tc.wantVar {
			t.Errorf("FromEnv(%q): message %q does not start with the variable", tc.env, msg)
		}
	}
}

func TestParseSwitch(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Switch
	}{
		{"true", Yes}, {"yes", Yes}, {"on", Yes}, {"1", Yes}, {" TRUE ", Yes}, {"Yes\n", Yes},
		{"false", No}, {"no", No}, {"off", No}, {"0", No}, {" Off", No},
		{"", Unset}, {"maybe", Unset}, {"2", Unset}, {"y", Unset}, {"truee", Unset},
	} {
		if got := ParseSwitch(tc.in); got != tc.want {
			t.Errorf("ParseSwitch(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestWords: the variables that take one of a few words read them
// trimmed and in any case, default to the first, and name themselves when
// the word is none of them.
func TestWords(t *testing.T) {
	for _, tc := range []struct {
		name, v, want string
		ok            bool
	}{
		{EnvRate, "", RateForecast, true}, {EnvRate, "forecast", RateForecast, true},
		{EnvRate, " Since-Boundary ", RateSinceBoundary, true}, {EnvRate, "mean", "", false},
		{EnvPrefer, "", PreferRelay, true}, {EnvPrefer, "relay", PreferRelay, true},
		{EnvPrefer, " Cheapest ", PreferCheapest, true}, {EnvPrefer, "compact", "", false}, {EnvPrefer, "cheap", "", false},
	} {
		s, err := FromEnv(env(tc.name, tc.v))
		got := map[string]string{EnvRate: s.Rate, EnvPrefer: s.Prefer}[tc.name]
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("%s=%q: %q, err %v; want %q, ok %v", tc.name, tc.v, got, err, tc.want, tc.ok)
		}
		if ce, isErr := err.(*Error); !tc.ok && (!isErr || ce.Var != tc.name) {
			t.Errorf("%s=%q: error %v does not name the variable", tc.name, tc.v, err)
		}
	}
}
