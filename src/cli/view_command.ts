/**
 * `claude-mock view <tape> [--out tape.html] [--compare other.jsonl] [--title text]`: writes a
 * tape's timeline (one self-contained HTML file) and prints its path.
 *
 * @module
 */

import { loadTape } from "../cassette/load_tape.ts";
import type { Tape } from "../cassette/tape.ts";
import { timelineHtml } from "../cassette/timeline_html.ts";
import { writeWhole } from "./_fs.ts";
import type { CliIO } from "./run_cli.ts";

/** The usage text of `view`. */
const VIEW_USAGE: string =
  `Usage: claude-mock view <tape> [--out <file.html>] [--compare <other tape>] [--title <text>]

Writes the tape's timeline as one self-contained HTML file (default: the tape's path with
.html) and prints the file's path. <tape> is a path, a file: URL or an http(s): URL.
  -o, --out <file>      where to write the page
  --compare <tape>      add a diff view of the two tapes, entries aligned in order
  --title <text>        the page's title (default: the tape's scenario or file name)
  -h, --help            this text
`;

const encoder = new TextEncoder();
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

interface ViewArgs {
  tape: string;
  out?: string;
  compare?: string;
  title?: string;
}

class UsageError extends Error {}

function parseViewArgs(argv: readonly string[]): ViewArgs | "help" {
  const positional: string[] = [];
  const values: Record<string, string | undefined> = {};
  const names: Record<string, string> = {
    "-o": "out",
    "--out": "out",
    "--compare": "compare",
    "--title": "title",
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "-h" || arg === "--help") return "help";
    if (arg === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const name = names[flag];
    if (name !== undefined) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || value === "") {
        throw new UsageError(`${flag} needs a value`);
      }
      if (values[name] !== undefined) throw new UsageError(`${flag} is given twice`);
      values[name] = value;
    } else if (arg.startsWith("-") && arg !== "-") {
      throw new UsageError(`unknown option ${arg}`);
    } else positional.push(arg);
  }
  if (positional.length === 0) throw new UsageError("missing the tape to show");
  if (positional.length > 1) {
    throw new UsageError(`one tape at a time (got ${positional.length}: ${positional.join(", ")})`);
  }
  return { tape: positional[0], ...values };
}

/** A path or URL as given, resolved against the working directory when it is a relative path. */
function resolve(pathOrUrl: string, cwd: string): string {
  if (URL_LIKE.test(pathOrUrl) || pathOrUrl.startsWith("/")) return pathOrUrl;
  return `${cwd.replace(/\/+$/, "")}/${pathOrUrl.replace(/^\.\//, "")}`;
}

/** The default page path: the tape's path with `.html` (a URL's file name, in `cwd`). */
function defaultOut(tape: string, cwd: string): string {
  let path = tape;
  if (URL_LIKE.test(tape)) {
    const url = new URL(tape);
    path = url.protocol === "file:"
      ? decodeURIComponent(url.pathname)
      : resolve(decodeURIComponent(url.pathname.split("/").pop() || "tape"), cwd);
  }
  return /\.(jsonl|ndjson|json|tape)$/i.test(path)
    ? path.replace(/\.(jsonl|ndjson|json|tape)$/i, ".html")
    : `${path}.html`;
}

async function load(pathOrUrl: string, cwd: string): Promise<Tape> {
  return await loadTape(resolve(pathOrUrl, cwd));
}

/**
 * The `view` subcommand: loads the tape (and the `--compare` tape), writes the timeline page
 * ({@linkcode timelineHtml}) to `--out` or beside the tape, and prints the page's path.
 * Exit 0 when written; 1 when a tape cannot be loaded or the page cannot be written (the
 * message names the file); 2 for a wrong command line.
 *
 * @example Writing a tape's timeline
 * ```ts
 * import { viewCommand } from "./view_command.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(
 *   `${dir}/hello.jsonl`,
 *   '{"version":1}\n{"t":3,"dir":"cli->sdk","frame":{"type":"result","subtype":"success"}}\n',
 * );
 * const out: string[] = [];
 * const sink = () =>
 *   new WritableStream<Uint8Array>({ write: (c) => void out.push(new TextDecoder().decode(c)) });
 * const code = await viewCommand(["hello.jsonl"], {
 *   argv: ["view", "hello.jsonl"],
 *   env: {},
 *   cwd: dir,
 *   stdin: new Blob([]).stream(),
 *   stdinIsTerminal: true,
 *   stdoutIsTerminal: false,
 *   stdout: sink(),
 *   stderr: sink(),
 * });
 * console.log(code, out.join("") === `${dir}/hello.html\n`); // 0 true
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function viewCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const out = io.stdout.getWriter();
  const err = io.stderr.getWriter();
  const say = (writer: WritableStreamDefaultWriter<Uint8Array>, text: string) =>
    writer.write(encoder.encode(text));
  try {
    let args: ViewArgs | "help";
    try {
      args = parseViewArgs(argv);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      await say(err, `claude-mock view: ${error.message}\n\n${VIEW_USAGE}`);
      return 2;
    }
    if (args === "help") {
      await say(out, VIEW_USAGE);
      return 0;
    }
    const target = resolve(args.out ?? defaultOut(args.tape, io.cwd), io.cwd);
    try {
      const tape = await load(args.tape, io.cwd);
      const compare = args.compare !== undefined ? await load(args.compare, io.cwd) : undefined;
      const html = timelineHtml(tape, {
        ...(args.title !== undefined ? { title: args.title } : {}),
        ...(compare ? { compare } : {}),
      });
      try {
        await writeWhole(target, html);
      } catch (error) {
        throw new Error(
          `Cannot write timeline to ${target}: ${error instanceof Error ? error.message : error}`,
        );
      }
    } catch (error) {
      await say(err, `claude-mock view: ${error instanceof Error ? error.message : error}\n`);
      return 1;
    }
    await say(out, `${target}\n`);
    return 0;
  } finally {
    out.releaseLock();
    err.releaseLock();
  }
}
