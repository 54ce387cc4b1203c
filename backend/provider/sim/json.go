package sim

import "github.com/ferrydesk/ferry/backend/provider/sim/simjson"

// The frames' ordered JSON (package simjson).
type (
	Obj = simjson.Obj
	KV  = simjson.KV
)

// O, PyJSON and CompactJSON are simjson's.
var (
	O           = simjson.O
	PyJSON      = simjson.PyJSON
	CompactJSON = simjson.CompactJSON
)
