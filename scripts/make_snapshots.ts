// deno run -A scripts/make_snapshots.ts — rewrites the scrubbed snapshot tapes in snapshots/
// from the real recordings in tests/fixtures/real/ (each tape with its .messages.jsonl, what
// the app received), scrubbed by scrubTape with the values the tapes themselves name (the
// recording's cwd and home), never the machine's, so every machine makes the same files.
// scripts/make_snapshots_test.ts checks that the committed files are what this makes.

import { loadTape } from "../src/cassette/load_tape.ts";
import { lintTape } from "../src/cassette/lint_tape.ts";
import { serializeTape } from "../src/cassette/parse_tape.ts";
import { scrubTape } from "../src/cassette/scrub_tape.ts";
import type { Tape, TapeEntry } from "../src/cassette/tape.ts";

/** The recordings made into snapshots, and what each shows. */
export const SNAPSHOTS: Readonly<Record<string, string>> = {
  hello: "a one-turn text answer",
  cp_allow_updated_input: "a tool permission (can_use_tool) allowed with a changed input",
  cp_hooks_all: "hook callbacks (UserPromptSubmit, PostToolUse, Stop) around a permission",
  mcp_sdk_tool: "an in-process MCP tool (mcp_message) after its permission",
  interrupt: "an interrupt while the answer streams (partial messages on)",
  partial_messages: "partial messages (stream_event frames)",
  api_error: "an API error (HTTP 400): a synthetic assistant message, an is_error result",
};

const ROOT = new URL("../", import.meta.url);
const FROM = "tests/fixtures/real";

/** The snapshot files, by name in snapshots/, with their text. */
export async function makeSnapshots(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const name of Object.keys(SNAPSHOTS)) {
    const source = `${FROM}/${name}.jsonl`;
    const tape = await loadTape(decodeURIComponent(new URL(source, ROOT).pathname));
    const messagesText = await Deno.readTextFile(new URL(`${FROM}/${name}.messages.jsonl`, ROOT));
    const messages = messagesText.split("\n").filter((l) => l.trim() !== "");
    // one scrub over both, so the messages get the values the tape names
    const both: Tape = {
      ...tape,
      entries: [
        ...tape.entries,
        ...messages.map((text, i): TapeEntry => ({
          t: 0,
          dir: "cli->sdk",
          line: -(i + 1),
          frame: JSON.parse(text),
        })),
      ],
    };
    const scrubbed = scrubTape(both, {
      machine: false,
      beforePersist: (t) => ({ ...t, header: { ...t.header, scrubbed_from: source } }),
    });
    const entries = scrubbed.entries.slice(0, tape.entries.length);
    const received = scrubbed.entries.slice(tape.entries.length);
    const out: Tape = { ...scrubbed, entries };
    const leaks = lintTape(out).filter((p) => ["secret", "path", "host"].includes(p.code));
    if (leaks.length > 0) {
      throw new Error(`Cannot make snapshot ${name}: ${leaks[0].message} (line ${leaks[0].line})`);
    }
    files.set(`${name}.jsonl`, serializeTape(out));
    files.set(
      `${name}.messages.jsonl`,
      received.map((e) => `${JSON.stringify((e as { frame: unknown }).frame)}\n`).join(""),
    );
  }
  return files;
}

if (import.meta.main) {
  for (const [name, text] of await makeSnapshots()) {
    await Deno.writeTextFile(new URL(`snapshots/${name}`, ROOT), text);
    console.log(`wrote snapshots/${name}`);
  }
}
