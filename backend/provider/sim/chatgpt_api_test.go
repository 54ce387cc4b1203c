package sim_test

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/provider/sim/simimage"
	"github.com/ferrydesk/ferry/backend/provider/sim/simtest"
)

// gptAPI acts as the logged-in browser from Go: the session cookie plus the
// bearer token, against the real URLs.
type gptAPI struct {
	t      testing.TB
	srv    *sim.Server
	client *http.Client
	token  string
	cookie *http.Cookie
}

func newGPTAPI(t testing.TB) *gptAPI {
	env := simtest.Shared(t)
	env.Server.Reset()
	return &gptAPI{t: t, srv: env.Server, client: env.Server.Client(), token: env.Server.AccessToken(), cookie: env.Server.SessionCookie(sim.ChatGPT)}
}

func (a *gptAPI) do(method, u string, body any, bearer, cookie bool) (*http.Response, []byte) {
	a.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, u, rd)
	req.Header.Set("content-type", "application/json")
	if bearer {
		req.Header.Set("authorization", "Bearer "+a.token)
	}
	if cookie {
		req.AddCookie(a.cookie)
	}
	resp, err := a.client.Do(req)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		// a reset stream is what stream_cut produces; keep the bytes read.
		return resp, b
	}
	return resp, b
}

// ask posts a prompt to /backend-api/f/conversation and decodes the stream.
func (a *gptAPI) ask(prompt, conv string) (refDecoded, *http.Response, []byte) {
	a.t.Helper()
	body := map[string]any{"action": "next", "messages": []any{map[string]any{"id": "m-" + fmt.Sprint(time.Now().UnixNano()), "author": map[string]any{"role": "user"},
		"content": map[string]any{"content_type": "text", "parts": []string{prompt}}}}, "parent_message_id": "client-created-root", "model": "auto", "supported_encodings": []string{"v1"}}
	if conv != "" {
		body["conversation_id"] = conv
	}
	resp, raw := a.do("POST", sim.URL(sim.ChatGPT, "/backend-api/f/conversation"), body, true, true)
	if resp.StatusCode != 200 {
		return refDecoded{}, resp, raw
	}
	dec, err := refDecode(raw)
	if err != nil {
		a.t.Fatalf("decode stream: %v", err)
	}
	return dec, resp, raw
}

type convJSON struct {
	CurrentNode string `json:"current_node"`
	Mapping     map[string]struct {
		Parent  *string `json:"parent"`
		Message *struct {
			ID      string `json:"id"`
			Author  struct{ Role, Name string }
			Content struct {
				ContentType string   `json:"content_type"`
				Parts       []string `json:"parts"`
				Text        string   `json:"text"`
			} `json:"content"`
			Metadata struct {
				AggregateResult *struct {
					FinalExpressionOutput string `json:"final_expression_output"`
				} `json:"aggregate_result"`
			} `json:"metadata"`
			Channel *string `json:"channel"`
		} `json:"message"`
	} `json:"mapping"`
}

func (a *gptAPI) conversation(id string) (convJSON, int) {
	resp, b := a.do("GET", sim.URL(sim.ChatGPT, "/backend-api/conversation/"+id), nil, true, true)
	var c convJSON
	if resp.StatusCode == 200 {
		if err := json.Unmarshal(b, &c); err != nil {
			a.t.Fatalf("decode conversation: %v", err)
		}
	}
	return c, resp.StatusCode
}

// sandboxRefs walks the conversation from current_node to the root and
// returns, per sandbox path, the id of the final message that mentions it.
func sandboxRefs(c convJSON) map[string]string {
	out := map[string]string{}
	for id := c.CurrentNode; id != ""; {
		n := c.Mapping[id]
		if n.Message != nil {
			text := strings.Join(n.Message.Content.Parts, "") + n.Message.Content.Text
			for _, f := range strings.Fields(strings.NewReplacer("(", " ", ")", " ", "'", " ").Replace(text)) {
				f = strings.TrimPrefix(f, "sandbox:")
				if strings.HasPrefix(f, "/mnt/data/") && strings.HasSuffix(f, ".zip") {
					if _, ok := out[f]; !ok {
						out[f] = n.Message.ID
					}
				}
			}
		}
		if n.Parent == nil {
			break
		}
		id = *n.Parent
	}
	return out
}

