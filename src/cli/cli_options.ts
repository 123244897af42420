/**
 * The real CLI's options: every option of `claude --help` (Claude Code 2.1.328), with its argument and choices, plus the hidden
 * options the Agent SDK 0.3.328 passes. Generated from the help text; data only.
 *
 * @module
 */

/** How an option takes its argument. */
export type CliOptionKind = "flag" | "value" | "optional" | "variadic";

/** One option of the real CLI. */
export interface CliOption {
  /** Its names, long first (`--print`, `-p`). */
  names: readonly string[];
  /** How it takes its argument. */
  kind: CliOptionKind;
  /** The argument as `--help` shows it (`<format>`). */
  arg?: string;
  /** The values it accepts, when it has a fixed set. */
  choices?: readonly string[];
  /** Not in `--help` (passed by the SDK). */
  hidden?: true;
}

/** Every option the real CLI accepts. */
export const CLI_OPTIONS: readonly CliOption[] = [
  { names: ["--add-dir"], kind: "variadic", arg: "<directories...>" },
  { names: ["--agent"], kind: "value", arg: "<agent>" },
  { names: ["--agents"], kind: "value", arg: "<json-or-file>" },
  { names: ["--allow-dangerously-skip-permissions"], kind: "flag" },
  { names: ["--allowedTools", "--allowed-tools"], kind: "variadic", arg: "<tools...>" },
  { names: ["--append-system-prompt"], kind: "value", arg: "<prompt>" },
  { names: ["--autocompact"], kind: "value", arg: "<auto|tokens>" },
  { names: ["--ax-screen-reader"], kind: "flag" },
  { names: ["--bg", "--background"], kind: "flag" },
  { names: ["--bare"], kind: "flag" },
  { names: ["--betas"], kind: "variadic", arg: "<betas...>" },
  { names: ["--brief"], kind: "flag" },
  { names: ["--chrome"], kind: "flag" },
  { names: ["--cloud"], kind: "optional", arg: "[description|session_id|url]" },
  { names: ["--continue", "-c"], kind: "flag" },
  { names: ["--dangerously-skip-permissions"], kind: "flag" },
  { names: ["--debug", "-d"], kind: "optional", arg: "[filter]" },
  { names: ["--debug-file"], kind: "value", arg: "<path>" },
  { names: ["--desktop"], kind: "flag" },
  { names: ["--disable-slash-commands"], kind: "flag" },
  { names: ["--disallowedTools", "--disallowed-tools"], kind: "variadic", arg: "<tools...>" },
  { names: ["--effort"], kind: "value", arg: "<level>" },
  { names: ["--environment"], kind: "value", arg: "<environment_id>" },
  { names: ["--exclude-dynamic-system-prompt-sections"], kind: "flag" },
  { names: ["--fallback-model"], kind: "value", arg: "<model>" },
  { names: ["--file"], kind: "variadic", arg: "<specs...>" },
  { names: ["--fork-session"], kind: "flag" },
  { names: ["--forward-subagent-text"], kind: "flag" },
  { names: ["--from-pr"], kind: "optional", arg: "[value]" },
  { names: ["--help", "-h"], kind: "flag" },
  { names: ["--ide"], kind: "flag" },
  { names: ["--include-hook-events"], kind: "flag" },
  { names: ["--include-partial-messages"], kind: "flag" },
  { names: ["--input-format"], kind: "value", arg: "<format>", choices: ["text", "stream-json"] },
  { names: ["--json-schema"], kind: "value", arg: "<schema>" },
  { names: ["--max-budget-usd"], kind: "value", arg: "<amount>" },
  { names: ["--mcp-config"], kind: "variadic", arg: "<configs...>" },
  { names: ["--model"], kind: "value", arg: "<model>" },
  { names: ["--name", "-n"], kind: "value", arg: "<name>" },
  { names: ["--no-chrome"], kind: "flag" },
  { names: ["--no-session-persistence"], kind: "flag" },
  {
    names: ["--output-format"],
    kind: "value",
    arg: "<format>",
    choices: ["text", "json", "stream-json"],
  },
  {
    names: ["--permission-mode"],
    kind: "value",
    arg: "<mode>",
    choices: ["acceptEdits", "auto", "bypassPermissions", "manual", "dontAsk", "plan", "default"],
  },
  { names: ["--permission-prompts"], kind: "value", arg: "<target>", choices: ["host", "none"] },
  { names: ["--plugin-dir"], kind: "value", arg: "<path>" },
  { names: ["--plugin-url"], kind: "value", arg: "<url>" },
  { names: ["--print", "-p"], kind: "flag" },
  {
    names: ["--prompt-suggestions"],
    kind: "optional",
    arg: "[value]",
    choices: ["true", "false", "1", "0", "yes", "no", "on", "off"],
  },
  { names: ["--remote-control"], kind: "optional", arg: "[name]" },
  { names: ["--remote-control-session-name-prefix"], kind: "value", arg: "<prefix>" },
  { names: ["--replay-user-messages"], kind: "flag" },
  { names: ["--restricted"], kind: "flag" },
  { names: ["--resume", "-r"], kind: "optional", arg: "[value]" },
  { names: ["--safe-mode"], kind: "flag" },
  { names: ["--session-id"], kind: "value", arg: "<uuid>" },
  { names: ["--setting-sources"], kind: "value", arg: "<sources>" },
  { names: ["--settings"], kind: "value", arg: "<file-or-json>" },
  { names: ["--strict-mcp-config"], kind: "flag" },
  { names: ["--system-prompt"], kind: "value", arg: "<prompt>" },
  { names: ["--system-prompt-snapshot"], kind: "value", arg: "<on|off>", choices: ["on", "off"] },
  { names: ["--teleport"], kind: "optional", arg: "[session]" },
  { names: ["--tmux"], kind: "flag" },
  { names: ["--tools"], kind: "variadic", arg: "<tools...>" },
  { names: ["--verbose"], kind: "flag" },
  { names: ["--version", "-v"], kind: "flag" },
  { names: ["--worktree", "-w"], kind: "optional", arg: "[name]" },
  { names: ["--await-initialize"], kind: "flag", hidden: true },
  { names: ["--channels"], kind: "value", arg: "<channels>", hidden: true },
  { names: ["--debug-to-stderr", "-d2e"], kind: "flag", hidden: true },
  { names: ["--hard-fail"], kind: "flag", hidden: true },
  { names: ["--initialize-fields"], kind: "value", arg: "<fields>", hidden: true },
  { names: ["--managed-settings"], kind: "value", arg: "<settings>", hidden: true },
  { names: ["--managed-settings-in-initialize"], kind: "flag", hidden: true },
  { names: ["--max-thinking-tokens"], kind: "value", arg: "<tokens>", hidden: true },
  { names: ["--max-turns"], kind: "value", arg: "<turns>", hidden: true },
  { names: ["--permission-prompt-tool"], kind: "value", arg: "<tool>", hidden: true },
  { names: ["--plugin-dir-no-mcp"], kind: "value", arg: "<path>", hidden: true },
  { names: ["--project-config-root"], kind: "value", arg: "<path>", hidden: true },
  { names: ["--resume-drops-turn"], kind: "value", arg: "<value>", hidden: true },
  { names: ["--resume-session-at"], kind: "value", arg: "<message-id>", hidden: true },
  { names: ["--sdk-url"], kind: "value", arg: "<url>", hidden: true },
  { names: ["--session-mirror"], kind: "flag", hidden: true },
  { names: ["--task-budget"], kind: "value", arg: "<tokens>", hidden: true },
  {
    names: ["--thinking"],
    kind: "value",
    arg: "<mode>",
    choices: ["enabled", "adaptive", "disabled"],
    hidden: true,
  },
  { names: ["--thinking-display"], kind: "value", arg: "<display>", hidden: true },
];
