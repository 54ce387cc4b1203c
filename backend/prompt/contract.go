package prompt

import (
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Contract is an output contract: what the answer must deliver.
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

// AuthorizationFlag is the CLI flag that allows the plan and all contracts,
// which let the model decide the architecture of the change.
const AuthorizationFlag = "--architecture-authorized"

// Contracts lists every contract in the order the CLI documents them.
func Contracts() []Contract {
	return []Contract{ContractCode, ContractAssess, ContractPlan, ContractAll, ContractNone}
}

// ParseContract accepts a contract name (case-insensitive); anything else is
// a BadInput envelope listing the valid names.
func ParseContract(s string) (Contract, error) {
	c := Contract(strings.ToLower(strings.TrimSpace(s)))
	for _, k := range Contracts() {
		if c == k {
			return c, nil
		}
	}
	names := make([]string, 0, 5)
	for _, k := range Contracts() {
		names = append(names, string(k))
	}
	return "", errs.New(errs.BadInput, "unknown output contract %q", s).
		WithHint("use --contract with one of: %s", strings.Join(names, ", "))
}

// NeedsAuthorization reports whether the contract may only run with
// AuthorizationFlag.
func (c Contract) NeedsAuthorization() bool { return c == ContractPlan || c == ContractAll }

// Authorize returns nil when the contract may run: plan and all need
// authorized to be true, and otherwise fail with an AuthorizationRequired
// envelope naming AuthorizationFlag.
func (c Contract) Authorize(authorized bool) error {
	if !c.NeedsAuthorization() || authorized {
		return nil
	}
	return errs.New(errs.AuthorizationRequired, "the %s contract lets the model decide the architecture and needs %s", c, AuthorizationFlag).
		WithHint("pass %s to confirm, or use --contract code or assess", AuthorizationFlag).
		WithEvidence("flag", AuthorizationFlag).
		WithEvidence("contract", string(c))
}

// Steps is the ordered list of single contracts a run goes through: the
// three of all, in order, or the contract itself.
func (c Contract) Steps() []Contract {
	if c == ContractAll {
		return []Contract{ContractAssess, ContractPlan, ContractCode}
	}
	return []Contract{c}
}
