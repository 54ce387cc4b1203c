package record

// Contract is an output contract: what the answer of a code run must
// deliver (prompt composes and checks them).
type Contract string

// The contracts.
const (
	// ContractNone asks for nothing in particular and checks nothing.
	ContractNone Contract = "none"
	// ContractAssess asks for a DIAGNOSIS and exactly one ruling.
	ContractAssess Contract = "assess"
	// ContractPlan asks for a TASK_PLAN whose steps each name a file
	// boundary and a live proof.
	ContractPlan Contract = "plan"
	// ContractCode asks for a unified diff or a non-empty zip.
	ContractCode Contract = "code"
	// ContractAll runs assess, plan and code in order on the same tab,
	// stopping at the first missing deliverable.
	ContractAll Contract = "all"
)

// Steps is the ordered list of single contracts a run goes through: the
// three of all, in order, or the contract itself.
func (c Contract) Steps() []Contract {
	if c == ContractAll {
		return []Contract{ContractAssess, ContractPlan, ContractCode}
	}
	return []Contract{c}
}
