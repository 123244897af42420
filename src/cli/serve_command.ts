/**
 * `claude-mock serve <scenario> [--port N] [--host H] [--cwd DIR] [--retry-after S]
 * [--journal FILE] [--quiet]`: serves the scenario-driven Messages API, prints its base URL,
 * and serves until the process is stopped (SIGTERM, Ctrl-C).
 *
 * @module
 */

import { serveMessagesApi } from "../messages_api/serve_messages_api.ts";
import type { JournalEntry } from "../messages_api/api_journal.ts";
import { loadScenario } from "../scenario/load_scenario.ts";
import { appendText, errorCode, writeText } from "../host/_fs.ts";
import {
  integerFlag,
  openSubcommand,
  parseSubcommandArgs,
  type SubcommandArgs,
  SubcommandUsageError,
} from "./_subcommand_args.ts";
import type { CliIO } from "./cli_io.ts";

const USAGE =
  "Usage: claude-mock serve <scenario> [--port N] [--host H] [--cwd DIR] [--retry-after S] [--journal FILE] [--quiet]";

const HELP = `${USAGE}

Serves the Anthropic Messages API from <scenario> (a scenario file, or builtin:<name>) and
prints its base URL on the first line of stdout. Point the real claude at it:

  ANTHROPIC_BASE_URL=<url> ANTHROPIC_API_KEY=any claude -p hello

The model's side (text, thinking, tool uses, stop reasons, usage, API failures) comes from
the scenario; the CLI does the rest (permissions, hooks, tools, results) for real. Serves
until stopped (SIGTERM, Ctrl-C).

  --port N           the port (default 0: a free one)
  --host H           the address (default 127.0.0.1)
  --cwd DIR          the folder the CLI runs in: the scenario's cwd is replaced by it in
                     what the model says (tool inputs, text)
  --retry-after S    the retry-after header of error answers, in seconds (default 0)
  --journal FILE     append every request and its answer to FILE (JSON lines)
  --quiet            no line per request on stderr
`;

const encoder = new TextEncoder();

/**
 * The `serve` subcommand.
 *
 * @example Serving a builtin scenario until stopped
 * ```ts
 * import { serveCommand } from "./serve_command.ts";
 * const stop = new AbortController();
 * let url = "";
 * const running = serveCommand(["builtin:simple_conversation", "--quiet"], {
 *   argv: [],
 *   env: {},
 *   cwd: "/",
 *   stdin: new Blob([]).stream(),
 *   stdinIsTerminal: false,
 *   stdoutIsTerminal: false,
 *   stdout: new WritableStream({
 *     write: (c) => {
 *       url += new TextDecoder().decode(c);
 *       stop.abort();
 *     },
 *   }),
 *   stderr: new WritableStream(),
 *   signal: stop.signal,
 * });
 * console.log(await running, url.startsWith("http://127.0.0.1:")); // 0 true
 * ```
 */
export async function serveCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const out = io.stdout.getWriter();
  const err = io.stderr.getWriter();
  const say = (writer: WritableStreamDefaultWriter<Uint8Array>, text: string) =>
    writer.write(encoder.encode(text)).catch(() => {});
  try {
    const opened = await openSubcommand(() => serveArgs(argv), {
      usage: USAGE,
      help: HELP,
      out: (text) => say(out, text),
      err: (text) => say(err, text),
    });
    if (typeof opened === "number") return opened;
    const args = opened;
    let api;
    let log;
    try {
      const scenario = await loadScenario(resolvePath(args.positional[0], io.cwd));
      const journal = args.flags.journal ? resolvePath(args.flags.journal, io.cwd) : undefined;
      log = await requestLog({
        journal,
        say: args.flags.quiet === "true" ? undefined : (line) => void say(err, `${line}\n`),
      });
      api = await serveMessagesApi(scenario, {
        ...(args.port !== undefined ? { port: args.port } : {}),
        ...(args.flags.host ? { hostname: args.flags.host } : {}),
        ...(args.flags.cwd ? { cwd: resolvePath(args.flags.cwd, io.cwd) } : {}),
        ...(args.retryAfter !== undefined ? { retryAfterSeconds: args.retryAfter } : {}),
        onRequest: log.onRequest,
      });
    } catch (error) {
      await say(err, `claude-mock serve: ${error instanceof Error ? error.message : error}\n`);
      return 1;
    }
    await say(out, `${api.url}\n`);
    // the process now waits on the outside world: the binary arms its SIGTERM handler (which
    // aborts io.signal) before such waits, so a stop closes the server and flushes the journal
    (io as CliIO & { beforeWait?: () => void }).beforeWait?.();
    await new Promise<void>((resolve) => {
      if (io.signal?.aborted) return resolve();
      io.signal?.addEventListener("abort", () => resolve(), { once: true });
    });
    await api.close();
    await log.flushed();
    return 0;
  } finally {
    out.releaseLock();
    err.releaseLock();
  }
}

