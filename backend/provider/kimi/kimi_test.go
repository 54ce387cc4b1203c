package kimi_test

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/kimi"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
)

func TestMain(m *testing.M) { providertest.Main(m) }

func factory(env provider.Env) (provider.Adapter, error) { return kimi.New(env) }

func TestConformance(t *testing.T) {
	providertest.Run(t, kimi.ID, factory, providertest.Config{})
}
