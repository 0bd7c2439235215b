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

// TestInternBytes: InternBytes gives what Intern gives for the same text
// (the held copy and the same hash), whichever of the two met it first, and
// a copy of its own for a text not held.
func TestInternBytes(t *testing.T) {
	in := NewInterner()
	held, h := in.Intern(string([]byte("tool result")))
	got, gh := in.InternBytes([]byte("tool result"))
	if unsafe.StringData(got) != unsafe.StringData(held) || gh != h {
		t.Errorf("InternBytes of a held text: %q %x, want the held copy and %x", got, gh, h)
	}
	b := []byte("new text")
	first, fh := in.InternBytes(b)
	b[0] = 'N' // the caller's buffer is reused: the held text must be a copy
	again, ah := in.Intern("new text")
	if first != "new text" || unsafe.StringData(again) != unsafe.StringData(first) || fh != ah || fh != HashText("new text") {
		t.Errorf("InternBytes of a new text: %q, then Intern %q (hashes %x %x)", first, again, fh, ah)
	}
	var none *Interner
	if s, hh := none.InternBytes([]byte("x")); s != "x" || hh != HashText("x") {
		t.Errorf("a nil interner: %q %x", s, hh)
	}
}
