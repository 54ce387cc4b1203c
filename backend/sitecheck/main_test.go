package sitecheck_test

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/provider/providertest"
)

func TestMain(m *testing.M) { providertest.Main(m) }
