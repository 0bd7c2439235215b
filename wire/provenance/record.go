package provenance

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/wirelens/wirelens/wire"
)

// RecordKey is the one key of a capture's provenance record: the first line
// of a capture `wirelens record` writes,
//
//	{"wirelens_provenance":{"version":1,"root":"/abs/work","home":"/abs/home",
//	  "files":[{"path":"AGENTS.md","size":626,"source":"workspace","kind":"agents-md",
//	            "lines":"<16 hex digits a line>...","values":"...","front_matter":0}],
//	  "names":"<16 hex digits a name>...","notes":[...]}}
//
// holding, per file, its path, size and the hashes of its lines (never the
// text), so that later commands judge the capture by provenance with no
// workspace on disk. Readers that do not know it skip it.
const RecordKey = "wirelens_provenance"

// recordVersion is the version written; a reader refuses a later one.
const recordVersion = 1

type recordJSON struct {
	Version int        `json:"version"`
	Root    string     `json:"root"`
	Home    string     `json:"home,omitempty"`
	Files   []fileJSON `json:"files"`
	Names   string     `json:"names,omitempty"`
	Notes   []string   `json:"notes,omitempty"`
}

type fileJSON struct {
	Path        string `json:"path"`
	Size        int64  `json:"size"`
	Source      Source `json:"source"`
	Kind        string `json:"kind"`
	Lines       string `json:"lines"`
	Values      string `json:"values,omitempty"`
	FrontMatter int    `json:"front_matter,omitempty"`
}

// Record is x as the one-line JSON record (newline included) that a
// capture starts with.
func (x *Index) Record() []byte {
	rec := recordJSON{Version: recordVersion, Root: x.Root, Home: x.Home, Names: hashesHex(x.Names), Notes: x.Notes}
	for _, f := range x.Files {
		rec.Files = append(rec.Files, fileJSON{Path: f.Path, Size: f.Size, Source: f.Source, Kind: string(f.Kind),
			Lines: hashesHex(f.Lines), Values: hashesHex(f.Values), FrontMatter: f.FrontMatter})
	}
	var b bytes.Buffer
	b.WriteString(`{"` + RecordKey + `":`)
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		panic(err) // strings and numbers only: cannot fail
	}
	b.Truncate(b.Len() - 1)
	b.WriteString("}\n")
	return b.Bytes()
}

// IsRecord reports whether a capture's first line is a provenance record.
func IsRecord(line []byte) bool {
	line = bytes.TrimLeft(bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")), " \t")
	rest, ok := bytes.CutPrefix(line, []byte(`{"`+RecordKey+`"`))
	return ok && len(bytes.TrimLeft(rest, " \t")) > 0 && bytes.TrimLeft(rest, " \t")[0] == ':'
}

// Bounds on a record read back: it is as hostile as the capture it heads.
const (
	maxRecordFiles = MaxFiles * 2
	maxRecordLines = 4 << 20
)

// ParseRecord reads a provenance record back into an Index.
func ParseRecord(line []byte) (*Index, error) {
	var wrap map[string]json.RawMessage
	if err := json.Unmarshal(line, &wrap); err != nil {
		return nil, fmt.Errorf("provenance record: %v", err)
	}
	var rec recordJSON
	if err := json.Unmarshal(wrap[RecordKey], &rec); err != nil {
		return nil, fmt.Errorf("provenance record: %v", err)
	}
	if rec.Version < 1 || rec.Version > recordVersion {
		return nil, fmt.Errorf("provenance record: version %d not known (this wirelens reads %d)", rec.Version, recordVersion)
	}
	if len(rec.Files) > maxRecordFiles {
		return nil, fmt.Errorf("provenance record: %d files, more than %d", len(rec.Files), maxRecordFiles)
	}
	x := &Index{Root: rec.Root, Home: rec.Home, Notes: rec.Notes}
	total := 0
	var err error
	if x.Names, err = parseHashes(rec.Names); err != nil {
		return nil, fmt.Errorf("provenance record: names: %v", err)
	}
	for i, f := range rec.Files {
		src := f.Source
		if src != Workspace && src != Home {
			return nil, fmt.Errorf("provenance record: file %d: source %q is neither workspace nor home", i+1, f.Source)
		}
		kind := wire.Kind(f.Kind)
		switch kind {
		case wire.KindAgentsMD, wire.KindSkillLoaded, wire.KindSkillsListing, wire.KindOther:
		default:
			return nil, fmt.Errorf("provenance record: file %d: kind %q not known", i+1, f.Kind)
		}
		file := File{Path: f.Path, Size: f.Size, Source: src, Kind: kind, FrontMatter: f.FrontMatter}
		if file.Lines, err = parseHashes(f.Lines); err != nil {
			return nil, fmt.Errorf("provenance record: file %d: lines: %v", i+1, err)
		}
		if file.Values, err = parseHashes(f.Values); err != nil {
			return nil, fmt.Errorf("provenance record: file %d: values: %v", i+1, err)
		}
		if total += len(file.Lines); total > maxRecordLines {
			return nil, fmt.Errorf("provenance record: more than %d lines", maxRecordLines)
		}
		x.Files = append(x.Files, file)
	}
	x.finish()
	return x, nil
}

// hashesHex writes hashes as 16 hex digits each, one after the other.
func hashesHex(hs []Hash) string {
	raw := make([]byte, 0, 8*len(hs))
	for _, h := range hs {
		raw = binary.BigEndian.AppendUint64(raw, uint64(h))
	}
	return hex.EncodeToString(raw)
}

// parseHashes reads hashesHex's output.
func parseHashes(s string) ([]Hash, error) {
	if len(s)%16 != 0 {
		return nil, errors.New("not a whole number of 16-digit hashes")
	}
	raw, err := hex.DecodeString(s)
	if err != nil {
		return nil, errors.New("not hexadecimal")
	}
	out := make([]Hash, 0, len(raw)/8)
	for k := 0; k+8 <= len(raw); k += 8 {
		out = append(out, Hash(binary.BigEndian.Uint64(raw[k:])))
	}
	return out, nil
}
