package wire

// SafeJSON rewrites every hazard ScanHazards finds in a JSON text (bidi
// controls, C1 controls, tag characters, invisible characters inside string
// values) as \u escapes. The JSON means exactly the same to a parser, and
// printing it to a terminal shows nothing raw. Every JSON report goes
// through it.
func SafeJSON(b []byte) []byte { return encEscapeHazards(b) }
