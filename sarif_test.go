package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wirelens/wirelens/wire/audit"
)

// sarifSchemaChecker validates a JSON document against the vendored SARIF
// 2.1.0 schema (JSON Schema draft-04). It implements the keywords that schema
// uses and refuses any other, so a schema it cannot fully check fails the
// test instead of passing silently.
type sarifSchemaChecker struct {
	root map[string]any
	errs []string
}

func sarifLoadSchema(t *testing.T) *sarifSchemaChecker {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "sarif", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	root, ok := sarifDecode(t, raw).(map[string]any)
	if !ok {
		t.Fatal("schema is not an object")
	}
	return &sarifSchemaChecker{root: root}
}

// sarifDecode decodes JSON keeping numbers exact.
func sarifDecode(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	return v
}

func (c *sarifSchemaChecker) fail(path, format string, args ...any) {
	c.errs = append(c.errs, path+": "+fmt.Sprintf(format, args...))
}

// resolve follows a "#/definitions/name" reference.
func (c *sarifSchemaChecker) resolve(ref string) map[string]any {
	name, ok := strings.CutPrefix(ref, "#/definitions/")
	if !ok {
		return nil
	}
	defs, _ := c.root["definitions"].(map[string]any)
	s, _ := defs[name].(map[string]any)
	return s
}

// valid reports whether v validates against s without recording errors.
func (c *sarifSchemaChecker) valid(v any, s map[string]any, path string) bool {
	saved := c.errs
	c.errs = nil
	c.check(v, s, path)
	ok := len(c.errs) == 0
	c.errs = saved
	return ok
}

func sarifTypeOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

func sarifTypeMatches(v any, want string) bool {
	got := sarifTypeOf(v)
	return got == want || want == "number" && got == "integer"
}

