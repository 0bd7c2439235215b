package capture

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/wirelens/wirelens/wire/capture/runca"
)

// Recipes: what each known agent needs, beyond the environment record sets
// for every command, to send its requests where record can see them. A
// recipe applies when the program's name (the command's first word, its
// directory and a .exe dropped) is one of Programs; `record --explain`
// prints what it applies. A recipe never writes outside the run's
// temporary folder and never edits the user's own files: a configuration
// file it needs is written there and passed by a variable or an argument.

// BaseURLMode says when an agent follows the base-URL variables (with its
// recipe), which makes record's base-URL mode its default.
type BaseURLMode int

const (
	// BaseURLNever: the agent takes no base URL record can give it: the
	// forward proxy (with the run's CA) is its default.
	BaseURLNever BaseURLMode = iota
	// BaseURLAlways: the agent follows a base-URL variable or its recipe.
	BaseURLAlways
	// BaseURLMock: only the recipe's --mock steps point the agent at the
	// proxy (they replace the user's own provider, which a forwarded run
	// must keep): base-URL mode with --mock, the forward proxy without.
	BaseURLMock
)

// Recipe is what one agent needs.
type Recipe struct {
	Agent    string   // the agent's name
	Programs []string // the program names it is started by
	BaseURL  BaseURLMode
	Steps    []RecipeStep
	// Note is said by --explain (what the agent reads, where it stores
	// its configuration, what to do by hand where record cannot).
	Note string
}

// RecipeStep is one thing a recipe does. In Args, Env values and File
// content, {{base}} is the proxy's URL (http://127.0.0.1:PORT), {{dir}} the
// run's temporary folder, {{key}} the placeholder key of --mock runs and
// {{now}} the time (RFC 3339, UTC, milliseconds).
type RecipeStep struct {
	// Mock: only with --mock (the step replaces the agent's provider).
	Mock bool
	// Routing: the step points the agent at the proxy; left out with
	// --intercept, where the agent talks to its own hosts.
	Routing bool
	// Args go before the user's arguments (Codex wants its -c options
	// before the subcommand), unless the user gave UnlessArg.
	Args      []string
	UnlessArg string
	// Env is KEY=VALUE, set only where the user's environment has no
	// value for KEY.
	Env []string
	// File is written into the run's folder (mode 0600; a folder in its
	// name is made, 0700) and its path put in FileEnv (unless the user set
	// that variable), or its folder's with FileEnvDir; with no FileEnv the
	// step's Args name it ({{dir}}/FILE).
	File, FileContent, FileEnv string
	FileEnvDir                 bool
	// Why is said by --explain.
	Why string
}