func (a *gptAPI) mint(conv, msgID, path string, bearer bool) (int, map[string]any) {
	u := sim.URL(sim.ChatGPT, "/backend-api/conversation/"+conv+"/interpreter/download?message_id="+url.QueryEscape(msgID)+"&sandbox_path="+url.QueryEscape(path))
	resp, b := a.do("GET", u, nil, bearer, true)
	var j map[string]any
	_ = json.Unmarshal(b, &j)
	return resp.StatusCode, j
}

func TestChatGPTBackendAPIRequiresTheBearerToken(t *testing.T) {
	a := newGPTAPI(t)
	resp, b := a.do("GET", sim.URL(sim.ChatGPT, "/backend-api/conversation/x"), nil, false, true)
	if resp.StatusCode != 401 || !strings.Contains(string(b), "Access token is missing") {
		t.Fatalf("cookie without bearer: %d %s, want 401 Access token is missing", resp.StatusCode, b)
	}
	a.token = "a.b.c"
	if resp, _ := a.do("GET", sim.URL(sim.ChatGPT, "/backend-api/conversation/x"), nil, true, true); resp.StatusCode != 401 {
		t.Fatalf("forged bearer: %d, want 401", resp.StatusCode)
	}
	resp, b = a.do("GET", sim.URL(sim.ChatGPT, "/api/auth/session"), nil, false, true)
	var s struct {
		User        *struct{ ID string } `json:"user"`
		AccessToken string               `json:"accessToken"`
	}
	if err := json.Unmarshal(b, &s); err != nil || s.User == nil || strings.Count(s.AccessToken, ".") != 2 {
		t.Fatalf("session with cookie: %d %s", resp.StatusCode, b)
	}
	if _, b := a.do("GET", sim.URL(sim.ChatGPT, "/api/auth/session"), nil, false, false); strings.TrimSpace(string(b)) != "{}" {
		t.Fatalf("session without cookie = %s, want {}", b)
	}
}

func TestChatGPTCodeModeZipsAreRetrievableOnlyWithTokenCookieAndSignature(t *testing.T) {
	a := newGPTAPI(t)
	dec, resp, _ := a.ask("Build it\n"+sim.Directive("multi_zip", "zips", "2"), "")
	if resp.StatusCode != 200 || !dec.Complete {
		t.Fatalf("ask: status %d complete %v", resp.StatusCode, dec.Complete)
	}
	if !strings.Contains(dec.Answer, "(sandbox:/mnt/data/project-part1.zip)") || !strings.Contains(dec.Answer, ":chatgpt-content-reference{") {
		t.Fatalf("final text lacks the sandbox links: %q", dec.Answer)
	}
	c, code := a.conversation(dec.ConversationID)
	if code != 200 {
		t.Fatalf("conversation: %d", code)
	}
	var sawExec bool
	for _, n := range c.Mapping {
		if n.Message != nil && n.Message.Content.ContentType == "execution_output" {
			sawExec = n.Message.Content.Text == "'/mnt/data/project-part2.zip'" && n.Message.Metadata.AggregateResult != nil &&
				n.Message.Metadata.AggregateResult.FinalExpressionOutput == "'/mnt/data/project-part2.zip'"
		}
	}
	if !sawExec {
		t.Error("no execution_output message with the repr path and final_expression_output")
	}
	refs := sandboxRefs(c)
	if len(refs) != 2 {
		t.Fatalf("sandbox refs = %v, want 2 zips", refs)
	}
	for i, path := range []string{"/mnt/data/project-part1.zip", "/mnt/data/project-part2.zip"} {
		if st, _ := a.mint(dec.ConversationID, refs[path], path, false); st != 401 {
			t.Errorf("mint without bearer: %d, want 401", st)
		}
		if st, j := a.mint(dec.ConversationID, "wrong-message", path, true); st != 404 {
			t.Errorf("mint with a message that does not hold the path: %d %v, want 404", st, j)
		}
		st, j := a.mint(dec.ConversationID, refs[path], path, true)
		dl, _ := j["download_url"].(string)
		if st != 200 || j["status"] != "success" || !strings.HasPrefix(dl, "https://chatgpt.com/backend-api/estuary/content?id=file_") {
			t.Fatalf("mint: %d %v", st, j)
		}
		if resp, _ := a.do("GET", dl, nil, false, false); resp.StatusCode != 403 {
			t.Errorf("estuary without the cookie: %d, want 403", resp.StatusCode)
		}
		if resp, _ := a.do("GET", strings.Replace(dl, "&sig=", "&sig=0", 1), nil, false, true); resp.StatusCode != 403 {
			t.Errorf("estuary with a bad sig: %d, want 403", resp.StatusCode)
		}
		resp, body := a.do("GET", dl, nil, false, true)
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Disposition"), fmt.Sprintf("project-part%d.zip", i+1)) {
			t.Fatalf("estuary: %d %q", resp.StatusCode, resp.Header.Get("Content-Disposition"))
		}
		want, err := sim.ZipBytes(sim.ScenarioMultiZip, 0, i+1)
		if err != nil || !bytes.Equal(body, want) {
			t.Fatalf("zip %d differs from sim.ZipBytes (err %v)", i+1, err)
		}
		if _, err := zip.NewReader(bytes.NewReader(body), int64(len(body))); err != nil {
			t.Fatalf("good zip does not open: %v", err)
		}
	}
}

