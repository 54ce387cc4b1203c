package sourcetab

import (
	"errors"
	"reflect"
	"testing"
)

func TestPlaceFindsEachFileAmongTheNewEntries(t *testing.T) {
	cases := []struct {
		name                 string
		names, shown, before []string
		renames              bool
		want                 []int
	}{
		{"each name at its entry, whatever the order", []string{"a.md", "b.txt"}, []string{"b.txt", "a.md"}, nil, false, []int{1, 0}},
		{"an entry there before proves nothing", []string{"a.md"}, []string{"a.md"}, []string{"a.md"}, false, []int{-1}},
		{"a second entry of the same name is the new one", []string{"a.md"}, []string{"a.md", "a.md"}, []string{"a.md"}, false, []int{1}},
		{"the site's rename counts only where the site renames", []string{"a.md"}, []string{"a(1).md"}, nil, false, []int{-1}},
		{"the site's rename of a name it holds", []string{"a.md"}, []string{"a.md", "a(2).md"}, []string{"a.md"}, true, []int{1}},
		{"an exact name wins over a rename", []string{"a.md", "a(1).md"}, []string{"a(1).md", "a.md"}, nil, true, []int{1, 0}},
		{"one entry serves one name", []string{"a.md", "a.md"}, []string{"a.md"}, nil, true, []int{0, -1}},
		{"a missing file", []string{"c.pdf"}, []string{"a.md"}, nil, true, []int{-1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := place(c.names, c.shown, c.before, c.renames); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("place(%v, %v, %v) = %v, want %v", c.names, c.shown, c.before, got, c.want)
			}
		})
	}
}

func TestRenameOfIsOnlyStemNumberExtension(t *testing.T) {
	for _, c := range []struct {
		s, name string
		want    bool
	}{
		{"notes(1).md", "notes.md", true},
		{"notes(12).md", "notes.md", true},
		{"notes().md", "notes.md", false},
		{"notes(x).md", "notes.md", false},
		{"notes(1).txt", "notes.md", false},
		{"Makefile(1)", "Makefile", true},
		{"notes.md", "notes.md", false},
	} {
		if got := renameOf(c.s, c.name); got != c.want {
			t.Errorf("renameOf(%q, %q) = %v, want %v", c.s, c.name, got, c.want)
		}
	}
}

func TestFreshCountsTheTextsShownBefore(t *testing.T) {
	got := fresh([]string{"x", "y", "x"}, []string{"x"})
	if !reflect.DeepEqual(got, []string{"y", "x"}) {
		t.Fatalf("fresh = %v", got)
	}
}

func TestARefusalIsTheFileItQuotesElseOneWithoutATile(t *testing.T) {
	names := []string{"a.md", "aa.md", "b.md"}
	cases := []struct {
		name     string
		words    string
		at       []int
		verdicts []error
		want     int
	}{
		{"the longest name quoted", "Unable to upload aa.md: file is too large", []int{0, -1, 1}, make([]error, 3), 1},
		{"a name quoted once decided is no more", "Unable to upload aa.md: file is too large", []int{0, -1, 1}, []error{nil, errAlready, nil}, 0},
		{"words quoting none go to the first without a tile", "Something went wrong", []int{0, 1, -1}, make([]error, 3), 2},
		{"none when every file has a tile", "Something went wrong", []int{0, 1, 2}, make([]error, 3), -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := refusedFile(c.words, names, c.at, c.verdicts); got != c.want {
				t.Fatalf("refusedFile(%q) = %d, want %d", c.words, got, c.want)
			}
		})
	}
}

var errAlready = errors.New("decided")