// Recipes is the table.
var Recipes = []Recipe{
	{
		Agent: "Claude Code", Programs: []string{"claude"}, BaseURL: BaseURLAlways,
		Note: "follows ANTHROPIC_BASE_URL; nothing else is needed",
	},
	{
		Agent: "Gemini CLI", Programs: []string{"gemini"}, BaseURL: BaseURLAlways,
		Note: "follows GOOGLE_GEMINI_BASE_URL with API-key auth (record --mock sets GEMINI_DEFAULT_AUTH_TYPE=gemini-api-key); it reads GEMINI.md only in a trusted folder (GEMINI_CLI_TRUST_WORKSPACE=true)",
	},
	{
		Agent: "kimi-cli", Programs: []string{"kimi"}, BaseURL: BaseURLAlways,
		Note: "follows KIMI_BASE_URL and OPENAI_BASE_URL",
	},
	{
		Agent: "Codex", Programs: []string{"codex"}, BaseURL: BaseURLAlways,
		Steps: []RecipeStep{{
			Routing: true,
			Args: []string{"-c", `model_provider="wirelens"`,
				"-c", `model_providers.wirelens={name="wirelens",base_url="{{base}}/v1",wire_api="responses",env_key="OPENAI_API_KEY"}`},
			Why: "Codex ignores OPENAI_BASE_URL and follows a model provider of its configuration: one is given on its command line, before the subcommand",
		}},
		Note: "started another way (a wrapper, npx), give it the same -c options with $WIRELENS_PROXY",
	},
	{
		Agent: "qwen-code", Programs: []string{"qwen"}, BaseURL: BaseURLMock,
		Steps: []RecipeStep{{
			Mock: true,
			Args: []string{"--auth-type", "openai"}, UnlessArg: "--auth-type",
			Why: "qwen-code exits in a fresh HOME with \"No auth type is selected\"; with OpenAI auth it follows OPENAI_BASE_URL and OPENAI_API_KEY, which record sets (with --intercept it goes to DashScope, intercepted)",
		}},
		Note: "without --mock it keeps the auth type of ~/.qwen/settings.json (Qwen OAuth talks to portal.qwen.ai, intercepted by the forward proxy); give --auth-type openai yourself to send it through OPENAI_BASE_URL",
	},
	{
		Agent: "cline", Programs: []string{"cline"}, BaseURL: BaseURLMock,
		Steps: []RecipeStep{
			{
				Env: []string{"CLINE_SESSION_BACKEND_MODE=local"},
				Why: "cline otherwise starts a hub daemon (cline --cline-hub-daemon, on a fixed port shared by every cline of the user) that outlives the run",
			},
			{
				Mock: true, Routing: true,
				File:        "cline-providers.json",
				FileEnv:     "CLINE_PROVIDER_SETTINGS_PATH",
				FileContent: `{"version":1,"lastUsedProvider":"openai-native","modes":{},"providers":{"openai-native":{"settings":{"provider":"openai-native","apiKey":"{{key}}","model":"gpt-5","baseUrl":"{{base}}/v1"},"updatedAt":"{{now}}","tokenSource":"manual"}}}` + "\n",
				Why:         "cline reads none of the base-URL variables: its provider settings live in ~/.cline/data/settings/providers.json (what `cline auth -p openai-native -k KEY -b URL` writes); record writes one of its own for the run and points CLINE_PROVIDER_SETTINGS_PATH at it, your own file untouched (a provider entry without updatedAt is ignored, and cline falls back to its own gateway)",
			},
		},
		Note: "without --mock cline keeps your provider (its default, Cline's gateway api.cline.bot, is intercepted by the forward proxy)",
	},
	{
		Agent: "pi", Programs: []string{"pi"}, BaseURL: BaseURLMock,
		Steps: []RecipeStep{{
			Mock: true, Routing: true,
			Args: []string{"--extension", "{{dir}}/pi-wirelens.js"},
			File: "pi-wirelens.js",
			FileContent: "export default function (pi) {\n" +
				`  pi.registerProvider("anthropic", { baseUrl: "{{base}}" });` + "\n" +
				`  pi.registerProvider("openai", { baseUrl: "{{base}}/v1" });` + "\n}\n",
			Why: "pi takes no base-URL variable: its providers' base URLs live in ~/.pi/agent/models.json; record writes a pi extension in the run's folder that points its Anthropic and OpenAI providers at the proxy (pi.registerProvider) and loads it with --extension, so pi still reads the rest of ~/.pi/agent (its AGENTS.md, skills and settings: what it sends is what it would send)",
		}},
		Note: "without --mock pi keeps its own providers and talks to their hosts, intercepted by the forward proxy",
	},
	{
		Agent: "opencode", Programs: []string{"opencode"}, BaseURL: BaseURLAlways,
		Steps: []RecipeStep{{
			Mock: true, Routing: true,
			Env: []string{`OPENCODE_CONFIG_CONTENT={"provider":{"anthropic":{"options":{"baseURL":"{{base}}/v1"}},"openai":{"options":{"baseURL":"{{base}}/v1"}}},"autoupdate":false,"share":"disabled"}`},
			Why: "opencode follows ANTHROPIC_BASE_URL through its SDK; its inline configuration (OPENCODE_CONFIG_CONTENT, merged over ~/.config/opencode/opencode.json and the project's) pins the Anthropic and OpenAI providers to the proxy and turns its update check off",
		}},
		Note: "its model catalogue is fetched from models.dev (refused with --mock: it falls back to the one it ships)",
	},
}