// openZipEntries reads every entry to the end; it returns the first error.
func openZipEntries(b []byte) (*zip.Reader, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return zr, err
		}
		_, err = io.Copy(io.Discard, rc)
		rc.Close()
		if err != nil {
			return zr, err
		}
	}
	return zr, nil
}

func TestChatGPTArtifactScenariosServeWhatTheyPromise(t *testing.T) {
	for _, tc := range []struct {
		name     string
		scenario string
		mint     int // expected mint status
		estuary  int // expected estuary status (when minted)
		check    func(t *testing.T, body []byte)
	}{
		{"an expired sandbox answers ace_pod_expired", sim.ScenarioSandboxExpired, 404, 0, nil},
		{"estuary answers 403 even with the cookie", sim.ScenarioEstuary403, 200, 403, nil},
		{"a corrupted CRC fails when the entry is read", sim.ScenarioZipBadCRC, 200, 200, func(t *testing.T, b []byte) {
			if _, err := openZipEntries(b); !errors.Is(err, zip.ErrChecksum) {
				t.Fatalf("read entries: %v, want a checksum error", err)
			}
		}},
		{"a truncated zip has no central directory", sim.ScenarioZipTruncated, 200, 200, func(t *testing.T, b []byte) {
			if _, err := zip.NewReader(bytes.NewReader(b), int64(len(b))); err == nil {
				t.Fatal("truncated zip opened")
			}
		}},
		{"a zip-slip entry climbs out of the target", sim.ScenarioZipSlip, 200, 200, func(t *testing.T, b []byte) {
			zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
			if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
				t.Fatal(err)
			}
			if zr == nil || !hasEntry(zr, "../../evil.sh") {
				t.Fatal("no ../../evil.sh entry")
			}
		}},
		{"a bomb has a huge ratio and overlapping entries", sim.ScenarioZipBomb, 200, 200, func(t *testing.T, b []byte) {
			zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatal(err)
			}
			if len(zr.File) != 3 || zr.File[0].UncompressedSize64/uint64(len(b)) < 100 {
				t.Fatalf("files %d, ratio %d", len(zr.File), zr.File[0].UncompressedSize64/uint64(len(b)))
			}
			off0, _ := zr.File[0].DataOffset()
			off1, _ := zr.File[1].DataOffset()
			if off0 != off1 {
				t.Fatal("entries do not overlap")
			}
		}},
		{"a symlink entry points at /etc/passwd", sim.ScenarioZipSymlink, 200, 200, func(t *testing.T, b []byte) {
			zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range zr.File {
				if f.Mode()&fs.ModeSymlink != 0 {
					return
				}
			}
			t.Fatal("no symlink entry")
		}},
		{"a 24 MiB zip streams with a valid CRC", sim.ScenarioCodeZip + " zip_size=24MiB", 200, 200, func(t *testing.T, b []byte) {
			if len(b) < 23<<20 || len(b) > 25<<20 {
				t.Fatalf("size %d, want about 24 MiB", len(b))
			}
			if _, err := openZipEntries(b); err != nil {
				t.Fatalf("read entries: %v", err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newGPTAPI(t)
			dec, resp, _ := a.ask("Build\n[[sim:scenario="+tc.scenario+"]]", "")
			if resp.StatusCode != 200 || !dec.Complete {
				t.Fatalf("ask: %d complete %v", resp.StatusCode, dec.Complete)
			}
			c, _ := a.conversation(dec.ConversationID)
			refs := sandboxRefs(c)
			st, j := a.mint(dec.ConversationID, refs["/mnt/data/project.zip"], "/mnt/data/project.zip", true)
			if st != tc.mint {
				t.Fatalf("mint: %d %v, want %d", st, j, tc.mint)
			}
			if st != 200 {
				if j["error_code"] != "ace_pod_expired" {
					t.Fatalf("mint error %v, want ace_pod_expired", j)
				}
				return
			}
			resp, body := a.do("GET", j["download_url"].(string), nil, false, true)
			if resp.StatusCode != tc.estuary {
				t.Fatalf("estuary: %d, want %d", resp.StatusCode, tc.estuary)
			}
			if tc.check != nil {
				tc.check(t, body)
			}
		})
	}
}

