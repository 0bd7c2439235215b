package capture

import (
	"slices"
	"strings"

	"github.com/wirelens/wirelens/wire/capture/runca"
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

// ForwardVar is a variable record sets in forward-proxy mode.
type ForwardVar struct {
	Name string
	Who  string // the programs that read it
}

// ForwardVars are the variables that send a child's HTTPS through the
// forward proxy and make it trust the run's CA (in the order set).
var ForwardVars = []ForwardVar{
	{"HTTPS_PROXY", "curl, Go, Python (requests, httpx), Bun, Deno, most CLIs"},
	{"https_proxy", "the same, lower case (curl reads only this one for https)"},
	{"HTTP_PROXY", "plain-HTTP requests of the same programs"},
	{"http_proxy", "the same, lower case"},
	{"ALL_PROXY", "curl and others, any scheme"},
	{"all_proxy", "the same, lower case"},
	{"NO_PROXY", "set to the loopback addresses only, so a base URL on loopback is reached directly"},
	{"no_proxy", "the same, lower case"},
	{"NODE_USE_ENV_PROXY", "Node 24 and later: fetch and http follow HTTPS_PROXY"},
	{"NODE_EXTRA_CA_CERTS", "Node and Bun: the run's CA, added to their roots"},
	{"SSL_CERT_FILE", "OpenSSL, Go, Rust's native roots, Python's ssl: the system's roots plus the run's CA"},
	{"REQUESTS_CA_BUNDLE", "Python requests: the same bundle"},
	{"CURL_CA_BUNDLE", "curl: the same bundle"},
	{"GIT_SSL_CAINFO", "git over HTTPS: the same bundle"},
}

// noProxy is NO_PROXY in forward mode: loopback only.
const noProxy = "localhost,127.0.0.1,::1"

// ForwardEnv returns environ with the forward proxy's variables set (any
// earlier value replaced): every proxy variable at proxy, the CA's
// certificate and bundle for the programs that read them.
func ForwardEnv(environ []string, proxy string, ca *runca.CA) []string {
	set := map[string]string{}
	for _, v := range ForwardVars {
		switch strings.ToUpper(v.Name) {
		case "HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY":
			set[v.Name] = proxy
		case "NO_PROXY":
			set[v.Name] = noProxy
		case "NODE_USE_ENV_PROXY":
			set[v.Name] = "1"
		case "NODE_EXTRA_CA_CERTS":
			set[v.Name] = ca.CertFile
		default:
			set[v.Name] = ca.BundleFile
		}
	}
	out := make([]string, 0, len(environ)+len(set))
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := set[k]; !ok {
			out = append(out, kv)
		}
	}
	for _, v := range ForwardVars {
		out = append(out, v.Name+"="+set[v.Name])
	}
	return out
}

// MockEnv returns environ with, for a --mock run, a placeholder key for
// each key variable that is unset (and Gemini CLI on API-key auth), for a
// run that sets no base-URL variable (--intercept).
func MockEnv(environ []string) []string {
	have := map[string]bool{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && v != "" {
			have[k] = true
		}
	}
	out := slices.Clone(environ)
	for _, k := range MockKeys {
		if !have[k] {
			out = append(out, k+"="+MockKey)
		}
	}
	if !have["GEMINI_DEFAULT_AUTH_TYPE"] {
		out = append(out, "GEMINI_DEFAULT_AUTH_TYPE=gemini-api-key")
	}
	return out
}

// SetEnv returns environ with each KEY=VALUE of add set (replacing any
// earlier value).
func SetEnv(environ, add []string) []string {
	set := map[string]bool{}
	for _, kv := range add {
		k, _, _ := strings.Cut(kv, "=")
		set[k] = true
	}
	out := make([]string, 0, len(environ)+len(add))
	for _, kv := range environ {
		if k, _, _ := strings.Cut(kv, "="); !set[k] {
			out = append(out, kv)
		}
	}
	return append(out, add...)
}
