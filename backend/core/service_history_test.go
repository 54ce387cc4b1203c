package core

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestEveryFaceFiltersTheHistoryByTool(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, c := openTestService(t, ctx)
	desk := service.Owner(service.FaceDesktop)
	repo, err := c.History(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []job.Session{
		{ID: "plain", Site: "chatgpt", Prompt: "tides", State: job.StateDone},
		{ID: "web", Site: "chatgpt", Prompt: "tides today", ToolRequested: "web-search", State: job.StateDone},
	} {
		if _, err := repo.Create(ctx, &r); err != nil {
			t.Fatal(err)
		}
	}
	search := func(tool string) ([]string, error) {
		page, err := s.SearchHistory(ctx, desk, service.HistoryQuery{Tool: tool})
		var ids []string
		for _, h := range page.Hits {
			ids = append(ids, h.ID+"="+h.Tool)
		}
		return ids, err
	}
	t.Run("a built-in tool and none each keep their runs", func(t *testing.T) {
		if got, err := search("web-search"); err != nil || strings.Join(got, ",") != "web=web-search" {
			t.Fatalf("web-search: %v %v", got, err)
		}
		if got, err := search("none"); err != nil || strings.Join(got, ",") != "plain=" {
			t.Fatalf("none: %v %v", got, err)
		}
	})
	t.Run("the listing of the faces filters the same", func(t *testing.T) {
		list, err := s.ListSessions(ctx, desk, service.SessionQuery{Tool: "none"})
		if err != nil || len(list) != 1 || list[0].ID != "plain" {
			t.Fatalf("listed %+v %v", list, err)
		}
	})
	t.Run("a search's tool: word filters as the filter does", func(t *testing.T) {
		found, err := s.SearchSessions(ctx, desk, service.SearchRequest{Query: "tides tool:web-search"})
		if err != nil || len(found) != 1 || found[0].ID != "web" {
			t.Fatalf("found %+v %v", found, err)
		}
	})
	t.Run("an unknown tool is bad input naming the tools there are", func(t *testing.T) {
		_, err := search("canvas")
		if !errs.Has(err, errs.BadInput) || !strings.Contains(errs.From(err).Message, "none, deep-research, image, web-search") {
			t.Fatalf("canvas: %v", err)
		}
	})
}
