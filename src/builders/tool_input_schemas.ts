/**
 * The input schemas of the real CLI's built-in tools, as 2.1.328 to 2.1.332 describe them to the
 * API (a request's `tools[].input_schema`) or, for a tool the request defers, in the hint of an
 * `InputValidationError` (`For reference, this tool's input schema is: …`): one JSON text each,
 * key order kept, so that the hint the mock writes is the CLI's. Recorded from the real binary's
 * requests to a local Messages API (`claude -p --tools …` and an SDK session with `canUseTool`)
 * and from the hints of the conformance case `tools_bad_input_deferred`. Internal.
 *
 * @module
 */

/** Each built-in tool's input schema, as JSON text. */
const SCHEMA_TEXTS: Readonly<Record<string, string>> = Object.freeze({
  Agent:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"description":{"description":"A short (3-5 word) description of t' +
    'he task","type":"string"},"prompt":{"description":"The task for the agent to perform","type":"string"},"subagent_type":{"description":"The type of s' +
    'pecialized agent to use for this task","type":"string"},"model":{"description":"Optional model override for this agent. Takes precedence over the agent defini' +
    "tion's model frontmatter and the configured default subagent model. If omitted, uses the agent definition's model, else the default (inherits from the parent unless a d" +
    'efault subagent model is configured). Ignored for subagent_type: \\"fork\\" — forks always inherit the parent model.","type":"string","enum":["sonnet","opus' +
    '","haiku","fable"]},"effort":{"description":"Reasoning effort for this agent. Set this ONLY when the user, or instructions such as CLAUDE.md or a skill, expli' +
    "citly ask that this agent or delegated work run at a specific effort level, never on your own judgment; otherwise omit it and the agent runs at its usual effort. Ignore" +
    'd for subagent_type: \\"fork\\": a fork runs at your own effort.","type":"string","enum":["low","medium","high","xhigh","max"]},"run_in_background"' +
    ':{"description":"Agents run in the background by default; you will be notified when one completes. Set to false only when your very next action depends on this agent' +
    '\'s result and nothing else could usefully happen while it runs — otherwise leave it in the background so the user can hand you other work.","type":"boolean"},"iso' +
    'lation":{"description":"Isolation mode. \\"worktree\\" creates a temporary git worktree so the agent works on an isolated copy of the repo. \\"remote\\" launche' +
    's the agent in a remote cloud environment (always runs in background; availability is gated).","type":"string","enum":["worktree","remote"]}},"required":[' +
    '"description","prompt"],"additionalProperties":false}',
  AskUserQuestion:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"questions":{"description":"Questions to ask the user (1-4 questi' +
    'ons)","minItems":1,"maxItems":4,"type":"array","items":{"type":"object","properties":{"question":{"description":"The complete question to ask the ' +
    'user. Should be clear, specific, and end with a question mark. Example: \\"Which library should we use for date formatting?\\" If multiSelect is true, phrase it accor' +
    'dingly, e.g. \\"Which features do you want to enable?\\"","type":"string"},"header":{"description":"Very short label displayed as a chip/tag (max 12 chars).' +
    ' Examples: \\"Auth method\\", \\"Library\\", \\"Approach\\".","type":"string"},"options":{"description":"The available choices for this question. Must h' +
    "ave 2-4 options. Each option should be a distinct, mutually exclusive choice (unless multiSelect is enabled). There should be no 'Other' option, that will be provided a" +
    'utomatically.","minItems":2,"maxItems":4,"type":"array","items":{"type":"object","properties":{"label":{"description":"The display text for this o' +
    'ption that the user will see and select. Should be concise (1-5 words) and clearly describe the choice.","type":"string"},"description":{"description":"Explan' +
    'ation of what this option means or what will happen if chosen. Useful for providing context about trade-offs or implications.","type":"string"},"preview":{"desc' +
    'ription":"Optional preview content rendered when this option is focused. Use for mockups, code snippets, or visual comparisons that help users compare options. See th' +
    'e tool description for the expected content format.","type":"string"}},"required":["label","description"],"additionalProperties":false}},"multiSelect":{' +
    '"description":"Set to true to allow the user to select multiple options instead of just one. Use when choices are not mutually exclusive.","default":false,"type' +
    '":"boolean"}},"required":["question","header","options","multiSelect"],"additionalProperties":false}},"answers":{"description":"User answers collect' +
    'ed by the permission component","type":"object","propertyNames":{"type":"string"},"additionalProperties":{"type":"string"}},"annotations":{"descript' +
    'ion":"Optional per-question annotations from the user (e.g., notes on preview selections). Keyed by question text.","type":"object","propertyNames":{"type":' +
    '"string"},"additionalProperties":{"type":"object","properties":{"preview":{"description":"The preview content of the selected option, if the question use' +
    'd previews.","type":"string"},"notes":{"description":"Free-text notes the user added to their selection.","type":"string"}},"additionalProperties":fals' +
    'e}},"metadata":{"description":"Optional metadata for tracking and analytics purposes. Not displayed to user.","type":"object","properties":{"source":{"de' +
    'scription":"Optional identifier for the source of this question (e.g., \\"remember\\" for /remember command). Used for analytics tracking.","type":"string"}},' +
    '"additionalProperties":false}},"required":["questions"],"additionalProperties":false}',
  Bash:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"command":{"description":"The command to execute","type":"str' +
    'ing"},"timeout":{"description":"Optional timeout in milliseconds (max 600000 for a foreground command)","type":"number"},"description":{"description":"C' +
    'lear, concise description of what this command does in active voice. Never use words like \\"complex\\" or \\"risk\\" in the description - just describe what it doe' +
    "s.\\n\\nSay what the command does in plain words: do not echo the command's text, its flags, or file paths - the user reads this description, often without seeing the c" +
    'ommand.\\n\\nFor simple commands (git, npm, standard CLI tools), keep it brief (5-10 words):\\n- ls → \\"List files in current directory\\"\\n- git status → \\"Show ' +
    'working tree status\\"\\n- npm install → \\"Install package dependencies\\"\\n\\nFor commands that are harder to parse at a glance (piped commands, obscure flags, et' +
    'c.), add enough context to clarify what it does:\\n- find . -name \\"*.tmp\\" -exec rm {} \\\\; → \\"Find and delete all .tmp files recursively\\"\\n- git reset --h' +
    'ard origin/main → \\"Discard all local changes and match remote main\\"\\n- curl -s url | jq \'.data[]\' → \\"Fetch JSON from URL and extract data array elements\\""' +
    ',"type":"string"},"run_in_background":{"description":"Set to true to run this command in the background. With it, `timeout` limits how long the command may run' +
    ' in the background before it is stopped (default 1800000 ms, max 7200000 ms).","type":"boolean"},"dangerouslyDisableSandbox":{"description":"Set this to true ' +
    'to dangerously override sandbox mode and run commands without sandboxing.","type":"boolean"}},"required":["command"],"additionalProperties":false}',
  CronCreate:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"cron":{"description":"Standard 5-field cron expression in local ' +
    'time: \\"M H DoM Mon DoW\\" (e.g. \\"*/5 * * * *\\" = every 5 minutes, \\"30 14 28 2 *\\" = Feb 28 at 2:30pm local once).","type":"string"},"prompt":{"des' +
    'cription":"The prompt to enqueue at each fire time.","type":"string"},"recurring":{"description":"true (default) = fire on every cron match until deleted or' +
    ' auto-expired after 30 days. false = fire once at the next match, then auto-delete. Use false for \\"remind me at X\\" one-shot requests with pinned minute/hour/dom/m' +
    'onth.","type":"boolean"},"durable":{"description":"true = persist to .claude/scheduled_tasks.json and survive restarts (the result says Session-only if the jo' +
    'b could not be saved). false (default) = in-memory only, dies when this Claude session ends. Use true only when the user asks the task to survive across sessions.","t' +
    'ype":"boolean"}},"required":["cron","prompt"],"additionalProperties":false}',
  CronDelete:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"id":{"description":"Job ID returned by CronCreate.","type":"' +
    'string"}},"required":["id"],"additionalProperties":false}',
  CronList:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{},"additionalProperties":false}',
  Edit:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"file_path":{"description":"The absolute path to the file to modi' +
    'fy","type":"string"},"old_string":{"description":"The text to replace","type":"string"},"new_string":{"description":"The text to replace it with (mu' +
    'st be different from old_string)","type":"string"},"replace_all":{"description":"Replace all occurrences of old_string (default false)","default":false,"t' +
    'ype":"boolean"}},"required":["file_path","old_string","new_string"],"additionalProperties":false}',
  EnterPlanMode:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{},"additionalProperties":false}',
  EnterWorktree:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"name":{"description":"Optional name for a new worktree. Each \\' +
    '"/\\"-separated segment may contain only letters, digits, dots, underscores, and dashes; max 64 chars total. A random name is generated if not provided. Mutually excl' +
    'usive with `path`.","type":"string"},"path":{"description":"Path to an existing worktree to switch into instead of creating a new one. Must appear in `git wor' +
    'ktree list` for the current repo — or, on first entry from the launch directory, for a repo nested inside it (multi-repo workspace). Mutually exclusive with `name`.",' +
    '"type":"string"}},"additionalProperties":false}',
  ExitPlanMode:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"allowedPrompts":{"description":"Deprecated: no longer used.","' +
    'type":"array","items":{"type":"object","properties":{"tool":{"description":"The tool this prompt applies to","type":"string","enum":["Bash"]},' +
    '"prompt":{"description":"Semantic description of the action, e.g. \\"run tests\\", \\"install dependencies\\"","type":"string"}},"required":["tool","' +
    'prompt"],"additionalProperties":false}}},"additionalProperties":{}}',
  ExitWorktree:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"action":{"description":"\\"keep\\" leaves the worktree and bra' +
    'nch on disk; \\"remove\\" deletes the worktree and, unless a hook made it or git refuses, its branch.","type":"string","enum":["keep","remove"]},"discard_' +
    'changes":{"description":"Required true when action is \\"remove\\" and the worktree has uncommitted files or unmerged commits. The tool will refuse and list them ' +
    'otherwise. It also removes the worktree under any task still running there, so set it only after the user has confirmed.","type":"boolean"}},"required":["action' +
    '"],"additionalProperties":false}',
  Glob:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"pattern":{"description":"The glob pattern to match files against' +
    '","type":"string"},"path":{"description":"The directory to search in. If not specified, the current working directory will be used. IMPORTANT: Omit this field' +
    ' to use the default directory. DO NOT enter \\"undefined\\" or \\"null\\" - simply omit it for the default behavior. Must be a valid directory path if provided.",' +
    '"type":"string"}},"required":["pattern"],"additionalProperties":false}',
  Grep:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"pattern":{"description":"The regular expression pattern to searc' +
    'h for in file contents","type":"string"},"path":{"description":"File or directory to search in (rg PATH). Defaults to current working directory.","type":"' +
    'string"},"glob":{"description":"Glob pattern to filter files (e.g. \\"*.js\\", \\"*.{ts,tsx}\\") - maps to rg --glob","type":"string"},"output_mode":{' +
    '"description":"Output mode: \\"content\\" shows matching lines (supports -A/-B/-C context, -n line numbers, head_limit), \\"files_with_matches\\" shows file path' +
    's (supports head_limit), \\"count\\" shows match counts (supports head_limit). Defaults to \\"files_with_matches\\".","type":"string","enum":["content","f' +
    'iles_with_matches","count"]},"-B":{"description":"Number of lines to show before each match (rg -B). Requires output_mode: \\"content\\", ignored otherwise."' +
    ',"type":"number"},"-A":{"description":"Number of lines to show after each match (rg -A). Requires output_mode: \\"content\\", ignored otherwise.","type":' +
    '"number"},"-C":{"description":"Alias for context.","type":"number"},"context":{"description":"Number of lines to show before and after each match (rg -' +
    'C). Requires output_mode: \\"content\\", ignored otherwise.","type":"number"},"-n":{"description":"Show line numbers in output (rg -n). Requires output_mode' +
    ': \\"content\\", ignored otherwise. Defaults to true.","type":"boolean"},"-i":{"description":"Case insensitive search (rg -i)","type":"boolean"},"-o"' +
    ':{"description":"Print only the matched (non-empty) parts of each matching line, one match per output line (rg -o / --only-matching). Requires output_mode: \\"conte' +
    'nt\\", ignored otherwise. Defaults to false.","type":"boolean"},"type":{"description":"File type to search (rg --type). Common types: js, py, rust, go, java,' +
    ' etc. More efficient than include for standard file types.","type":"string"},"head_limit":{"description":"Limit output to first N lines/entries, equivalent to' +
    ' \\"| head -N\\". Works across all output modes: content (limits output lines), files_with_matches (limits file paths), count (limits count entries). Defaults to 250 ' +
    'when unspecified. Pass 0 for unlimited (use sparingly — large result sets waste context).","type":"number"},"offset":{"description":"Skip first N lines/entrie' +
    's before applying head_limit, equivalent to \\"| tail -n +N | head -N\\". Works across all output modes. Defaults to 0.","type":"number"},"multiline":{"descri' +
    'ption":"Enable multiline mode where . matches newlines and patterns can span lines (rg -U --multiline-dotall). Default: false.","type":"boolean"}},"required":[' +
    '"pattern"],"additionalProperties":false}',
  ListAgents:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"channel":{"description":"Not available in this build; leave unse' +
    't.","type":"string","maxLength":256},"q":{"description":"Not available in this build; leave unset.","type":"string","maxLength":256},"cursor":{"de' +
    'scription":"The cursor the last line of a long listing gave, for its next page. Omit to list from the start.","type":"string","maxLength":256}},"additionalPro' +
    'perties":false}',
  Monitor:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"description":{"description":"Short human-readable description of' +
    ' what you are monitoring (shown in notifications).","type":"string"},"timeout_ms":{"description":"Kill the monitor after this deadline. Default 300000ms. Dead' +
    'lines above 1800000ms are capped to 1800000ms. You are notified at expiry and can re-arm.","default":300000,"type":"number","minimum":1000,"maximum":3600000}' +
    ',"command":{"description":"Shell command or script. Each stdout line is an event; exit ends the watch.","type":"string"},"ws":{"description":"WebSocket t' +
    'o open. Each text frame is an event; binary frames are reported as a placeholder line. Socket close ends the watch. Cannot be combined with command.","type":"object' +
    '","properties":{"url":{"type":"string"},"protocols":{"type":"array","items":{"type":"string","pattern":"^[!#$%&\'*+.^_`|~0-9A-Za-z-]+$"}}},"req' +
    'uired":["url"],"additionalProperties":false}},"required":["description","timeout_ms"],"additionalProperties":false}',
  NotebookEdit:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"notebook_path":{"description":"The absolute path to the Jupyter ' +
    'notebook file to edit (must be absolute, not relative)","type":"string"},"cell_id":{"description":"The ID of the cell to edit. When inserting a new cell, the ' +
    'new cell will be inserted after the cell with this ID, or at the beginning if not specified.","type":"string"},"new_source":{"description":"The new source for' +
    ' the cell","type":"string"},"cell_type":{"description":"The type of the cell (code or markdown). If not specified, it defaults to the current cell type. If us' +
    'ing edit_mode=insert, this is required.","type":"string","enum":["code","markdown"]},"edit_mode":{"description":"The type of edit to make (replace, inse' +
    'rt, delete). Defaults to replace.","type":"string","enum":["replace","insert","delete"]}},"required":["notebook_path","new_source"],"additionalPrope' +
    'rties":false}',
  Read:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"file_path":{"description":"The absolute path to the file to read' +
    '","type":"string"},"offset":{"description":"The line number to start reading from. Only provide if the file is too large to read at once","type":"integer' +
    '","minimum":0,"maximum":9007199254740991},"limit":{"description":"The number of lines to read. Only provide if the file is too large to read at once.","type' +
    '":"integer","exclusiveMinimum":0,"maximum":9007199254740991},"pages":{"description":"Page range for PDF files (e.g., \\"1-5\\", \\"3\\", \\"10-20\\").' +
    ' Only applicable to PDF files. Maximum 20 pages per request.","type":"string"},"allow_large":{"description":"Set to true to read a text file, or a line range ' +
    "of one, that is over the usual size limits, up to what still fits in your context. Only use this when you genuinely need all of it or the user asked for the whole file;" +
    ' otherwise read it in parts with offset and limit, or search it.","type":"boolean"}},"required":["file_path"],"additionalProperties":false}',
  ReportFindings:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"level":{"description":"Effort level the review ran at","type"' +
    ':"string","enum":["low","medium","high","xhigh","max"]},"findings":{"description":"Verified findings, most-severe first; empty if none survived","m' +
    'axItems":32,"type":"array","items":{"type":"object","properties":{"file":{"description":"Repo-relative path of the file the finding is in","type":' +
    '"string"},"line":{"description":"1-indexed line the finding anchors to","type":"integer","minimum":-9007199254740991,"maximum":9007199254740991},"summa' +
    'ry":{"description":"Statement of the defect","type":"string"},"short_summary":{"description":"Compressed label for compact UI (≤60 chars): the claim alone' +
    ', no rationale or consequence clause","type":"string","maxLength":60},"failure_scenario":{"description":"Concrete inputs/state → wrong output/crash","type' +
    '":"string"},"category":{"description":"Short kebab-case slug of the finding type, e.g. \\"correctness\\", \\"simplification\\", \\"efficiency\\", \\"test' +
    '-coverage\\"","type":"string","maxLength":40},"severity":{"description":"Set when the review instructions ask for it. important: a bug the change adds or m' +
    'akes worse; pre_existing: a bug that was there before the change; nit: a minor issue","type":"string","enum":["important","pre_existing","nit"]},"verdict' +
    '":{"description":"Set when a verify pass ran; absent on inline-only reviews","type":"string","enum":["CONFIRMED","PLAUSIBLE"]},"outcome":{"description' +
    '":"Set ONLY when re-reporting after applying fixes: what happened to this finding","type":"string","enum":["fixed","skipped","no_change_needed"]}},"requ' +
    'ired":["file","summary","failure_scenario"],"additionalProperties":false}}},"required":["findings"],"additionalProperties":false}',
  ScheduleWakeup:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"delaySeconds":{"description":"Seconds from now to wake up. Clamp' +
    'ed to [60, 3600] by the runtime. Required unless `stop` is true.","type":"number"},"reason":{"description":"One short sentence explaining the chosen delay. Go' +
    'es to telemetry and is shown to the user. Be specific. Required unless `stop` is true.","type":"string"},"prompt":{"description":"The /loop input to fire on w' +
    "ake-up. Pass the same /loop input verbatim each turn so the next firing re-enters the skill and continues the loop. For autonomous /loop (no user prompt), pass the lite" +
    'ral sentinel `<<autonomous-loop-dynamic>>` instead (the dynamic-pacing variant, not the CronCreate-mode `<<autonomous-loop>>`). Required unless `stop` is true.","type' +
    '":"string"},"stop":{"description":"Set to true to end the dynamic loop immediately instead of scheduling another wakeup. When true, all other fields are ignored' +
    ' and no further wakeups fire.","type":"boolean"},"noop":{"description":"true = nothing changed (you checked and there is nothing to report). false = something' +
    " happened worth keeping (edited a file, posted a message, advanced state, surfaced a finding). Consecutive noop:true ticks are collapsed in the user's terminal view and" +
    ' tracked as a streak. Required unless `stop` is true.","type":"boolean"}},"additionalProperties":false}',
  SendMessage:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"to":{"description":"Recipient: a name from ListAgents (append it' +
    's \\" [ref]\\" only when a listing or an error shows one), a teammate name, \\"main\\", or a background agent\'s agentId","type":"string","allOf":[{"pattern' +
    '":"^[^\\\\n\\\\r]*$"},{"pattern":"^[\\\\s\\\\S]{0,300}$"}]},"summary":{"description":"A 5-10 word label for your own transcript row (not transmitted — the r' +
    'ecipient previews the first line of `message`). Truncated to 200 characters rather than rejected.","type":"string","maxLength":200},"message":{"default":""' +
    ',"description":"Plain text message content. The recipient\'s human sees only the FIRST LINE as a one-line preview until they expand it, so make the first line a clear' +
    ', self-contained sentence saying what this is about — not a greeting, preamble, or bare @-mention.","type":"string"},"notify_when_idle":{"description":"Ask a ' +
    "session ON THIS MACHINE to send you ONE notice when it next goes idle (finishes its turn with nothing queued) or exits — opt-in, one-shot, no polling. With a message: d" +
    'eliver it now AND subscribe. Without a message (omit it): a pure subscription that costs the other session nothing.","type":"boolean"}},"required":["to","mess' +
    'age"],"additionalProperties":false}',
  Skill:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"skill":{"description":"The name of a skill from the available-sk' +
    'ills list. Do not guess names.","type":"string"},"args":{"description":"Optional arguments for the skill","type":"string"}},"required":["skill"],"ad' +
    'ditionalProperties":false}',
  TaskStop:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"task_id":{"description":"The ID of the background task to stop. ' +
    'Agent-team teammates and named background agents are also accepted by agent ID or name.","type":"string"},"shell_id":{"description":"Deprecated: use task_id i' +
    'nstead","type":"string"}},"additionalProperties":false}',
  ToolSearch:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"query":{"description":"Query to find deferred tools. Use \\"sel' +
    'ect:<tool_name>\\" for direct selection, or keywords to search.","type":"string"},"max_results":{"description":"Maximum number of results to return (default:' +
    ' 5)","default":5,"type":"number"}},"required":["query"],"additionalProperties":false}',
  WebFetch:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"url":{"description":"The URL to fetch content from","type":"' +
    'string","format":"uri"},"prompt":{"description":"The prompt to run on the fetched content","type":"string"},"offset":{"description":"Character posit' +
    'ion in the page text to start reading from. Use it to read on through a page too long for one call, with the value the previous result gave.","type":"integer","mi' +
    'nimum":0,"maximum":9007199254740991}},"required":["url","prompt"],"additionalProperties":false}',
  WebSearch:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"query":{"description":"The search query to use","type":"stri' +
    'ng","minLength":2},"allowed_domains":{"description":"Only include search results from these domains","type":"array","items":{"type":"string"}},"bloc' +
    'ked_domains":{"description":"Never include search results from these domains","type":"array","items":{"type":"string"}}},"required":["query"],"addit' +
    'ionalProperties":false}',
  Workflow:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"script":{"description":"Self-contained workflow script. Must beg' +
    "in with `export const meta = { name, description, phases }` (pure literal, no computed values) followed by the script body using agent()/parallel()/pipeline()/phase()." +
    '","type":"string","maxLength":524288},"name":{"description":"Name of a predefined workflow (built-in or from .claude/workflows/). Resolves to a self-contain' +
    'ed script.","type":"string"},"description":{"description":"Ignored — set the workflow description in the script\'s `meta` block.","type":"string"},"title' +
    '":{"description":"Ignored — set the workflow title in the script\'s `meta` block.","type":"string"},"args":{"description":"Optional input value exposed to ' +
    "the script as the global `args`, verbatim. Pass arrays/objects as actual JSON values, NOT as a JSON-encoded string — a stringified list breaks `args.filter`/`args.map` " +
    'in the script. Use for parameterized named workflows (e.g. a research question)."},"scriptPath":{"description":"Path to a workflow script file on disk. Every Work' +
    "flow invocation persists its script under the session directory and returns the path in the tool result. To iterate, edit that file with Write/Edit and re-invoke Workfl" +
    'ow with the same `scriptPath` instead of re-sending the full script. Takes precedence over `script` and `name`.","type":"string"},"resumeFromRunId":{"descriptio' +
    'n":"Run ID of a prior Workflow invocation to resume from. The cache is positional: agent() calls replay from cache up to the first call that failed, no longer matches' +
    " the earlier run (edited, added, removed or reordered) or never started in it; that call and every call after it run again, even when their own (prompt, opts) are uncha" +
    "nged. A call a usage limit refused, or one still running when the run stopped, usually runs again without ending reuse: finished calls after it still come from cache. S" +
    'ame-session only. Stop the prior run first (TaskStop) before resuming.","type":"string","pattern":"^wf_[a-z0-9-]{6,}$"}},"additionalProperties":false}',
  Write:
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"file_path":{"description":"The absolute path to the file to writ' +
    'e (must be absolute, not relative)","type":"string"},"content":{"description":"The content to write to the file","type":"string"}},"required":["file_p' +
    'ath","content"],"additionalProperties":false}',
});

/**
 * The input schema of built-in tool `name` as the real CLI shows it (`Task` is `Agent`), or
 * `undefined` for a tool whose schema was not recorded.
 *
 * @example Write's schema
 * ```ts
 * import { toolInputSchema } from "./tool_input_schemas.ts";
 * console.log(toolInputSchema("Write")?.required); // [ "file_path", "content" ]
 * ```
 */
export function toolInputSchema(name: string): Record<string, unknown> | undefined {
  const key = name === "Task" ? "Agent" : name;
  const text = Object.hasOwn(SCHEMA_TEXTS, key) ? SCHEMA_TEXTS[key] : undefined;
  if (text === undefined) return undefined;
  let parsed = PARSED.get(key);
  if (parsed === undefined) {
    parsed = JSON.parse(text) as Record<string, unknown>;
    PARSED.set(key, parsed);
  }
  return parsed;
}

const PARSED = new Map<string, Record<string, unknown>>();

/**
 * The schema's JSON text as the CLI writes it in a hint (`JSON.stringify` of the schema).
 *
 * @example EnterPlanMode's
 * ```ts
 * import { toolInputSchemaText } from "./tool_input_schemas.ts";
 * console.log(toolInputSchemaText("EnterPlanMode"));
 * // {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{},"additionalProperties":false}
 * ```
 */
export function toolInputSchemaText(name: string): string | undefined {
  const key = name === "Task" ? "Agent" : name;
  return Object.hasOwn(SCHEMA_TEXTS, key) ? SCHEMA_TEXTS[key] : undefined;
}