// ProgramName is the name a recipe is matched by: the command's base name,
// without .exe.
func ProgramName(arg0 string) string {
	return strings.TrimSuffix(filepath.Base(arg0), ".exe")
}

// RecipeFor is the recipe of a program (nil when none is known).
func RecipeFor(arg0 string) *Recipe {
	name := ProgramName(arg0)
	for i := range Recipes {
		if slices.Contains(Recipes[i].Programs, name) {
			return &Recipes[i]
		}
	}
	return nil
}

// Applied is what a recipe did for one run.
type Applied struct {
	Args  []string
	Env   []string // KEY=VALUE
	Files []string // written in the run's folder
	Said  []string // what --explain says, one line each
}

// Apply works out r's steps for a run: base is the proxy's URL, dir the
// run's temporary folder (files are written there unless dryRun), environ
// the user's environment, args the user's arguments. intercept leaves the
// routing steps out.
func (r *Recipe) Apply(base, dir string, environ, args []string, mock, intercept, dryRun bool) (Applied, error) {
	var a Applied
	if r == nil {
		return a, nil
	}
	have := map[string]bool{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && v != "" {
			have[k] = true
		}
	}
	expand := func(s string) string {
		return strings.NewReplacer("{{base}}", base, "{{dir}}", dir, "{{key}}", MockKey,
			"{{now}}", time.Now().UTC().Format("2006-01-02T15:04:05.000Z")).Replace(s)
	}
	for _, st := range r.Steps {
		if (st.Mock && !mock) || (st.Routing && intercept) {
			continue
		}
		if st.UnlessArg != "" && slices.ContainsFunc(args, func(s string) bool {
			return s == st.UnlessArg || strings.HasPrefix(s, st.UnlessArg+"=")
		}) {
			a.Said = append(a.Said, fmt.Sprintf("not adding %s: you gave %s", strings.Join(st.Args, " "), st.UnlessArg))
			continue
		}
		var did []string
		for _, s := range st.Args {
			a.Args = append(a.Args, expand(s))
		}
		if len(st.Args) > 0 {
			did = append(did, "arguments "+strings.Join(a.Args[len(a.Args)-len(st.Args):], " "))
		}
		for _, kv := range st.Env {
			k, v, _ := strings.Cut(kv, "=")
			if have[k] {
				a.Said = append(a.Said, fmt.Sprintf("not setting %s: your environment has one", k))
				continue
			}
			a.Env = append(a.Env, k+"="+expand(v))
			did = append(did, k+"="+expand(v))
		}
		if st.File != "" {
			if st.FileEnv != "" && have[st.FileEnv] {
				a.Said = append(a.Said, fmt.Sprintf("not writing %s: your environment sets %s", st.File, st.FileEnv))
				continue
			}
			path := filepath.Join(dir, filepath.FromSlash(st.File))
			if !dryRun {
				err := os.MkdirAll(filepath.Dir(path), 0o700)
				if err == nil {
					err = runca.WriteNew(path, []byte(expand(st.FileContent)))
				}
				if err != nil {
					return a, fmt.Errorf("%s's recipe: %v", r.Agent, err)
				}
			}
			val := path
			if st.FileEnvDir {
				val = filepath.Dir(path)
			}
			a.Files = append(a.Files, path)
			if st.FileEnv == "" {
				did = append(did, fmt.Sprintf("%s written for the run: %s", filepath.Base(path), strings.TrimSpace(expand(st.FileContent))))
			} else {
				a.Env = append(a.Env, st.FileEnv+"="+val)
				did = append(did, fmt.Sprintf("%s=%s (%s written for the run: %s)", st.FileEnv, val, filepath.Base(path), strings.TrimSpace(expand(st.FileContent))))
			}
		}
		if len(did) > 0 {
			a.Said = append(a.Said, strings.Join(did, "; ")+": "+st.Why)
		}
	}
	return a, nil
}
