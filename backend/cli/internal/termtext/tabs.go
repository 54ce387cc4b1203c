package termtext

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

// Tabs prints the browser's tabs as a table: TargetID, the site and
// state inferred from the tab's address, its title and its address.
func Tabs(w io.Writer, list []service.Tab) error {
	if len(list) == 0 {
		_, err := fmt.Fprintln(w, "no open tabs")
		return err
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TARGETID\tSITE\tSTATE\tTITLE\tURL")
	for _, t := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.TargetID, dash(t.Site), dash(t.State), dash(Printable(t.Title, 50)), safetext.Line(t.URL))
	}
	return tw.Flush()
}

// TabAction prints what an action on tab id did: that it closed it, or
// the tab's state and address.
func TabAction(w io.Writer, id string, res service.TabActionResult) error {
	if res.Closed {
		_, err := fmt.Fprintf(w, "closed %s\n", id)
		return err
	}
	_, err := fmt.Fprintf(w, "%s\t%s\t%s\n", id, dash(string(res.Tab.State)), safetext.Line(res.Tab.URL))
	return err
}
