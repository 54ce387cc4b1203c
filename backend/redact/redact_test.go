package redact

import (
	"reflect"
	"testing"
)

func TestURLDropsWhereSitesPutTokens(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"an empty address stays empty", "", ""},
		{"a plain address stays", "https://chatgpt.com/c/abc", "https://chatgpt.com/c/abc"},
		{"query, fragment and userinfo go", "https://u:p@chatgpt.com/c/abc?token=x#f", "https://chatgpt.com/c/abc"},
		{"an address that does not parse is replaced", "http://[::1", "[unparseable url]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := URL(tc.in); got != tc.want {
				t.Fatalf("URL(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestEvidenceHidesSecretLookingKeys(t *testing.T) {
	t.Run("nil stays nil", func(t *testing.T) {
		if Evidence(nil) != nil {
			t.Fatal("not nil")
		}
	})
	t.Run("secret-looking keys of any case are redacted, others kept, the input untouched", func(t *testing.T) {
		in := map[string]string{"Authorization": "Bearer x", "session_key": "k", "tab": "T1"}
		got := Evidence(in)
		want := map[string]string{"Authorization": "[redacted]", "session_key": "[redacted]", "tab": "T1"}
		if !reflect.DeepEqual(got, want) || in["Authorization"] != "Bearer x" {
			t.Fatalf("got %v, input now %v", got, in)
		}
	})
}