func (c *sarifSchemaChecker) check(v any, s map[string]any, path string) {
	for k, kv := range s {
		switch k {
		case "description", "title", "default", "$schema", "id":
		case "$ref":
			target := c.resolve(kv.(string))
			if target == nil {
				c.fail(path, "unresolvable $ref %v", kv)
				continue
			}
			c.check(v, target, path)
		case "type":
			switch tv := kv.(type) {
			case string:
				if !sarifTypeMatches(v, tv) {
					c.fail(path, "type %s, want %s", sarifTypeOf(v), tv)
				}
			case []any:
				ok := false
				for _, t := range tv {
					ok = ok || sarifTypeMatches(v, t.(string))
				}
				if !ok {
					c.fail(path, "type %s, want one of %v", sarifTypeOf(v), tv)
				}
			}
		case "enum":
			ok := false
			for _, e := range kv.([]any) {
				ok = ok || fmt.Sprint(e) == fmt.Sprint(v) && sarifTypeOf(e) == sarifTypeOf(v)
			}
			if !ok {
				c.fail(path, "%v not in enum %v", v, kv)
			}
		case "properties":
			if obj, ok := v.(map[string]any); ok {
				for name, ps := range kv.(map[string]any) {
					if pv, ok := obj[name]; ok {
						c.check(pv, ps.(map[string]any), path+"."+name)
					}
				}
			}
		case "required":
			if obj, ok := v.(map[string]any); ok {
				for _, name := range kv.([]any) {
					if _, ok := obj[name.(string)]; !ok {
						c.fail(path, "required property %q missing", name)
					}
				}
			}
		case "additionalProperties":
			obj, ok := v.(map[string]any)
			if !ok {
				continue
			}
			props, _ := s["properties"].(map[string]any)
			for name, pv := range obj {
				if _, declared := props[name]; declared {
					continue
				}
				switch ap := kv.(type) {
				case bool:
					if !ap {
						c.fail(path, "property %q not allowed", name)
					}
				case map[string]any:
					c.check(pv, ap, path+"."+name)
				}
			}
		case "items":
			if arr, ok := v.([]any); ok {
				for i, it := range arr {
					c.check(it, kv.(map[string]any), fmt.Sprintf("%s[%d]", path, i))
				}
			}
		case "minItems":
			n, _ := kv.(json.Number).Int64()
			if arr, ok := v.([]any); ok && int64(len(arr)) < n {
				c.fail(path, "%d items, want at least %d", len(arr), n)
			}
		case "uniqueItems":
			if arr, ok := v.([]any); ok && kv.(bool) {
				seen := map[string]bool{}
				for _, it := range arr {
					b, _ := json.Marshal(it)
					if seen[string(b)] {
						c.fail(path, "duplicate item %s", b)
					}
					seen[string(b)] = true
				}
			}
		case "minimum", "maximum":
			num, ok := v.(json.Number)
			if !ok {
				continue
			}
			f, _ := num.Float64()
			lim, _ := kv.(json.Number).Float64()
			if k == "minimum" && f < lim || k == "maximum" && f > lim || math.IsNaN(f) {
				c.fail(path, "%v out of range (%s %v)", f, k, lim)
			}
		case "pattern":
			str, ok := v.(string)
			if !ok {
				continue
			}
			re, err := regexp.Compile(kv.(string))
			if err != nil {
				c.fail(path, "schema pattern %q: %v", kv, err)
			} else if !re.MatchString(str) {
				c.fail(path, "%q does not match %q", str, kv)
			}
		case "format":
			str, ok := v.(string)
			if !ok {
				continue
			}
			switch kv {
			case "uri":
				if u, err := url.Parse(str); err != nil || u.Scheme == "" {
					c.fail(path, "%q is not an absolute URI", str)
				}
			case "uri-reference":
				if _, err := url.Parse(str); err != nil || strings.ContainsAny(str, " \\") {
					c.fail(path, "%q is not a URI reference", str)
				}
			case "date-time":
				if _, err := time.Parse(time.RFC3339, str); err != nil {
					c.fail(path, "%q is not a date-time", str)
				}
			default:
				c.fail(path, "unknown format %v", kv)
			}
		case "anyOf", "oneOf":
			n := 0
			for _, alt := range kv.([]any) {
				if c.valid(v, alt.(map[string]any), path) {
					n++
				}
			}
			if n == 0 || k == "oneOf" && n != 1 {
				c.fail(path, "%s: %d alternatives match", k, n)
			}
		case "definitions":
		default:
			c.fail(path, "schema keyword %q not supported by this checker", k)
		}
	}
}

// sarifValidate validates a document and returns the errors.
func sarifValidate(t *testing.T, doc []byte) []string {
	t.Helper()
	c := sarifLoadSchema(t)
	c.check(sarifDecode(t, doc), c.root, "$")
	return c.errs
}

