/**
 * `claude-mock view <tape> [--out tape.html] [--compare other.jsonl] [--title text]`: writes a
 * tape's timeline (one self-contained HTML file) and prints its path.
 *
 * @module
 */

import { loadTape, readTapeEntries } from "../cassette/load_tape.ts";
import type { Tape, TapeEntry } from "../cassette/tape.ts";
import { timelineHtml } from "../cassette/timeline_html.ts";
import { fileSize, writeWhole } from "../host/_fs.ts";
import type { CliIO } from "./cli_io.ts";

/** The usage text of `view`. */
const VIEW_USAGE: string =
  `Usage: claude-mock view <tape> [--out <file.html>] [--compare <other tape>] [--title <text>]

Writes the tape's timeline as one self-contained HTML file (default: the tape's path with
.html) and prints the file's path. <tape> is a path, a file: URL or an http(s): URL. A tape
file over 16 MB is written in parts (x.html, x.part2.html, ...), one page per part linked to
the next, in bounded memory; every page's path is printed.
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

/**
 * A tape file larger than this is viewed in parts of about this much tape each: a page per
 * part, read twice from the file as a stream, so memory stays bounded whatever the size.
 */
const PART_BYTES = 16 * 1024 * 1024;

/** The size of a local tape file, or `undefined` for a URL or a file that cannot be read. */
async function localSize(pathOrUrl: string, cwd: string): Promise<number | undefined> {
  if (URL_LIKE.test(pathOrUrl) && !pathOrUrl.startsWith("file:")) return undefined;
  try {
    return await fileSize(resolve(pathOrUrl, cwd));
  } catch {
    return undefined;
  }
}

/**
 * Writes a long tape's timeline as parts (`x.html`, `x.part2.html`, …): a first pass counts
 * the entries and reads the header and ending, a second renders each part's entries as it
 * reaches them. Resolves with the pages' paths, in order.
 */
async function viewInParts(
  path: string,
  target: string,
  options: { size: number; title?: string },
): Promise<string[]> {
  let count = 0;
  const counting = readTapeEntries(path);
  let step = await counting.next();
  for (; !step.done; step = await counting.next()) count++;
  const summary = step.value;
  const perPart = Math.max(1_000, Math.floor((count * PART_BYTES) / options.size));
  const parts = Math.max(1, Math.ceil(count / perPart));
  const base = target.replace(/\.html?$/i, "");
  const pageOf = (i: number) => (i === 1 ? target : `${base}.part${i}.html`);
  const nameOf = (i: number) => pageOf(i).replace(/^.*\//, "");
  const pages: string[] = [];
  let entries: TapeEntry[] = [];
  const write = async () => {
    const index = pages.length + 1;
    const last = index === parts;
    const tape: Tape = {
      header: summary.header,
      entries,
      ...(last && summary.ending ? { ending: summary.ending } : {}),
      ...(last ? { complete: summary.complete } : {}),
      ...(summary.source !== undefined ? { source: summary.source } : {}),
    };
    const html = timelineHtml(tape, {
      ...(options.title !== undefined ? { title: options.title } : {}),
      part: { index, count: parts, href: nameOf },
    });
    entries = [];
    const page = pageOf(index);
    try {
      await writeWhole(page, html);
    } catch (error) {
      throw new Error(
        `Cannot write timeline to ${page}: ${error instanceof Error ? error.message : error}`,
      );
    }
    pages.push(page);
  };
  for await (const entry of readTapeEntries(path)) {
    entries.push(entry);
    if (entries.length === perPart && pages.length + 1 < parts) await write();
  }
  await write();
  return pages;
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
      const size = args.compare === undefined ? await localSize(args.tape, io.cwd) : undefined;
      if (size !== undefined && size > PART_BYTES) {
        const pages = await viewInParts(resolve(args.tape, io.cwd), target, { size, ...args });
        await say(out, pages.map((p) => `${p}\n`).join(""));
        return 0;
      }
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
