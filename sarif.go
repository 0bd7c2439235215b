package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/decode"
	"github.com/wirelens/wirelens/wire/scan"
)

// SARIF 2.1.0 output of `check --sarif`: one run, one rule entry per audit
// rule with its help text, one result per finding located in the source file
// (at the line that holds the flagged text, else the request's line when it
// is line based) and at a logical location naming the request and the
// segment.

const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifInfoURI = "https://github.com/wirelens/wirelens"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	Name                 string             `json:"name"`
	ShortDescription     sarifMessage       `json:"shortDescription"`
	FullDescription      sarifMessage       `json:"fullDescription"`
	Help                 sarifMessage       `json:"help"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
	Properties           sarifRuleProps     `json:"properties"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifRuleProps struct {
	Tags             []string `json:"tags"`
	Precision        string   `json:"precision"`
	SecuritySeverity string   `json:"security-severity"`
	Severity         string   `json:"wirelens-severity"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level     string         `json:"level"`
	Message   sarifMessage   `json:"message"`
	Locations []sarifLocPhys `json:"locations,omitempty"`
}

type sarifLocPhys struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	BaselineState       string            `json:"baselineState,omitempty"`
	Properties          sarifResultProps  `json:"properties"`
}

type sarifResultProps struct {
	Severity string `json:"severity"`
	Request  int    `json:"request"`
	Segment  string `json:"segment"`
	Offset   int    `json:"offset"`
	Excerpt  string `json:"excerpt"`
	// Requests is the first request that carries the finding and how many
	// do, when check lists each distinct finding once.
	Requests *audit.RequestSpan `json:"requests,omitempty"`
	// Tool names the tool of tool-poisoning and tool-changed: its name,
	// MCP server, JSON path or earlier request and diff.
	Tool *audit.FindingTool `json:"tool,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical  `json:"physicalLocation"`
	LogicalLocations []sarifLogical `json:"logicalLocations"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifLogical struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

// sarifLevel maps a severity to a SARIF level.
func sarifLevel(s audit.Severity) string {
	switch s {
	case audit.SeverityHigh:
		return "error"
	case audit.SeverityMedium:
		return "warning"
	}
	return "note"
}

// sarifSecuritySeverity is the score code-scanning tools sort by.
func sarifSecuritySeverity(s audit.Severity) string {
	switch s {
	case audit.SeverityHigh:
		return "8.0"
	case audit.SeverityMedium:
		return "5.0"
	}
	return "3.0"
}

// sarifRuleName is a rule ID in PascalCase ("untrusted-in-system" ->
// "UntrustedInSystem").
func sarifRuleName(id string) string {
	var b strings.Builder
	for _, w := range strings.Split(id, "-") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

// sarifURI makes a source name a URI reference: a relative path stays
// relative, an absolute one becomes a file URI; characters are escaped.
func sarifURI(source string) string {
	if source == "-" {
		return "stdin"
	}
	p := filepath.ToSlash(source)
	if filepath.IsAbs(source) {
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	u := (&url.URL{Path: p}).String()
	// URL.String writes "./" before a first segment with a colon (so it
	// does not read as a scheme); keep it there only.
	if rest, ok := strings.CutPrefix(u, "./"); ok {
		first, _, _ := strings.Cut(rest, "/")
		if !strings.Contains(first, ":") {
			return rest
		}
	}
	return u
}

// sarifRules is the rule table of the driver.
func sarifRules() []sarifRule {
	out := make([]sarifRule, 0, len(audit.Rules))
	for _, r := range audit.Rules {
		precision := "very-high"
		if r.ID == audit.RuleUnwrappedWorkspace || r.ID == audit.RuleVolatileInPrefix {
			precision = "medium"
		}
		out = append(out, sarifRule{
			ID:               r.ID,
			Name:             sarifRuleName(r.ID),
			ShortDescription: sarifMessage{Text: r.Short},
			FullDescription:  sarifMessage{Text: r.Help},
			Help: sarifMessage{Text: r.Help,
				Markdown: "**" + r.ID + "** (" + string(r.Severity) + "): " + r.Help},
			DefaultConfiguration: sarifConfiguration{Level: sarifLevel(r.Severity)},
			Properties: sarifRuleProps{Tags: sarifTags(r.ID), Precision: precision,
				SecuritySeverity: sarifSecuritySeverity(r.Severity), Severity: string(r.Severity)},
		})
	}
	return out
}

// sarifTags are a rule's tags: the tool rules are also "mcp".
func sarifTags(id string) []string {
	if id == audit.RuleToolPoisoning || id == audit.RuleToolChanged {
		return []string{"security", "prompt-injection", "mcp"}
	}
	return []string{"security", "prompt-injection"}
}

// writeSARIF writes findings as a SARIF 2.1.0 log. states, when not nil,
// gives each finding's baselineState (new, unchanged, absent); lines, when
// not nil, the line of its file that holds the flagged text (0 where it was
// not found: the request's line is given instead). Input errors become tool
// execution notifications.
func writeSARIF(w io.Writer, findings []audit.Finding, states []string, errs []error, lines []int) error {
	index := map[string]int{}
	for i, r := range audit.Rules {
		index[r.ID] = i
	}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: "wirelens", Version: programVersion(),
			InformationURI: sarifInfoURI, Rules: sarifRules()}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: len(errs) == 0}},
		Results:     make([]sarifResult, 0, len(findings)),
	}
	for _, err := range errs {
		n := sarifNotification{Level: "error", Message: sarifMessage{Text: scan.VisibleLine(err.Error())}}
		var de *decode.Error
		if errors.As(err, &de) && de.Source != "" {
			loc := sarifLocPhys{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: sarifURI(de.Source)}}}
			if de.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: de.Line}
			}
			n.Locations = []sarifLocPhys{loc}
		}
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications, n)
	}
	for i, f := range findings {
		phys := sarifPhysical{ArtifactLocation: sarifArtifact{URI: sarifURI(f.Source)}}
		line := f.Line
		if i < len(lines) && lines[i] > 0 {
			line = lines[i]
		}
		if line > 0 {
			phys.Region = &sarifRegion{StartLine: line}
		}
		ref := f.Source + "@" + strconv.Itoa(f.Request)
		sum := sha256.Sum256([]byte(f.Key))
		res := sarifResult{
			RuleID:    f.Rule,
			RuleIndex: index[f.Rule],
			Level:     sarifLevel(f.Severity),
			Message:   sarifMessage{Text: f.Message + " [" + f.Excerpt + "]"},
			Locations: []sarifLocation{{
				PhysicalLocation: phys,
				LogicalLocations: []sarifLogical{{Name: f.Segment,
					FullyQualifiedName: scan.VisibleLine(ref) + "/" + f.Segment, Kind: "member"}},
			}},
			PartialFingerprints: map[string]string{"wirelensFinding/v1": hex.EncodeToString(sum[:16])},
			Properties: sarifResultProps{Severity: string(f.Severity), Request: f.Request, Segment: f.Segment,
				Offset: f.Offset, Excerpt: f.Excerpt, Requests: f.Requests, Tool: f.Tool},
		}
		if states != nil && i < len(states) {
			res.BaselineState = states[i]
		}
		run.Results = append(run.Results, res)
	}
	return writeJSON(w, sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}
