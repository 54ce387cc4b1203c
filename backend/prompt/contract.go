package prompt

import (
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
)

// Contract is an output contract: what the answer must deliver (the
// record's, as the code receipt keeps it).
type Contract = record.Contract

// The contracts.
const (
	ContractNone   = record.ContractNone
	ContractAssess = record.ContractAssess
	ContractPlan   = record.ContractPlan
	ContractCode   = record.ContractCode
	ContractAll    = record.ContractAll
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

// Authorize returns nil when contract c may run: plan and all, which let
// the model decide the architecture, need authorized to be true, and
// otherwise fail with an AuthorizationRequired envelope naming
// AuthorizationFlag.
func Authorize(c Contract, authorized bool) error {
	if (c != ContractPlan && c != ContractAll) || authorized {
		return nil
	}
	return errs.New(errs.AuthorizationRequired, "the %s contract lets the model decide the architecture and needs %s", c, AuthorizationFlag).
		WithHint("pass %s to confirm, or use --contract code or assess", AuthorizationFlag).
		WithEvidence("flag", AuthorizationFlag).
		WithEvidence("contract", string(c))
}
