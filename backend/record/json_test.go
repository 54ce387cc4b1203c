package record

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// fill sets every exported field reachable from v to a value that is not
// its zero, so that the JSON form of the result shows every field.
func fill(t *testing.T, v reflect.Value, depth int) {
	if depth > 20 {
		t.Fatalf("%s nests too deep to fill", v.Type())
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(9)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(t, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(t, s.Index(0), depth+1)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(t, k, depth+1)
		fill(t, e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(t, v.Field(i), depth+1)
			}
		}
	default:
		t.Fatalf("fill does not know a %s", v.Kind())
	}
}

// golden is testdata/name compacted: the JSON form the record had when
// the pipeline and the service still declared it twice (the store holds
// records in it, the CLI's --json prints it).
func golden(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// roundTrip decodes want into a new T, refusing a field T lacks, and
// reports whether encoding it again gives want to the byte.
func roundTrip[T any](t *testing.T, want []byte) {
	t.Helper()
	var v T
	dec := json.NewDecoder(bytes.NewReader(want))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%T cannot read its stored form: %v", v, err)
	}
	got, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%T writes back another form:\n got %s\nwant %s", v, got, want)
	}
}

// sameForm checks that a T with every field set encodes as testdata/name,
// and that testdata/name reads back into T and encodes the same.
func sameForm[T any](name string) func(*testing.T) {
	return func(t *testing.T) {
		want := golden(t, name)
		var v T
		fill(t, reflect.ValueOf(&v).Elem(), 0)
		got, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%T with every field set has another form than %s:\n got %s\nwant %s", v, name, got, want)
		}
		roundTrip[T](t, want)
	}
}

func TestEveryRecordKeepsItsJSONForm(t *testing.T) {
	t.Run("a run as the service showed it", sameForm[Run]("run.json"))
	t.Run("a journal entry", sameForm[JournalEntry]("journal_entry.json"))
	t.Run("a run event with its partial and finding", sameForm[Event]("event.json"))
	t.Run("a listed run with its hit", sameForm[Listed]("listed.json"))
	t.Run("an answer with its proof", sameForm[Result]("result.json"))
	t.Run("a code receipt", sameForm[CodeReceipt]("code_receipt.json"))
	t.Run("a retrieve receipt", sameForm[RetrieveReceipt]("retrieve_receipt.json"))
	t.Run("an artifact of the library", sameForm[ArtifactItem]("artifact_item.json"))
	t.Run("a tab with its readiness", sameForm[TabState]("tab_state.json"))
}

func TestARunStoredBeforeTheRecordsWereOneReadsBackAsItWas(t *testing.T) {
	// session.json is a run as the store wrote it: the form of the service
	// without what only a face fills (an artifact's File).
	roundTrip[Run](t, golden(t, "session.json"))
}
