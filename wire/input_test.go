package wire

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenInputReadsRegularFiles: a regular file, and a link to one, is
// read to its end.
func TestOpenInputReadsRegularFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "req.json")
	if err := os.WriteFile(path, []byte(`{"model":"m"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(path, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for _, p := range []string{path, link} {
		f, err := OpenInput(p, MaxInputBytes)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		b, err := io.ReadAll(f)
		f.Close()
		if err != nil || string(b) != `{"model":"m"}` || f.Stat().Size() != 13 {
			t.Errorf("%s: read %q, %v, size %d", p, b, err, f.Stat().Size())
		}
	}
}

// TestOpenInputLimit: a file of exactly the limit is read whole; one byte
// more is a *TooLargeError that names the limit, and stays one.
func TestOpenInputLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(path, []byte(strings.Repeat("x", 2048)), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := OpenInput(path, 2048)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(f); err != nil || len(b) != 2048 {
		t.Errorf("at the limit: read %d bytes, %v", len(b), err)
	}
	f.Close()

	f, err = OpenInput(path, 1024)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	var tl *TooLargeError
	if len(b) != 1024 || !errors.As(err, &tl) || tl.Limit != 1024 {
		t.Fatalf("past the limit: read %d bytes, %v", len(b), err)
	}
	if !strings.Contains(err.Error(), "larger than 1 KiB") {
		t.Errorf("message %q does not name the limit", err)
	}
	if n, err := f.Read(make([]byte, 10)); n != 0 || !errors.As(err, &tl) {
		t.Errorf("a read after the limit: %d, %v", n, err)
	}
}

// TestOpenInputRefusesDirectories: a directory is a *NotRegularError
// inside a *fs.PathError.
func TestOpenInputRefusesDirectories(t *testing.T) {
	dir := t.TempDir()
	_, err := OpenInput(dir, MaxInputBytes)
	var pe *fs.PathError
	var nr *NotRegularError
	if !errors.As(err, &pe) || !errors.As(err, &nr) || pe.Err.Error() != "is a directory, not a file" {
		t.Fatalf("got %v", err)
	}
	if _, err := OpenInput(filepath.Join(dir, "missing"), MaxInputBytes); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing file: %v", err)
	}
}

func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{
		MaxInputBytes: "4 GiB", 1 << 20: "1 MiB", 1024: "1 KiB", 1536: "1536 bytes", 7: "7 bytes", 3 << 40: "3 TiB",
	} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}
