package assemble

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/wirelens/wirelens/wire"
)

// MCPServer is an MCP server a workspace configures for an agent.
type MCPServer struct {
	Name string // as configured (hostile text)
	File string // the configuration file, relative to the workspace
}

// mcpConfig is one file where an agent keeps a workspace's MCP servers, and
// the member of its top-level object that holds them by name.
type mcpConfig struct {
	path   string
	member string // "" for a TOML file's [mcp_servers.NAME] tables
}

// mcpConfigs are the workspace files of the agents' MCP servers (each
// agent's documentation of its configuration): Claude Code's .mcp.json,
// Cursor's .cursor/mcp.json, VS Code's .vscode/mcp.json, Gemini CLI's and
// qwen-code's settings.json, Codex's .codex/config.toml, opencode's
// opencode.json(c). Cline keeps its servers in the editor's own storage
// (cline_mcp_settings.json), outside the workspace.
var mcpConfigs = []mcpConfig{
	{".mcp.json", "mcpServers"},
	{".cursor/mcp.json", "mcpServers"},
	{".vscode/mcp.json", "servers"},
	{".gemini/settings.json", "mcpServers"},
	{".qwen/settings.json", "mcpServers"},
	{".codex/config.toml", ""},
	{"opencode.json", "mcp"},
	{"opencode.jsonc", "mcp"},
	{".opencode/opencode.json", "mcp"},
	{".opencode/opencode.jsonc", "mcp"},
}

// maxMCPConfigBytes caps the read of one configuration file.
const maxMCPConfigBytes = 1 << 20

// MCPServers lists the MCP servers the workspace d configures, in the order
// of mcpConfigs and of each file. A file that is missing is skipped; one
// that cannot be read or parsed is an error naming it (and its line), and
// the others are still read.
func MCPServers(d Dir) ([]MCPServer, []error) {
	var out []MCPServer
	var errs []error
	for _, c := range mcpConfigs {
		data, err := readConfig(d, c.path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", c.path, err))
			continue
		}
		var names []string
		if c.member == "" {
			names = tomlServers(data)
		} else if names, err = jsonServers(data, c.member); err != nil {
			errs = append(errs, fmt.Errorf("%s:%s", c.path, err.Error()))
			continue
		}
		for _, n := range names {
			if !slices.ContainsFunc(out, func(s MCPServer) bool { return s.Name == n }) {
				out = append(out, MCPServer{Name: n, File: c.path})
			}
		}
	}
	return out, errs
}

// readConfig reads a regular file of d (links followed inside d only),
// capped.
func readConfig(d Dir, name string) ([]byte, error) {
	if _, err := fs.Lstat(d.FS, name); errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	real, fi, err := resolve(d.FS, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	f, err := d.FS.Open(real)
	if err != nil {
		return nil, errors.New(wire.OSErrorReason(err))
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxMCPConfigBytes+1))
	if err != nil {
		return nil, errors.New(wire.OSErrorReason(err))
	}
	if len(data) > maxMCPConfigBytes {
		return nil, fmt.Errorf("larger than %d bytes", maxMCPConfigBytes)
	}
	return data, nil
}

// jsonServers is the names of the members of the top-level object's member
// (JSON with comments, as opencode.jsonc and VS Code allow). An error
// starts with the line it is on (" 3: ...").
func jsonServers(data []byte, member string) ([]string, error) {
	clean := stripJSONComments(data)
	var top map[string]jsontext.Value
	if err := json.Unmarshal(clean, &top); err != nil {
		line := 1
		var se *jsontext.SyntacticError
		if errors.As(err, &se) && se.ByteOffset <= int64(len(clean)) {
			line += bytes.Count(clean[:se.ByteOffset], []byte("\n"))
		}
		return nil, fmt.Errorf("%d: invalid JSON", line)
	}
	v, ok := top[member]
	if !ok || v.Kind() != '{' {
		return nil, nil
	}
	// In the file's order (v is an object, checked whole by the Unmarshal
	// above: duplicate names included).
	dec := jsontext.NewDecoder(bytes.NewReader(v))
	var names []string
	if _, err := dec.ReadToken(); err != nil {
		return nil, nil
	}
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			break
		}
		names = append(names, tok.String())
		if err := dec.SkipValue(); err != nil {
			break
		}
	}
	return names, nil
}

// stripJSONComments blanks // and /* */ comments outside strings (with
// spaces, keeping offsets and lines) and drops trailing commas' effect by
// leaving them: the parser reports those.
func stripJSONComments(data []byte) []byte {
	if !bytes.Contains(data, []byte("//")) && !bytes.Contains(data, []byte("/*")) {
		return data
	}
	out := bytes.Clone(data)
	inStr := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for i < len(out) && out[i] != '\n' {
				out[i] = ' '
				i++
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			for i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/') {
				if out[i] != '\n' {
					out[i] = ' '
				}
				i++
			}
			if i+1 < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		}
	}
	return out
}

// tomlServers is the NAMEs of a TOML file's [mcp_servers.NAME] tables
// (Codex's config.toml): a bare or quoted key, sub-tables
// ([mcp_servers.NAME.env]) counted once.
func tomlServers(data []byte) []string {
	var names []string
	for _, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(t, "[mcp_servers.")
		if !ok {
			continue
		}
		var name string
		if strings.HasPrefix(rest, `"`) {
			end := strings.Index(rest[1:], `"`)
			if end < 0 {
				continue
			}
			if n, err := strconv.Unquote(rest[:end+2]); err == nil {
				name = n
			} else {
				name = rest[1 : end+1]
			}
		} else {
			end := strings.IndexAny(rest, ".]")
			if end < 0 {
				continue
			}
			name = strings.TrimSpace(rest[:end])
		}
		if name != "" && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names
}

// MCPServerNames is the names of servers.
func MCPServerNames(servers []MCPServer) []string {
	out := make([]string, len(servers))
	for i, s := range servers {
		out[i] = s.Name
	}
	return out
}
