/**
 * Custom slash commands: the Markdown files of the project's `.claude/commands/` (and of the
 * config folder's `commands/`), read, listed and expanded as the real CLI 2.1.328 to 2.1.332
 * does: a prompt `/name args` becomes the file's body with the arguments in it, which is what
 * the model is sent (and what the scenario's exchanges match); the `UserPromptExpansion` hooks
 * are asked first. The files are host state, read through the session's hook runner as
 * `CLAUDE.md` is (a session without one knows no project files: no custom commands).
 *
 * @module
 */

import type { SlashCommandInfo } from "../builders/slash_commands.ts";
import type { HookCommandRunner } from "./command_hooks.ts";

/** One custom slash command. */
export interface CustomCommand {
  /** Its name: the file's path under `commands/` without `.md`, folders joined with `:`. */
  name: string;
  /** Its description: the frontmatter's, else the body's first line (a heading's `#` off). */
  description: string;
  /** The frontmatter's `argument-hint` (`""` when none). */
  argumentHint: string;
  /** The body: the text after the frontmatter. */
  body: string;
  /** The frontmatter's `model`: the model of the turn it starts. */
  model?: string;
  /** Where it was defined: `projectSettings` (the project) or `userSettings` (the config folder). */
  source: "projectSettings" | "userSettings";
}

/** A prompt that runs a custom command: the command, its arguments, the expanded prompt. */
export interface CommandExpansion {
  /** The command. */
  command: CustomCommand;
  /** The arguments as typed (after the name, trimmed). */
  args: string;
  /** The body with the arguments in it: what the model is sent. */
  text: string;
}

/**
 * The session's custom slash commands: those of its hook runner, read once (none without
 * one).
 */
export function customCommandsOf(
  engine: { customCommandsRead?: CustomCommand[]; readonly runHookCommand?: HookCommandRunner },
): CustomCommand[] {
  return engine.customCommandsRead ??= readCustomCommands(engine.runHookCommand);
}

/**
 * Reads the custom commands a runner sees: the project's `.claude/commands/` and the config
 * folder's `commands/` (a name in both: the project's), sorted by name, as the real CLI lists
 * them first in `initialize`'s `commands` and `system/init`'s `slash_commands`.
 */
export function readCustomCommands(runner: HookCommandRunner | undefined): CustomCommand[] {
  if (!runner?.listFiles || !runner.readText) return [];
  const found = new Map<string, CustomCommand>();
  const folders: [string, CustomCommand["source"]][] = [
    ...(runner.configDir
      ? [[`${runner.configDir.replace(/\/+$/, "")}/commands`, "userSettings"] as [
        string,
        CustomCommand["source"],
      ]]
      : []),
    [".claude/commands", "projectSettings"],
  ];
  for (const [folder, source] of folders) {
    let files: string[] | undefined;
    try {
      files = runner.listFiles(folder);
    } catch {
      files = undefined;
    }
    for (const file of files ?? []) {
      if (!file.endsWith(".md")) continue;
      let text: string | undefined;
      try {
        text = runner.readText(`${folder}/${file}`);
      } catch {
        text = undefined;
      }
      if (text === undefined) continue;
      const name = file.slice(0, -3).split("/").join(":");
      found.set(name, parseCommandFile(name, text, source));
    }
  }
  return [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A command file: its frontmatter (`---` lines of `key: value`) and body. */
export function parseCommandFile(
  name: string,
  text: string,
  source: CustomCommand["source"],
): CustomCommand {
  const fields: Record<string, string> = {};
  let body = text;
  const front = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (front) {
    body = text.slice(front[0].length);
    for (const line of front[1].split(/\r?\n/)) {
      const m = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
      if (m) fields[m[1]] = yamlScalar(m[2]);
    }
  }
  const firstLine = body.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  return {
    name,
    description: fields.description || firstLine.replace(/^#+\s*/, "").trim(),
    argumentHint: fields["argument-hint"] ?? "",
    body,
    ...(fields.model ? { model: fields.model } : {}),
    source,
  };
}

/** A one-line YAML value as text: quotes off; a flow list `[a, b]` as its items joined by `,`. */
function yamlScalar(raw: string): string {
  const value = raw.trim();
  const quoted = /^(["'])(.*)\1$/.exec(value);
  if (quoted) return quoted[2];
  const list = /^\[(.*)\]$/.exec(value);
  if (list) return list[1].split(",").map((item) => yamlScalar(item)).join(",");
  return value;
}

/** The entry of `initialize`'s `commands` for a custom command (`<description> (project)`). */
export function commandInfo(command: CustomCommand): SlashCommandInfo {
  const where = command.source === "userSettings" ? "user" : "project";
  return {
    name: command.name,
    description: `${command.description} (${where})`,
    argumentHint: command.argumentHint,
  };
}

/**
 * The custom command a prompt runs (`/name args`), expanded; `undefined` when the prompt is
 * no such command.
 */
export function expandCommand(
  commands: readonly CustomCommand[],
  prompt: string,
): CommandExpansion | undefined {
  const m = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(prompt.trim());
  if (!m) return undefined;
  const command = commands.find((c) => c.name === m[1]);
  if (!command) return undefined;
  const args = (m[2] ?? "").trim();
  return { command, args, text: expandBody(command.body, args) };
}

/**
 * A body with its arguments, as the real CLI 2.1.332 puts them in: `$ARGUMENTS` the whole
 * text, `$ARGUMENTS[N]` and `$N` the N-th argument from 0 (split as a shell would, quotes
 * off); a placeholder past the last argument stays as written. A body with no placeholder
 * gets the arguments appended (`\n\nARGUMENTS: <args>`).
 */
export function expandBody(body: string, args: string): string {
  const words = shellWords(args);
  let placed = false;
  const text = body.replace(/\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$(\d+)/g, (whole, a, n) => {
    placed = true;
    if (a === undefined && n === undefined) return args;
    const i = Number(a ?? n);
    return i < words.length ? words[i] : whole;
  });
  return placed || args === "" ? text : `${text}\n\nARGUMENTS: ${args}`;
}

/** Splits arguments as a shell would: on spaces, single and double quotes grouping. */
function shellWords(args: string): string[] {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const m of args.matchAll(re)) {
    words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : m[2] ?? m[3]);
  }
  return words;
}

/**
 * The user line the real CLI replays for a command prompt (`--replay-user-messages`): the
 * command's tags, not the body.
 */
export function commandTags(expansion: CommandExpansion): string {
  const { command, args } = expansion;
  return `<command-message>${command.name}</command-message>\n<command-name>/${command.name}</command-name>${
    args !== "" ? `\n<command-args>${args}</command-args>` : ""
  }`;
}
