/**
 * Reads a `claude` command line the way the real CLI (commander) does: every option of
 * {@linkcode CLI_OPTIONS}, `--name=value` and `--name value`, variadic and optional
 * arguments, choices, and the real messages for an unknown option, a missing argument and
 * a bad choice. The fake binary's own options (`--scenario`, `--failure`, `--capture`,
 * `--mock-commands`) are taken out first.
 *
 * @module
 */

import { CLI_OPTIONS, type CliOption } from "./cli_options.ts";

/** A command line the real CLI refuses: its message (stderr) and exit code. */
export class CliUsageError extends Error {
  /** The exit code (1, as the real CLI). */
  readonly exitCode: number;
  /** What the CLI also writes to stdout (after the message), if anything. */
  readonly stdout?: string;
  /** Keeps the message, the exit code and what goes to stdout. */
  constructor(message: string, exitCode = 1, stdout?: string) {
    super(message);
    this.name = "CliUsageError";
    this.exitCode = exitCode;
    if (stdout !== undefined) this.stdout = stdout;
  }
}

/** A parsed command line. */
export interface ParsedArgv {
  /** Options given, by long name (`--print`): `true`, a value, or the values of a list. */
  options: Map<string, true | string | string[]>;
  /** The prompt argument, if one was given. */
  prompt?: string;
  /** The arguments for the engine: the real options as given, without the fake's own. */
  args: string[];
  /** The fake binary's own options. */
  mock: { scenario?: string; failure?: string; capture?: string; "mock-commands"?: string };
}

const BY_NAME = new Map<string, CliOption>();
for (const option of CLI_OPTIONS) for (const name of option.names) BY_NAME.set(name, option);
const MOCK_OPTIONS = new Set(["--scenario", "--failure", "--capture", "--mock-commands"]);

/**
 * Parses `argv` (without the program name). Throws a {@linkcode CliUsageError} with the real
 * CLI's message for what it refuses.
 *
 * @example A print-mode command line
 * ```ts
 * import { parseArgv } from "./parse_argv.ts";
 * const parsed = parseArgv(["-p", "hello", "--output-format=json"]);
 * console.log(parsed.prompt, parsed.options.get("--output-format")); // hello json
 * ```
 */
export function parseArgv(argv: readonly string[]): ParsedArgv {
  const options = new Map<string, true | string | string[]>();
  const args: string[] = [];
  const mock: ParsedArgv["mock"] = {};
  let prompt: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      if (prompt === undefined && i + 1 < argv.length) prompt = argv[i + 1];
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      if (prompt === undefined) prompt = arg;
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq < 0 ? arg : arg.slice(0, eq);
    const inline = eq < 0 ? undefined : arg.slice(eq + 1);
    if (MOCK_OPTIONS.has(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) {
        throw new CliUsageError(`error: option '${name} <value>' argument missing`);
      }
      if (value.trim() === "") {
        // an empty file or name would be passed over in silence (no capture, the default scenario)
        throw new CliUsageError(`error: option '${name} <value>' argument is empty`);
      }
      mock[name.slice(2) as keyof ParsedArgv["mock"]] = value;
      continue;
    }
    const option = BY_NAME.get(name);
    if (!option) throw new CliUsageError(unknownOption(name));
    const long = option.names[0];
    const start = i;
    switch (option.kind) {
      case "flag":
        if (inline !== undefined) {
          throw new CliUsageError(`error: option '${label(option)}' does not take an argument`);
        }
        options.set(long, true);
        break;
      case "value": {
        const value = inline ?? argv[i + 1];
        if (value === undefined || (inline === undefined && isOption(value))) {
          throw new CliUsageError(`error: option '${label(option)}' argument missing`);
        }
        if (inline === undefined) i++;
        checkValue(option, value);
        options.set(long, value);
        break;
      }
      case "optional": {
        let value: string | undefined = inline;
        if (value === undefined && i + 1 < argv.length && !isOption(argv[i + 1])) {
          value = argv[++i];
        }
        options.set(long, value ?? true);
        break;
      }
      case "variadic": {
        const values: string[] = inline !== undefined ? [inline] : [];
        while (inline === undefined && i + 1 < argv.length && !isOption(argv[i + 1])) {
          values.push(argv[++i]);
        }
        if (values.length === 0) {
          throw new CliUsageError(`error: option '${label(option)}' argument missing`);
        }
        const before = options.get(long);
        options.set(long, [...(Array.isArray(before) ? before : []), ...values]);
        break;
      }
    }
    args.push(...argv.slice(start, i + 1));
  }
  return { options, ...(prompt !== undefined ? { prompt } : {}), args, mock };
}

function isOption(value: string): boolean {
  return value.startsWith("-") && value !== "-" && !/^-\d/.test(value);
}

function label(option: CliOption): string {
  const long = option.names[0];
  return option.arg ? `${long} ${option.arg}` : long;
}

/** Checks a value the way the real CLI does: choices, numbers. */
function checkValue(option: CliOption, value: string): void {
  const long = option.names[0];
  if (option.choices && !option.choices.includes(value)) {
    // `default` is a hidden choice of --permission-mode (the SDK passes it)
    const shown = option.choices.filter((c) => !(long === "--permission-mode" && c === "default"));
    throw new CliUsageError(
      `error: option '${label(option)}' argument '${value}' is invalid. Allowed choices are ${
        shown.join(", ")
      }.`,
    );
  }
  if (long === "--max-turns" && !Number.isFinite(Number(value))) {
    throw new CliUsageError(
      `error: option '${label(option)}' argument '${value}' is invalid. must be a number`,
    );
  }
  if (long === "--max-budget-usd" && !(Number(value) > 0)) {
    throw new CliUsageError(
      `error: option '${
        label(option)
      }' argument '${value}' is invalid. --max-budget-usd must be a number greater than 0`,
    );
  }
}

/** commander's message, with its "(Did you mean …?)" for a near miss. */
function unknownOption(name: string): string {
  const candidates = CLI_OPTIONS.filter((o) => !o.hidden).flatMap((o) => o.names)
    .filter((n) => n.startsWith("--"));
  const similar = suggestSimilar(name.replace(/^--?/, ""), candidates.map((c) => c.slice(2)));
  return `error: unknown option '${name}'${
    similar.length > 0 ? `\n(Did you mean ${similar.map((s) => `--${s}`).join(", ")}?)` : ""
  }`;
}

/** commander's suggestSimilar: Damerau–Levenshtein within 3 edits and 40% similarity. */
function suggestSimilar(word: string, candidates: string[]): string[] {
  let best = 3;
  let similar: string[] = [];
  for (const candidate of candidates) {
    if (candidate.length <= 1) continue;
    const distance = editDistance(word, candidate);
    const length = Math.max(word.length, candidate.length);
    if ((length - distance) / length <= 0.4) continue;
    if (distance < best) {
      best = distance;
      similar = [candidate];
    } else if (distance === best) similar.push(candidate);
  }
  return similar.sort();
}

function editDistance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d[i] = [i];
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let j = 1; j <= b.length; j++) {
    for (let i = 1; i <= a.length; i++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}
