package prompt

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// TemplateStore keeps user templates by name. The store package provides
// the badger-backed implementation; MemoryStore is the reference one.
type TemplateStore interface {
	// Get returns the named template, or a TemplateNotFound envelope.
	Get(ctx context.Context, name string) (Template, error)
	// List returns every template, sorted by name.
	List(ctx context.Context) ([]Template, error)
	// Put validates t (TemplateInvalid when it fails), stamps UpdatedAt and
	// stores it, replacing a template of the same name.
	Put(ctx context.Context, t Template) (Template, error)
	// Delete removes the named template, or returns TemplateNotFound.
	Delete(ctx context.Context, name string) error
}

// MemoryStore is a TemplateStore in memory, safe for concurrent use.
type MemoryStore struct {
	mu  sync.RWMutex
	m   map[string]Template
	now func() time.Time
}

// NewMemoryStore returns an empty store.
func NewMemoryStore() *MemoryStore { return &MemoryStore{m: map[string]Template{}, now: time.Now} }

// Get implements TemplateStore.
func (s *MemoryStore) Get(ctx context.Context, name string) (Template, error) {
	if err := ctx.Err(); err != nil {
		return Template{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, ok := s.m[name]
	if !ok {
		return Template{}, errs.New(errs.TemplateNotFound, "no template named %q", name).WithEvidence("template", name)
	}
	return clone(t), nil
}

// List implements TemplateStore.
func (s *MemoryStore) List(ctx context.Context) ([]Template, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Template, 0, len(s.m))
	for _, t := range s.m {
		out = append(out, clone(t))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Put implements TemplateStore.
func (s *MemoryStore) Put(ctx context.Context, t Template) (Template, error) {
	if err := ctx.Err(); err != nil {
		return Template{}, err
	}
	if err := t.Validate(); err != nil {
		return Template{}, err
	}
	t = clone(t)
	t.UpdatedAt = s.now().UTC()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[t.Name] = t
	return clone(t), nil
}

// Delete implements TemplateStore.
func (s *MemoryStore) Delete(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[name]; !ok {
		return errs.New(errs.TemplateNotFound, "no template named %q", name).WithEvidence("template", name)
	}
	delete(s.m, name)
	return nil
}

func clone(t Template) Template {
	t.Vars = append([]Var(nil), t.Vars...)
	return t
}

var _ TemplateStore = (*MemoryStore)(nil)
