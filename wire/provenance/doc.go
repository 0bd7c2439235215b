// Package provenance decides a segment's trust by where its text came from:
// an Index of the text that could reach the wire from a workspace (its text
// files, the entry names a listing shows) and from the user's own agent
// files in HOME (HomeFiles), kept as hashes of normalised lines, never the
// text. Apply finds runs of indexed lines in a request's host and user
// segments and cuts each run into a segment of its own: untrusted and
// labelled by the file's path for the workspace, trust user for HOME.
//
// An Index is built from disk (Build) or read back from the record that
// `wirelens record` writes at the top of a capture (Record, ParseRecord), so
// a capture is judged by provenance with no workspace on disk.
package provenance
