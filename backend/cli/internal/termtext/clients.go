package termtext

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

// Clients prints the paired clients as a table, revoked ones included.
func Clients(w io.Writer, list []service.ClientInfo) error {
	if len(list) == 0 {
		_, err := fmt.Fprintln(w, "no paired clients")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tAUTO-APPROVE\tEXISTING-CONVERSATIONS\tPAIRED\tREVOKED")
	for _, c := range list {
		revoked := "-"
		if c.RevokedAt != nil {
			revoked = c.RevokedAt.Local().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(tw, "%s\t%s\t%t\t%t\t%s\t%s\n", safetext.Line(c.ID), safetext.Line(c.Name), c.AutoApprove, c.ExistingConversations, c.CreatedAt.Local().Format("2006-01-02 15:04"), revoked)
	}
	return tw.Flush()
}

// Folders prints the folders client info may attach files from (or that
// it may attach none).
func Folders(w io.Writer, info service.ClientInfo) error {
	if len(info.FileRoots) == 0 {
		_, err := fmt.Fprintf(w, "client %s (%s) may attach no file: no folder is allowed\n", safetext.Line(info.ID), safetext.Line(info.Name))
		return err
	}
	fmt.Fprintf(w, "client %s (%s) may attach files under:\n", safetext.Line(info.ID), safetext.Line(info.Name))
	for _, r := range info.FileRoots {
		if _, err := fmt.Fprintf(w, "  %s\n", safetext.Line(r)); err != nil {
			return err
		}
	}
	return nil
}
