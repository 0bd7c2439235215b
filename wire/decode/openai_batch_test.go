package decode

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/provenance"
)

// batchFixture is a file of testdata/batch (line shapes from OpenAI's Batch
// guide, testdata/batch/README.md).
func batchFixture(name string) string { return filepath.Join("..", "..", "testdata", "batch", name) }

// An OpenAI Batch input file is read line by line, each line a request of
// the body format its url names, with its custom_id in a note.
func TestDecodeOpenAIBatchInput(t *testing.T) {
	cases := []struct {
		file     string
		format   wire.Format
		endpoint string
		model    string
		ids      []string
		first    []wantPart
	}{
		{"chat-input.jsonl", wire.FormatOpenAIChat, "/v1/chat/completions", "gpt-3.5-turbo-0125", []string{"request-1", "request-2"},
			[]wantPart{
				{id: "messages[0]", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted, text: "You are a helpful assistant."},
				{id: "messages[1]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "Hello world!"},
			}},
		{"responses-input.jsonl", wire.FormatOpenAIResponses, "/v1/responses", "gpt-4.1-mini", []string{"task-0", "task-1"},
			[]wantPart{
				{id: "instructions", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted, text: "Classify the sentiment of the review as positive, negative or neutral."},
				{id: "input", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "The battery lasts all day and the screen is sharp."},
			}},
	}
	for _, c := range cases {
		for _, opts := range []Options{{}, {Format: wire.FormatOpenAIBatch}} {
			reqs, errs := decodeAll(t, batchFixture(c.file), opts)
			if len(errs) > 0 || len(reqs) != len(c.ids) {
				t.Fatalf("%s (format %q): %d requests, errors %v", c.file, opts.Format, len(reqs), errs)
			}
			for i, r := range reqs {
				want := []string{"OpenAI Batch custom_id: " + c.ids[i]}
				if i == 0 { // a plain system prompt: its trust is assumed, said once
					want = append(want, provenance.AssumedNote)
				}
				if r.Format != c.format || r.Model != c.model || r.Endpoint != c.endpoint || r.Line != i+1 || !slices.Equal(r.Notes, want) {
					t.Errorf("%s@%d: format %q model %q endpoint %q line %d notes %q", c.file, i+1, r.Format, r.Model, r.Endpoint, r.Line, r.Notes)
				}
				checkUsage(t, r, nil)
			}
			checkParts(t, reqs[0], c.first)
		}
	}
}

// An output file holds responses: one error for the whole file, not one a
// line, and no request.
func TestDecodeOpenAIBatchOutput(t *testing.T) {
	for _, opts := range []Options{{}, {Format: wire.FormatOpenAIBatch}, {Format: wire.FormatOpenAIChat}} {
		reqs, errs := decodeAll(t, batchFixture("chat-output.jsonl"), opts)
		want := batchFixture("chat-output.jsonl") + ": an OpenAI Batch output file holds responses, not requests: read the batch's input file (lines of custom_id, method, url and body)"
		if len(reqs) != 0 || len(errs) != 1 || errs[0].Error() != want {
			t.Errorf("format %q: %d requests, errors %v; want one error %q", opts.Format, len(reqs), errs, want)
		}
	}
	// A failed line has a null response and an error: an output line too.
	in := `{"id": "batch_req_1", "custom_id": "r1", "response": null, "error": {"code": "batch_expired", "message": "This request could not be executed before the completion window expired."}}
{"id": "batch_req_2", "custom_id": "r2", "response": {"status_code": 200, "body": {"usage": {"prompt_tokens": 3}}}, "error": null}
`
	got := runDecodeErrs(t, in, Options{Source: "out.jsonl"})
	if len(got) != 1 || !strings.HasPrefix(got[0], "out.jsonl: an OpenAI Batch output file holds responses, not requests") {
		t.Errorf("errors %q", got)
	}
}

// Lines for an endpoint with no body format read here (embeddings) are
// skipped, said once for the file; a line that is not a batch line, given
// --format openai-batch, is one error.
func TestDecodeOpenAIBatchSkipped(t *testing.T) {
	reqs, errs := decodeAll(t, batchFixture("embeddings-input.jsonl"), Options{})
	want := batchFixture("embeddings-input.jsonl") + `:1: OpenAI Batch: lines for "/v1/embeddings" are skipped: only /v1/chat/completions and /v1/responses bodies are read`
	if len(reqs) != 0 || len(errs) != 1 || errs[0].Error() != want {
		t.Errorf("%d requests, errors %v; want one error %q", len(reqs), errs, want)
	}
	in := `{"model": "gpt", "messages": [{"role": "user", "content": "hi"}]}
{"custom_id": "x", "method": "GET", "url": "/v1/chat/completions", "body": {"messages": []}}
{"custom_id": "y", "url": "/v1/chat/completions", "body": "{}"}
`
	got := runDecodeErrs(t, in, Options{Source: "b.jsonl", Format: wire.FormatOpenAIBatch})
	wantErrs := []string{
		"b.jsonl:1: not an OpenAI Batch line (looked for custom_id and body)",
		`b.jsonl:2: OpenAI Batch: request "x" is a GET, not a POST`,
		`b.jsonl:3: OpenAI Batch: the body of request "y" is a JSON string, not an object`,
	}
	if !slices.Equal(got, wantErrs) {
		t.Errorf("errors\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantErrs, "\n"))
	}
}

// openai-batch is one of the formats --format takes.
func TestDecodeFormatsHasOpenAIBatch(t *testing.T) {
	if !slices.Contains(Formats(), wire.FormatOpenAIBatch) {
		t.Errorf("Formats() %v lacks openai-batch", Formats())
	}
}

func runDecodeErrs(t *testing.T, in string, opts Options) []string {
	t.Helper()
	var errs []string
	for _, err := range Decode(strings.NewReader(in), opts) {
		if err != nil {
			errs = append(errs, err.Error())
		}
	}
	return errs
}
