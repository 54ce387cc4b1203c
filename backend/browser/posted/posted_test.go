package posted

import (
	"strings"
	"testing"
)

func TestAReplyToAPostedCallIsKnownByItsID(t *testing.T) {
	big := `{"id":-7,"result":{"data":"` + strings.Repeat("A", 8192) + `"}}`
	for _, c := range []struct {
		name string
		msg  string
		id   int32
		ok   bool
	}{
		{"a large reply by the id it begins with", big, -7, true},
		{"a small reply with the id elsewhere", `{"result":{},"id":-12}`, -12, true},
		{"the most negative id", `{"id":-2147483648,"result":{}}`, -1 << 31, true},
		{"not an id past int32", `{"id":-2147483649,"result":{}}`, 0, false},
		{"not a reply to rod", `{"id":12,"result":{}}`, 0, false},
		{"not an event", `{"method":"Network.dataReceived","params":{"id":-3}}`, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			id, ok := postedID([]byte(c.msg))
			if ok != c.ok || id != c.id {
				t.Fatalf("id %d %v", id, ok)
			}
		})
	}
}