func hasEntry(zr *zip.Reader, name string) bool {
	for _, f := range zr.File {
		if f.Name == name {
			return true
		}
	}
	return false
}

func TestChatGPTEstuaryServesRangesOfALargeZip(t *testing.T) {
	a := newGPTAPI(t)
	dec, _, _ := a.ask(sim.Directive("code_zip", "zip_size", "200MiB"), "")
	c, _ := a.conversation(dec.ConversationID)
	_, j := a.mint(dec.ConversationID, sandboxRefs(c)["/mnt/data/project.zip"], "/mnt/data/project.zip", true)
	dl := j["download_url"].(string)
	req, _ := http.NewRequest("GET", dl, nil)
	req.AddCookie(a.cookie)
	req.Header.Set("Range", "bytes=0-1023")
	resp, err := a.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	head, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	total := resp.Header.Get("Content-Range")
	if resp.StatusCode != 206 || len(head) != 1024 || !strings.HasPrefix(total, "bytes 0-1023/2097") {
		t.Fatalf("range: %d %q len %d", resp.StatusCode, total, len(head))
	}
}

// BenchmarkEstuaryStream200MiB streams a 200 MiB sandbox zip from the
// estuary endpoint over loopback TLS (the simulator's side of artifact
// retrieval), reporting MB/s.
func BenchmarkEstuaryStream200MiB(b *testing.B) {
	a := newGPTAPI(b)
	dec, _, _ := a.ask(sim.Directive("code_zip", "zip_size", "200MiB"), "")
	c, _ := a.conversation(dec.ConversationID)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, j := a.mint(dec.ConversationID, sandboxRefs(c)["/mnt/data/project.zip"], "/mnt/data/project.zip", true)
		req, _ := http.NewRequest("GET", j["download_url"].(string), nil)
		req.AddCookie(a.cookie)
		resp, err := a.client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		h := sha256.New()
		n, err := io.Copy(io.MultiWriter(h, crc32.NewIEEE()), resp.Body)
		resp.Body.Close()
		if err != nil || n != resp.ContentLength {
			b.Fatalf("streamed %d of %d: %v", n, resp.ContentLength, err)
		}
		b.SetBytes(n)
		_ = hex.EncodeToString(h.Sum(nil))
	}
}

func TestChatGPTConversationTooLongEndsTheStreamWithTheErrorFrame(t *testing.T) {
	a := newGPTAPI(t)
	dec, _, _ := a.ask(sim.Directive("conversation_too_long"), "")
	if dec.ErrorCode != "conversation_too_large" || dec.Complete || !dec.Done {
		t.Fatalf("decoded %+v, want error conversation_too_large, no completion, [DONE]", dec)
	}
}

