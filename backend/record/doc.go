// Package record declares the records of Ferry's runs, once each: a run and
// its journal, the events it reports, the answer with its proof, the
// receipts of code runs and retrievals, search hits, the artifacts library
// and the tabs' states. The pipeline that writes a record (job, provider,
// codemode, artifact, tabs, search), the store that keeps it and the
// service layer that carries it to every face use the same Go type, most
// under an alias of their own (job.Session and service.Run are Run).
//
// The JSON form of a record is its stored form and its wire form alike: the
// store reads back records written by earlier versions, and the CLI's
// --json output prints them as they are. A field is renamed or retyped only
// with a migration; testdata/ holds the form of every record with each of
// its fields set, and the tests fail when a record changes it.
//
// The package is a leaf (it imports errs and redact only), so that a face
// that imports the service layer pulls in no browser, store or site code.
package record
