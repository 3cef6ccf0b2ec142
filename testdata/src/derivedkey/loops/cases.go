package loops

import (
	"strings"
	"time"
)

// Every exported func CaseX() is measured by the oracle test, and every
// func ResultX() string must return the same before and after the fixes.

var (
	batch = &Batch{secret: "secret", region: "us-east-1", date: time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)}
	msgs  = []string{"alpha", "beta", "gamma"}
	dates = []time.Time{batch.date, batch.date.AddDate(0, 0, 1), batch.date.AddDate(0, 0, 2)}
)

func CaseSignAll() { batch.SignAll(msgs) }

func ResultSignAll() string { return strings.Join(batch.SignAll(msgs), ",") }

func CaseSignOnce() { batch.SignOnce(msgs[0]) }

func CaseNewRequest() { batch.NewRequest(msgs[0]) }

func CaseSignAllSeparately() { batch.SignAllSeparately(msgs, dates) }

func ResultSignAllSeparately() string {
	return strings.Join(batch.SignAllSeparately(msgs, dates), ",")
}

func CaseSignNow() { batch.SignNow(msgs) }

func CaseSignServices() { batch.SignServices(msgs) }

func ResultSignServices() string { return strings.Join(batch.SignServices(msgs), ",") }

// The oracle follows static calls only: the case calls Sign itself, and
// the result signs through the interface.
func CaseSign() { (&deriving{"secret", "us-east-1", batch.date}).Sign(msgs[0]) }

func ResultSignThrough() string {
	return strings.Join(SignThrough(&deriving{"secret", "us-east-1", batch.date}, msgs), ",")
}