/** The subcommand's arguments, with `--port` and `--retry-after` as numbers. */
type ServeArgs = SubcommandArgs & { port?: number; retryAfter?: number };

/** Parses and checks the arguments (a `SubcommandUsageError` names what is wrong). */
function serveArgs(argv: readonly string[]): ServeArgs {
  const args = parseSubcommandArgs("serve", argv, {
    port: "string",
    host: "string",
    cwd: "string",
    "retry-after": "string",
    journal: "string",
    quiet: "boolean",
  });
  if (args.help) return args;
  if (args.positional.length !== 1) {
    throw new SubcommandUsageError(
      args.positional.length === 0
        ? "claude-mock serve: a scenario is required (a file, or builtin:<name>)"
        : `claude-mock serve: one scenario only, got ${args.positional.length}`,
    );
  }
  const port = integerFlag("serve", "port", args.flags.port, { min: 0, max: 65535 });
  const retryAfter = integerFlag("serve", "retry-after", args.flags["retry-after"], {
    min: 0,
    max: 86400,
  });
  return {
    ...args,
    ...(port !== undefined ? { port } : {}),
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  };
}

/**
 * Where the requests go: a line each to `say` (none with `--quiet`), and each entry appended
 * to the journal file, which starts empty (an error when it cannot be written).
 */
async function requestLog(
  { journal, say }: { journal?: string; say?: (line: string) => void },
): Promise<{ onRequest: (entry: JournalEntry) => void; flushed: () => Promise<void> }> {
  if (journal) {
    try {
      await writeText(journal, "");
    } catch (error) {
      throw new Error(`cannot write the journal ${journal}: ${errorCode(error) ?? error}`);
    }
  }
  let writes = Promise.resolve();
  const onRequest = (entry: JournalEntry) => {
    say?.(describeEntry(entry));
    if (journal) {
      writes = writes.then(() => appendText(journal, `${JSON.stringify(entry)}\n`)).catch(
        () => {},
      );
    }
  };
  return { onRequest, flushed: () => writes };
}

/** One line per request: `POST /v1/messages?beta=true 200 reply text,tool_use:Read (exchange 1 …, call 1)`. */
function describeEntry(entry: JournalEntry): string {
  const answer = entry.answer;
  const what = answer
    ? [
      answer.status || "-",
      answer.kind,
      answer.failure ?? "",
      answer.blocks?.join(",") ?? "",
      answer.error ? answer.error.message : "",
    ].filter((s) => s !== "").join(" ")
    : "(no answer)";
  const place = entry.place
    ? ` (${entry.place.description}, turn ${entry.place.turn + 1}, call ${entry.place.call + 1}${
      entry.place.attempt ? `, attempt ${entry.place.attempt + 1}` : ""
    })`
    : entry.kind === "conversation" || entry.kind === "unknown"
    ? ""
    : ` (${entry.kind})`;
  return `${entry.method} ${entry.path} ${what}${place}`;
}

function resolvePath(path: string, cwd: string): string {
  if (
    path.startsWith("builtin:") || /^[a-z][a-z0-9+.-]*:\/\//i.test(path) || path.startsWith("/")
  ) {
    return path;
  }
  return `${cwd.replace(/\/+$/, "")}/${path}`;
}