func TestCheckSARIFSchemaChecker(t *testing.T) {
	good := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[]}]}`
	if errs := sarifValidate(t, []byte(good)); len(errs) != 0 {
		t.Errorf("minimal log: %v", errs)
	}
	for _, bad := range []string{
		`{"version":"2.0.0","runs":[]}`,
		`{"runs":[]}`,
		`{"version":"2.1.0","runs":[{"tool":{}}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"level":"fatal"}]}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"ruleIndex":-2}]}]}`,
		`{"version":"2.1.0","extra":1,"runs":[]}`,
	} {
		if errs := sarifValidate(t, []byte(bad)); len(errs) == 0 {
			t.Errorf("invalid log passed: %s", bad)
		}
	}
}

func TestCheckSARIF(t *testing.T) {
	legacy := buildToFile(t, "legacy", "--layout", "legacy")
	session := filepath.Join("testdata", "check", "session.jsonl")
	code, out, _ := runCLI(t, "", "check", "--sarif", legacy, session)
	if code != 2 { // session.jsonl has a bad line
		t.Errorf("exit %d, want 2", code)
	}
	if errs := sarifValidate(t, []byte(out)); len(errs) != 0 {
		t.Fatalf("SARIF does not validate against the 2.1.0 schema:\n%s", strings.Join(errs, "\n"))
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("version %q, %d runs", log.Version, len(log.Runs))
	}
	run := log.Runs[0]
	if len(run.Tool.Driver.Rules) != len(audit.Rules) {
		t.Fatalf("%d rules, want %d", len(run.Tool.Driver.Rules), len(audit.Rules))
	}
	for i, r := range run.Tool.Driver.Rules {
		if r.ID != audit.Rules[i].ID || r.Help.Text != audit.Rules[i].Help || r.ShortDescription.Text == "" {
			t.Errorf("rule %d: %+v", i, r)
		}
	}
	// The same findings as --json, in the same order.
	_, jout, _ := runCLI(t, "", "check", "--json", legacy, session)
	doc := checkDecodeJSON(t, jout)
	if len(run.Results) != len(doc.Findings) || len(run.Results) == 0 {
		t.Fatalf("%d results, %d findings", len(run.Results), len(doc.Findings))
	}
	for i, res := range run.Results {
		f := doc.Findings[i]
		if res.RuleID != f.Rule || run.Tool.Driver.Rules[res.RuleIndex].ID != f.Rule {
			t.Errorf("result %d: rule %s index %d, finding %s", i, res.RuleID, res.RuleIndex, f.Rule)
		}
		loc := res.Locations[0]
		if loc.PhysicalLocation.ArtifactLocation.URI != sarifURI(f.Source) || len(loc.LogicalLocations) != 1 ||
			loc.LogicalLocations[0].Name != f.Segment ||
			loc.LogicalLocations[0].FullyQualifiedName != fmt.Sprintf("%s@%d/%s", f.Source, f.Request, f.Segment) {
			t.Errorf("result %d location %+v for finding %+v", i, loc, f)
		}
		want := map[audit.Severity]string{"high": "error", "medium": "warning", "low": "note"}[f.Severity]
		if res.Level != want {
			t.Errorf("result %d level %s, want %s", i, res.Level, want)
		}
		if f.Source == session && (loc.PhysicalLocation.Region == nil || loc.PhysicalLocation.Region.StartLine != 2) {
			t.Errorf("result %d: JSONL finding should point at line 2: %+v", i, loc.PhysicalLocation.Region)
		}
	}
	inv := run.Invocations[0]
	if inv.ExecutionSuccessful || len(inv.ToolExecutionNotifications) != 1 ||
		!strings.Contains(inv.ToolExecutionNotifications[0].Message.Text, "invalid JSON") {
		t.Errorf("invocation %+v", inv)
	}

	// --before/--after: baseline states, still valid.
	isolated := buildToFile(t, "isolated", "--layout", "isolated")
	code, out, _ = runCLI(t, "", "check", "--sarif", "--before", legacy, "--after", isolated)
	if code != 0 {
		t.Errorf("before/after exit %d", code)
	}
	if errs := sarifValidate(t, []byte(out)); len(errs) != 0 {
		t.Fatalf("before/after SARIF invalid:\n%s", strings.Join(errs, "\n"))
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	for _, res := range log.Runs[0].Results {
		if res.BaselineState != "absent" {
			t.Errorf("the fix leaves only absent results, got %q for %s", res.BaselineState, res.RuleID)
		}
	}
	if len(log.Runs[0].Results) == 0 {
		t.Error("no absent results for the fixed findings")
	}
}

func TestCheckSARIFURI(t *testing.T) {
	for in, want := range map[string]string{
		"req.json":        "req.json",
		"dir/a b.json":    "dir/a%20b.json",
		"-":               "stdin",
		"/abs/x#1.jsonl":  "file:///abs/x%231.jsonl",
		"./rel/req.json":  "rel/req.json",
		"we:ird/req.json": "we:ird/req.json",
	} {
		got := sarifURI(in)
		if in == "we:ird/req.json" {
			// A colon in the first segment would read as a scheme; it must not.
			if u, err := url.Parse(got); err != nil || u.Scheme != "" {
				t.Errorf("sarifURI(%q) = %q reads as scheme %q", in, got, u.Scheme)
			}
			continue
		}
		if got != want {
			t.Errorf("sarifURI(%q) = %q, want %q", in, got, want)
		}
	}
}
