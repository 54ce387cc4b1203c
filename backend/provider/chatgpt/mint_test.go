package chatgpt

import (
	"net/url"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestMintURLEscapesTheSandboxPath(t *testing.T) {
	got, err := MintURL("6974e0a3-1111-2222-3333-444455556666", "0fe9a1b2-aaaa", "/mnt/data/my project+v2.zip")
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(got)
	if err != nil {
		t.Fatal(err)
	}
	if u.Scheme != "https" || u.Host != "chatgpt.com" || u.Path != "/backend-api/conversation/6974e0a3-1111-2222-3333-444455556666/interpreter/download" {
		t.Errorf("url = %s", got)
	}
	if u.Query().Get("sandbox_path") != "/mnt/data/my project+v2.zip" || u.Query().Get("message_id") != "0fe9a1b2-aaaa" {
		t.Errorf("query does not round-trip: %s", u.RawQuery)
	}
	if strings.Contains(u.RawQuery, " ") || strings.Contains(u.RawQuery, "+v2") {
		t.Errorf("query is not escaped: %s", u.RawQuery)
	}
}

func TestMintURLRefusesBadInput(t *testing.T) {
	cases := []struct{ name, cid, mid, path string }{
		{"a conversation id with a slash", "abc/../x", "m1", "/mnt/data/x.zip"},
		{"an empty message id", "c1", "", "/mnt/data/x.zip"},
		{"a message id with a query", "c1", "m1&sandbox_path=/etc", "/mnt/data/x.zip"},
		{"a path outside the sandbox", "c1", "m1", "/etc/x.zip"},
		{"a path with dot-dot", "c1", "m1", "/mnt/data/../x.zip"},
	}
	for _, c := range cases {
		t.Run(c.name+" is bad input", func(t *testing.T) {
			if _, err := MintURL(c.cid, c.mid, c.path); !errs.Has(err, errs.BadInput) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

const goodDownload = "https://chatgpt.com/backend-api/estuary/content?id=file_0123456789abcdef0123456789abcdef&ts=1&p=fs&cid=1&sig=" +
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa&v=0"

func TestParseMintResponse(t *testing.T) {
	ok := `{"status":"success","download_url":"` + goodDownload + `","file_name":"project.zip","mime_type":"application/zip","metadata":{"file_id":"file_0123"}}`
	m, err := ParseMintResponse(200, []byte(ok))
	if err != nil {
		t.Fatalf("a success answer was refused: %v", err)
	}
	if m.DownloadURL != goodDownload || m.FileName != "project.zip" || m.FileID != "file_0123" {
		t.Errorf("minted = %+v", m)
	}
	cases := []struct {
		name   string
		status int
		body   string
		code   errs.Code
	}{
		{"an expired sandbox", 200, `{"status":"error","error_code":"ace_pod_expired"}`, errs.ArtifactExpired},
		{"an expired sandbox as 404", 404, `{"status":"error","error_code":"ace_pod_expired"}`, errs.ArtifactExpired},
		{"a bare 404", 404, `Not Found`, errs.ArtifactExpired},
		{"a 403 challenge", 403, `<html>Just a moment...</html>`, errs.ArtifactForbidden},
		{"a missing bearer", 401, `{"detail":{"message":"Unauthorized - Access token is missing"}}`, errs.ArtifactMintFailed},
		{"a server error", 500, `oops`, errs.ArtifactMintFailed},
		{"a body that is not JSON", 200, `<html>`, errs.ArtifactMintFailed},
		{"another error code", 200, `{"status":"error","error_code":"file_not_found"}`, errs.ArtifactMintFailed},
		{"a success with a foreign URL", 200, `{"status":"success","download_url":"https://evil.example/backend-api/estuary/content?id=file_0123456789abcdef"}`, errs.ArtifactMintFailed},
	}
	for _, c := range cases {
		t.Run(c.name+" is "+string(c.code), func(t *testing.T) {
			if _, err := ParseMintResponse(c.status, []byte(c.body)); !errs.Has(err, c.code) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestValidateDownloadURL(t *testing.T) {
	if err := ValidateDownloadURL(goodDownload); err != nil {
		t.Fatalf("the documented estuary URL was refused: %v", err)
	}
	bad := map[string]string{
		"plain http":       strings.Replace(goodDownload, "https:", "http:", 1),
		"another host":     strings.Replace(goodDownload, "chatgpt.com", "chatgpt.com.evil.example", 1),
		"a subdomain":      strings.Replace(goodDownload, "chatgpt.com", "files.chatgpt.com", 1),
		"a port":           strings.Replace(goodDownload, "chatgpt.com", "chatgpt.com:8443", 1),
		"user info":        strings.Replace(goodDownload, "https://", "https://user:pw@", 1),
		"another path":     strings.Replace(goodDownload, "/estuary/content", "/files/x", 1),
		"an encoded path":  strings.Replace(goodDownload, "/estuary/content", "/estuary%2Fcontent", 1),
		"a fragment":       goodDownload + "#x",
		"no file id":       strings.Replace(goodDownload, "id=file_", "id=blob_", 1),
		"two ids":          goodDownload + "&id=file_0123456789abcdef",
		"a javascript URL": "javascript:alert(1)",
		"a relative URL":   "/backend-api/estuary/content?id=file_0123456789abcdef",
		"an empty string":  "",
	}
	for name, u := range bad {
		t.Run("a URL with "+name+" is refused", func(t *testing.T) {
			err := ValidateDownloadURL(u)
			if !errs.Has(err, errs.ArtifactMintFailed) {
				t.Fatalf("err = %v", err)
			}
			if e := errs.From(err); strings.Contains(e.Human(), "sig=") {
				t.Errorf("the signed query leaked into the error: %s", e.Human())
			}
		})
	}
}
