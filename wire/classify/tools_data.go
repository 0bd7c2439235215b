package classify

// The data of tools.go: how each agent names the tools of MCP servers on the
// wire, and the tools each agent ships. Adding an agent is adding rows here
// (and a capture that judges them), not code. Read from each agent's own
// source on 2026-12-01:
//   - Claude Code: MCP tools are "mcp__<server>__<tool>" (its documentation
//     of permissions and hooks names them so).
//   - Codex (codex-rs, mcp_connection_manager.rs): "mcp__<server>__<tool>",
//     the delimiter "__"; 0.169 names a server's deferred namespace
//     "mcp__<server>" (its capture in testdata/agents), whose tools the
//     Responses decoder names "<namespace>.<tool>": "mcp__<server>.<tool>".
//   - Gemini CLI (packages/core/src/tools/mcp-tool.ts, 2026-08):
//     generateValidName gives every MCP tool the prefix "mcp_" and joins
//     server and tool with "_" ("mcp_<server>_<tool>", the server being
//     the text up to the first "_"); tools listed by the workspace's tool
//     discovery command are "discovered_tool_<name>" (tool-names.ts).
//     Releases before the prefix sent the tool's own name, and
//     "<server>__<tool>" for the second server with the same tool name.
//   - qwen-code (packages/core/src/tools/mcp-tool.ts): "mcp__<server>__<tool>".
//   - opencode (packages/opencode/src/mcp/index.ts): "<server>_<tool>", both
//     with every character outside [A-Za-z0-9_-] made "_", and no prefix:
//     only the agent's list of its own tools, or the servers a workspace
//     configures (--workspace), tell them from opencode's.
//   - cline: with native tool calls (its SDK, captured on 2026-12-01 in
//     /work/captures/cline*.jsonl by wirelens record), "<server>__<tool>",
//     no prefix; its older prompt-based releases had one tool, use_mcp_tool
//     (server_name, tool_name), and described the servers' tools in the
//     system prompt, not in the tools channel.

// toolConvention is one way of naming an MCP server's tool.
type toolConvention struct {
	agents string // who names tools so
	prefix string // the name starts with it
	sep    string // between server and tool ("" when the name has no server)
	server string // the server to name when the name carries none
}

// toolConventions are tried in order: the longer prefix first.
var toolConventions = []toolConvention{
	{agents: "Claude Code, Codex, qwen-code", prefix: "mcp__", sep: "__"},
	{agents: "Gemini CLI", prefix: "mcp_", sep: "_"},
	{agents: "Gemini CLI", prefix: "discovered_tool_", server: "tool discovery command"},
}

// agentTools is the tools one agent ships, by the names it sends.
type agentTools struct {
	agent string
	// sep is set for an agent that sends an MCP server's tools without a
	// prefix of their own, as "<server><sep><tool>" (opencode "_", cline
	// "__"): in a request that is plainly this agent's, a tool that is not
	// one of its own and holds sep came from the server before it.
	sep   string
	names []string
}

// builtinTools are the agents' own tools, from their sources and captures
// (testdata/agents). A request is the agent's when most of its tools are in
// the agent's list (agentOf).
var builtinTools = []agentTools{
	{agent: "claude-code", names: []string{
		"Agent", "Task", "Bash", "BashOutput", "KillShell", "KillBash", "Glob", "Grep", "LS", "Read", "Edit", "MultiEdit",
		"Write", "NotebookEdit", "NotebookRead", "WebFetch", "WebSearch", "TodoWrite", "TodoRead", "ExitPlanMode",
		"EnterPlanMode", "Skill", "SlashCommand", "ToolSearch", "ListMcpResourcesTool", "ReadMcpResourceTool",
		"AskUserQuestion", "ListAgents", "ReportFindings", "ScheduleWakeup", "Workflow", "DeferredToolPlaceholder",
		"TaskOutput", "TaskStop", "TaskCreate", "TaskUpdate", "TaskList", "TaskGet", "LSP",
	}},
	{agent: "codex", names: []string{
		"shell", "shell_command", "exec_command", "write_stdin", "local_shell", "apply_patch", "update_plan",
		"view_image", "web_search", "web_search_preview", "image_generation", "list_mcp_resources",
		"list_mcp_resource_templates", "read_mcp_resource", "unified_exec", "request_user_input", "wait",
		"functions.exec", "functions.request_user_input", "functions.request_user_input_async", "functions.wait",
		"functions.shell", "functions.apply_patch", "functions.update_plan", "functions.view_image",
		"clock", "clock.sleep", "collaboration", "collaboration.followup_task", "collaboration.interrupt_agent",
		"collaboration.list_agents", "collaboration.send_message", "collaboration.spawn_agent",
		"collaboration.wait_agent", "spawn_agent", "send_input", "wait_agent", "close_agent",
	}},
	{agent: "gemini-cli", names: []string{
		"glob", "write_todos", "write_file", "google_web_search", "web_fetch", "replace", "run_shell_command",
		"grep_search", "search_file_content", "read_many_files", "read_file", "list_directory", "activate_skill",
		"ask_user", "tracker_create_task", "tracker_update_task", "tracker_get_task", "tracker_list_tasks",
		"tracker_add_dependency", "tracker_visualize", "get_internal_docs", "enter_plan_mode", "exit_plan_mode",
		"update_topic", "complete_task", "invoke_agent", "read_mcp_resource", "list_mcp_resources",
		"codebase_investigator", "cli_help", "generalist", "save_memory",
	}},
	{agent: "qwen-code", names: []string{
		"glob", "write_file", "web_fetch", "web_search", "edit", "run_shell_command", "grep_search", "read_file",
		"read_many_files", "list_directory", "save_memory", "todo_write", "task", "skill", "exit_plan_mode",
		"tool_search", "ask_user_question", "lsp", "agent", "get_goal", "update_goal", "list_agents", "tool_call",
	}},
	{agent: "opencode", sep: "_", names: []string{
		"bash", "read", "write", "edit", "multiedit", "patch", "apply_patch", "list", "glob", "grep", "webfetch",
		"websearch", "codesearch", "todowrite", "todoread", "task", "skill", "lsp", "batch", "invalid", "question",
		"plan_enter", "plan_exit",
	}},
	{agent: "cline", sep: "__", names: []string{
		"apply_patch", "ask_question", "fetch_web_content", "read_files", "run_commands", "search_codebase", "skills",
		"spawn_agent", "team_attach_outcome_fragment", "team_await_runs", "team_broadcast", "team_cancel_run",
		"team_cleanup", "team_create_outcome", "team_finalize_outcome", "team_list_outcomes", "team_list_runs",
		"team_mission_log", "team_read_mailbox", "team_review_outcome_fragment", "team_run_task",
		"team_send_message", "team_shutdown_teammate", "team_spawn_teammate", "team_status", "team_task",
		"execute_command", "read_file", "write_to_file", "replace_in_file", "search_files", "list_files",
		"list_code_definition_names", "browser_action", "use_mcp_tool", "access_mcp_resource",
		"load_mcp_documentation", "ask_followup_question", "attempt_completion", "new_task", "plan_mode_respond",
		"focus_chain", "web_fetch", "web_search", "condense", "summarize_task", "report_bug", "new_rule",
		"generate_explanation", "use_skill", "use_subagents",
	}},
	// pi (@mariozechner/pi-coding-agent): four tools, no MCP client.
	{agent: "pi", names: []string{"bash", "read", "edit", "write", "grep", "find", "ls"}},
}
