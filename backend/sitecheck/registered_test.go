package sitecheck_test

import _ "github.com/ferrydesk/ferry/backend/provider/all" // the built-in sites and their simulator pages
