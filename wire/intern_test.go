package wire

import (
	"strconv"
	"testing"
	"unsafe"
)

// TestInternerIsBounded: a stream of distinct texts (a million tiny
// requests share nothing) never holds more than maxInterned of them, and a
// text repeated after the map started again is shared again.
func TestInternerIsBounded(t *testing.T) {
	defer func(n int) { maxInterned = n }(maxInterned)
	maxInterned = 1000
	in := NewInterner()
	for i := 0; i < 5000; i++ {
		in.Intern("ping " + strconv.Itoa(i))
		if in.Held() > maxInterned {
			t.Fatalf("after %d texts the interner holds %d, more than %d", i+1, in.Held(), maxInterned)
		}
	}
	if in.Len() != 5000 {
		t.Errorf("Len %d, want the 5000 texts interned", in.Len())
	}
	a, _ := in.Intern(string([]byte("ping 4999")))
	b, _ := in.Intern(string([]byte("ping 4999")))
	if unsafe.StringData(a) != unsafe.StringData(b) {
		t.Error("a text the map holds is not shared")
	}
}
