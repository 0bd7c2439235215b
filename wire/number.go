package wire

import "strconv"

// GroupDigits writes n with a comma between groups of three digits
// (12,345), as every report and error line that counts does.
func GroupDigits(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
