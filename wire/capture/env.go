package capture

import (
	"strings"
)

// BaseURLVar is an environment variable through which an agent or SDK
// takes its provider's base URL.
type BaseURLVar struct {
	Name   string
	Suffix string // what follows the proxy's URL in the value ("/v1")
	Who    string // the agents and SDKs that read it
}

// BaseURLVars are the variables record sets, all pointed at the proxy.
var BaseURLVars = []BaseURLVar{
	{"ANTHROPIC_BASE_URL", "", "Claude Code; Anthropic's SDKs (Python, TypeScript, Go)"},
	{"OPENAI_BASE_URL", "/v1", "OpenAI's SDKs (Python 1.x, Node 4+, Go); agents built on them (Codex ignores it)"},
	{"OPENAI_API_BASE", "/v1", "openai-python before 1.0, LangChain, LiteLLM"},
	{"GOOGLE_GEMINI_BASE_URL", "", "Gemini CLI (API-key auth); Google's Gen AI SDK for JavaScript"},
	{"GOOGLE_VERTEX_BASE_URL", "", "Gemini CLI with Vertex AI"},
	{"KIMI_BASE_URL", "/v1", "kimi-cli"},
	{"WIRELENS_PROXY", "", "set by record for scripts: the proxy's URL (for Codex's -c model_providers line)"},
}

// MockKeys are the credentials record --mock sets when the environment has
// none, so that an agent that refuses to start without a key starts; the
// proxy never sends them anywhere.
var MockKeys = []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "KIMI_API_KEY"}

// MockKey is the value of MockKeys.
const MockKey = "wirelens-mock-no-key-needed"

// Env returns environ with every base-URL variable pointed at base (and,
// with mock, a placeholder key for each key variable that is unset).
func Env(environ []string, base string, mock bool) []string {
	set := map[string]string{}
	for _, v := range BaseURLVars {
		set[v.Name] = base + v.Suffix
	}
	if mock {
		have := map[string]bool{}
		for _, kv := range environ {
			if k, v, ok := strings.Cut(kv, "="); ok && v != "" {
				have[k] = true
			}
		}
		for _, k := range MockKeys {
			if !have[k] {
				set[k] = MockKey
			}
		}
		// Gemini CLI sends to GOOGLE_GEMINI_BASE_URL only with API-key
		// auth; signed in with Google it would talk to its own service.
		if !have["GEMINI_DEFAULT_AUTH_TYPE"] {
			set["GEMINI_DEFAULT_AUTH_TYPE"] = "gemini-api-key"
		}
	}
	out := make([]string, 0, len(environ)+len(set))
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := set[k]; !ok {
			out = append(out, kv)
		}
	}
	for _, v := range BaseURLVars {
		out = append(out, v.Name+"="+set[v.Name])
	}
	for _, k := range append(MockKeys, "GEMINI_DEFAULT_AUTH_TYPE") {
		if val, ok := set[k]; ok {
			out = append(out, k+"="+val)
		}
	}
	return out
}

// CodexArgs are the arguments that point Codex (which ignores
// OPENAI_BASE_URL) at the proxy: a model provider of its own, given on the
// command line, speaking the Responses API. They go before Codex's
// subcommand (codex -c ... exec PROMPT).
func CodexArgs(base string) []string {
	return []string{
		"-c", `model_provider="wirelens"`,
		"-c", `model_providers.wirelens={name="wirelens",base_url="` + base + `/v1",wire_api="responses",env_key="OPENAI_API_KEY"}`,
	}
}
