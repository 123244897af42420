/**
 * The command line of the fake binary's own subcommands (`serve`, `conform`): positional
 * arguments and `--flag value` / `--flag=value` / boolean flags, with usage errors that name
 * the flag. Internal.
 *
 * @internal
 * @module
 */

/** A usage error: the command prints it with its usage line and exits 2. */
export class SubcommandUsageError extends Error {
  override name = "SubcommandUsageError";
}

/** What each flag takes. */
export type FlagKinds = Record<string, "string" | "boolean">;

/** Parsed arguments. */
export interface SubcommandArgs {
  /** Positional arguments in order. */
  positional: string[];
  /** Flag values by flag name (without dashes); booleans are `"true"`. */
  flags: Record<string, string>;
  /** Whether `-h` / `--help` was given. */
  help: boolean;
}

/**
 * Parses `argv` for `command`: `kinds` names the flags (without `--`); `aliases` maps short
 * forms (`-o`) to them. An unknown flag, or a value missing, throws a
 * {@linkcode SubcommandUsageError}.
 */
export function parseSubcommandArgs(
  command: string,
  argv: readonly string[],
  kinds: FlagKinds,
  aliases: Record<string, string> = {},
): SubcommandArgs {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "-h" || arg === "--help") {
      help = true;
      continue;
    }
    if (arg === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const written = eq > 0 ? arg.slice(0, eq) : arg;
    const name = aliases[written] ?? written.replace(/^--?/, "");
    const kind = kinds[name];
    if (kind === undefined) {
      throw new SubcommandUsageError(`claude-mock ${command}: unknown flag ${written}`);
    }
    if (kind === "boolean") {
      if (eq > 0) {
        throw new SubcommandUsageError(`claude-mock ${command}: ${written} takes no value`);
      }
      flags[name] = "true";
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === "" || (eq < 0 && value.startsWith("--"))) {
      throw new SubcommandUsageError(`claude-mock ${command}: ${written} needs a value`);
    }
    flags[name] = value;
  }
  return { positional, flags, help };
}

/** A flag's value as a whole number in a range, or a usage error naming the flag. */
export function integerFlag(
  command: string,
  flag: string,
  value: string | undefined,
  range: { min: number; max: number },
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < range.min || n > range.max) {
    throw new SubcommandUsageError(
      `claude-mock ${command}: --${flag} must be a whole number from ${range.min} to ${range.max}, got ${
        JSON.stringify(value)
      }`,
    );
  }
  return n;
}

/**
 * The opening a subcommand shares: its arguments parsed, or its exit code when that settles
 * it: `--help` (the help on stdout, 0) or a usage error (the message and the usage on stderr, 2).
 */
export async function openSubcommand<T extends { help?: boolean }>(
  parse: () => T,
  text: {
    usage: string;
    help: string;
    out: (text: string) => Promise<void>;
    err: (text: string) => Promise<void>;
  },
): Promise<T | number> {
  let args: T;
  try {
    args = parse();
  } catch (error) {
    if (!(error instanceof SubcommandUsageError)) throw error;
    await text.err(`${error.message}\n${text.usage}\n`);
    return 2;
  }
  if (args.help) {
    await text.out(text.help);
    return 0;
  }
  return args;
}