func TestChatGPTStreamCutEndsWithoutCompletion(t *testing.T) {
	a := newGPTAPI(t)
	dec, resp, raw := a.ask(sim.Directive("stream_cut", "chunk", "20"), "")
	if resp.StatusCode != 200 || dec.Complete || dec.Done || len(raw) == 0 {
		t.Fatalf("status %d complete %v done %v bytes %d", resp.StatusCode, dec.Complete, dec.Done, len(raw))
	}
}

// TestChatGPTGeneratedImagesDownloadAsTheSiteServesThem: an image turn's
// tool message holds image_asset_pointer parts; files/{id}/download needs
// the bearer and mints an estuary address that needs the session cookie and
// serves the PNG simimage makes for the file; the final answer is empty.
func TestChatGPTGeneratedImagesDownloadAsTheSiteServesThem(t *testing.T) {
	a := newGPTAPI(t)
	dec, resp, raw := a.ask("Draw a lighthouse "+sim.Directive("image", "size", "300x200"), "")
	if resp.StatusCode != 200 || dec.Answer != "" || !dec.Complete {
		t.Fatalf("image turn: %d, answer %q: %s", resp.StatusCode, dec.Answer, raw)
	}
	_, b := a.do("GET", sim.URL(sim.ChatGPT, "/backend-api/conversation/"+dec.ConversationID), nil, true, true)
	var c struct {
		Mapping map[string]struct {
			Message *struct {
				Author    struct{ Role, Name string }
				Recipient string
				Content   struct {
					ContentType string            `json:"content_type"`
					Parts       []json.RawMessage `json:"parts"`
				}
				Metadata map[string]any
			}
		}
	}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	var file string
	for _, n := range c.Mapping {
		m := n.Message
		if m == nil || m.Author.Role != "tool" || m.Author.Name != "image_gen.text2im" || m.Content.ContentType != "multimodal_text" {
			continue
		}
		var p struct {
			ContentType  string `json:"content_type"`
			AssetPointer string `json:"asset_pointer"`
			Width        int
			Height       int
		}
		if len(m.Content.Parts) != 1 || json.Unmarshal(m.Content.Parts[0], &p) != nil || p.ContentType != "image_asset_pointer" ||
			!strings.HasPrefix(p.AssetPointer, "sediment://file_") || p.Width != 300 || p.Height != 200 || m.Metadata["image_gen_title"] == nil {
			t.Fatalf("image tool message %+v", m)
		}
		file = strings.TrimPrefix(p.AssetPointer, "sediment://")
	}
	if file == "" {
		t.Fatalf("no image tool message in %s", b)
	}
	u := sim.URL(sim.ChatGPT, "/backend-api/files/"+file+"/download")
	if resp, _ := a.do("GET", u, nil, false, true); resp.StatusCode != 401 {
		t.Errorf("files download without the bearer: %d, want 401", resp.StatusCode)
	}
	if resp, _ := a.do("GET", sim.URL(sim.ChatGPT, "/backend-api/files/file_00000000000000000000000000000000/download"), nil, true, true); resp.StatusCode != 404 {
		t.Errorf("an unknown file: %d, want 404", resp.StatusCode)
	}
	resp, b = a.do("GET", u, nil, true, true)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	dl, _ := m["download_url"].(string)
	if resp.StatusCode != 200 || m["status"] != "success" || m["mime_type"] != "image/png" || !strings.HasPrefix(dl, "https://chatgpt.com/backend-api/estuary/content?id="+file+"&") {
		t.Fatalf("files download: %d %s", resp.StatusCode, b)
	}
	if resp, _ := a.do("GET", dl, nil, false, false); resp.StatusCode != 403 {
		t.Errorf("estuary without the cookie: %d, want 403", resp.StatusCode)
	}
	resp, body := a.do("GET", dl, nil, false, true)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || !bytes.Equal(body, simimage.PNG(file, 300, 200)) || m["file_size_bytes"] != float64(len(body)) {
		t.Fatalf("estuary: %d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
	}
}
