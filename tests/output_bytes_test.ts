// The engine's output, byte for byte, pinned: a digest of every line written in a few dozen
// varied sessions (tools, permissions, hooks, partial messages, thinking, failures, local
// commands, several turns, the built-in scenarios, the SDK through MockTransport, the fake
// binary's stream-json). Work that only makes the engine faster (line templates, cached
// frames, batched writes) must leave every digest as it is.
//
// A digest differs only when what the engine writes changed: when that change is meant (a
// fidelity fix), re-pin with
//   OUTPUT_BYTES_PIN=1 deno test -A tests/output_bytes_test.ts
// and say in the commit which lines changed and why. OUTPUT_BYTES_DUMP=<folder> writes each
// session's output there (to diff before against after).
import assert from "node:assert/strict";
import { query, type SpawnedProcess } from "@anthropic-ai/claude-agent-sdk";
import { installFakeClaude } from "../cli.ts";
import {
  any,
  BUILTIN_SCENARIO_NAMES,
  builtinScenario,
  exact,
  MockTransport,
  type Scenario,
  ScenarioBuilder,
} from "../mod.ts";
import { Session } from "../session.ts";

const PINNED = new URL("./fixtures/output_bytes.json", import.meta.url);
const decoder = new TextDecoder();
const line = (frame: unknown) => JSON.stringify(frame) + "\n";
const SDK_ARGS = ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"];
const ENV = {
  CLAUDE_AGENT_SDK_VERSION: "0.3.328",
  CLAUDE_CODE_ENTRYPOINT: "sdk-ts",
  IS_SANDBOX: "1",
};

/** How the scripted client answers what the mock asks. */
interface Client {
  /** `can_use_tool`: allow (default), deny, or alternate starting with allow. */
  permission?: "allow" | "deny" | "alternate";
  /** `hook_callback`: what each callback answers (default `{}`). */
  hook?: (input: Record<string, unknown>, n: number) => Record<string, unknown>;
}

interface Case {
  scenario: () => Scenario;
  prompts: string[];
  args?: string[];
  initialize?: Record<string, unknown>;
  client?: Client;
}

/**
 * One session on the engine alone, driven as the SDK drives it: initialize, then each prompt
 * once the previous turn's result arrived; every control request answered as `client` says.
 */
async function drive(c: Case): Promise<string> {
  const out: string[] = [];
  let permissions = 0;
  let hooks = 0;
  let next = 0;
  const session = new Session(c.scenario(), {
    args: c.args ?? SDK_ARGS,
    env: ENV,
    output: (bytes) => {
      const text = decoder.decode(bytes);
      out.push(text);
      for (const l of text.split("\n")) {
        if (l === "") continue;
        const frame = JSON.parse(l);
        if (frame.type === "control_request") {
          const request = frame.request;
          let response: Record<string, unknown> = {};
          if (request.subtype === "can_use_tool") {
            const mode = c.client?.permission ?? "allow";
            const allow = mode === "allow" || (mode === "alternate" && permissions % 2 === 0);
            permissions++;
            response = allow
              ? { behavior: "allow", updatedInput: request.input }
              : { behavior: "deny", message: "not today" };
          } else if (request.subtype === "hook_callback") {
            response = c.client?.hook?.(request.input, hooks++) ?? {};
          }
          queueMicrotask(() =>
            session.write(line({
              type: "control_response",
              response: { subtype: "success", request_id: frame.request_id, response },
            }))
          );
        } else if (frame.type === "result") {
          queueMicrotask(send);
        }
      }
    },
  });
  const send = () => {
    if (next < c.prompts.length) {
      session.write(line({
        type: "user",
        session_id: "",
        message: { role: "user", content: c.prompts[next++] },
        parent_tool_use_id: null,
      }));
    } else session.endInput();
  };
  session.write(line({
    type: "control_request",
    request_id: "init_1",
    request: { subtype: "initialize", ...c.initialize },
  }));
  send();
  await session.exited;
  return out.join("");
}

const hooksOf = (...events: string[]) => ({
  hooks: Object.fromEntries(
    events.map((e, i) => [e, [{ matcher: null, hookCallbackIds: [`hook_${i}`] }]]),
  ),
});

const tools = (seed: number) => () =>
  new ScenarioBuilder({ seed }).on("work", { repeat: true })
    .usesRead("/home/user/project/a.txt", { content: "alpha\nbeta\n" })
    .usesBash("ls -la", { stdout: "a.txt\nb.txt" })
    .usesWrite("/home/user/project/c.txt", { content: "gamma" })
    .usesEdit("/home/user/project/a.txt", { oldString: "alpha", newString: "ALPHA" })
    .usesGlob("**/*.txt", { files: ["a.txt", "b.txt"] })
    .usesGrep("beta", {})
    .respond("All done.")
    .on(any(), { repeat: true }).respond("Something else.").build();

const chat = (seed: number, timing?: "instant" | "realistic" | "slow") => () =>
  new ScenarioBuilder({ seed, ...(timing ? { timing } : {}) })
    .on("hi", { repeat: true }).respond("Hello there! How are you doing on this fine day?")
    .on("think", { repeat: true }).respond("Thought it through.", {
      thinking: "Let me consider this carefully, step by step.",
    })
    .on(exact("long"), { repeat: true }).respond("word ".repeat(400).trim())
    .build();

const CASES: Record<string, Case> = {
  "chat, three turns": { scenario: chat(1), prompts: ["hi", "hi", "hi"] },
  "chat, partial messages": {
    scenario: chat(2),
    prompts: ["hi", "think", "long"],
    args: [...SDK_ARGS, "--include-partial-messages"],
  },
  "chat, realistic timing": {
    scenario: chat(3, "realistic"),
    prompts: ["hi", "think"],
    args: [...SDK_ARGS, "--include-partial-messages"],
  },
  "chat, slow timing, sonnet": {
    scenario: chat(4, "slow"),
    prompts: ["hi", "long"],
    args: [...SDK_ARGS, "--model", "sonnet"],
  },
  "thinking": { scenario: chat(5), prompts: ["think", "think"] },
  "unmatched prompt": { scenario: chat(6), prompts: ["nothing matches this", "hi"] },
  "local commands": { scenario: chat(7), prompts: ["hi", "/cost", "/compact", "hi", "/context"] },
  "tools, bypass": {
    scenario: tools(8),
    prompts: ["work", "work"],
    args: [...SDK_ARGS, "--permission-mode", "bypassPermissions"],
  },
  "tools, partial messages": {
    scenario: tools(9),
    prompts: ["work"],
    args: [...SDK_ARGS, "--include-partial-messages", "--permission-mode", "acceptEdits"],
  },
  "tools, permissions asked and allowed": {
    scenario: tools(10),
    prompts: ["work"],
    args: [...SDK_ARGS, "--permission-prompt-tool", "stdio"],
  },
  "tools, permissions denied": {
    scenario: tools(11),
    prompts: ["work", "other"],
    args: [...SDK_ARGS, "--permission-prompt-tool", "stdio"],
    client: { permission: "deny" },
  },
  "tools, permissions alternate": {
    scenario: tools(12),
    prompts: ["work"],
    args: [...SDK_ARGS, "--permission-prompt-tool", "stdio", "--include-partial-messages"],
    client: { permission: "alternate" },
  },
  "hooks, all pass": {
    scenario: tools(13),
    prompts: ["work", "again"],
    args: [...SDK_ARGS, "--permission-mode", "bypassPermissions"],
    initialize: hooksOf("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"),
  },
  "hooks, context and blocks": {
    scenario: tools(14),
    prompts: ["work"],
    args: [...SDK_ARGS, "--permission-prompt-tool", "stdio"],
    initialize: hooksOf("PreToolUse", "PostToolUse", "UserPromptSubmit"),
    client: {
      hook: (input, n) =>
        input.hook_event_name === "UserPromptSubmit"
          ? { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "ctx" } }
          : input.hook_event_name === "PreToolUse" && n % 3 === 1
          ? {
            hookSpecificOutput: {
              hookEventName: "PreToolUse",
              permissionDecision: "deny",
              permissionDecisionReason: "blocked by policy",
            },
          }
          : {},
    },
  },
  "hooks, prompt stopped": {
    scenario: chat(15),
    prompts: ["hi", "hi"],
    initialize: hooksOf("UserPromptSubmit"),
    client: { hook: (_, n) => (n === 0 ? { continue: false, stopReason: "held" } : {}) },
  },
  "subagent": {
    scenario: () =>
      new ScenarioBuilder({ seed: 16 }).on(any(), { repeat: true })
        .usesTask("look around", { prompt: "Find the files", result: "Found two." })
        .respond("The subagent found two files.").build(),
    prompts: ["go", "go"],
    args: [...SDK_ARGS, "--permission-mode", "bypassPermissions", "--include-partial-messages"],
  },
  "api error, retried": {
    scenario: () =>
      new ScenarioBuilder({ seed: 17 }).on(any(), { repeat: true })
        .apiError(529, { retries: 2, recovers: true }).respond("Recovered.").build(),
    prompts: ["go", "go"],
  },
  "api error, fatal": {
    scenario: () =>
      new ScenarioBuilder({ seed: 18 }).on(any(), { repeat: true }).apiError(400).build(),
    prompts: ["go"],
  },
  "named failures": {
    scenario: () =>
      new ScenarioBuilder({ seed: 19 })
        .on("a").failure("rate_limit")
        .on("b").failure("stream_cut_recovered")
        .on("c").failure("max_budget")
        .on("d").failure("malformed_stream_recovered")
        .build(),
    prompts: ["a", "b", "c", "d"],
  },
  "emit, raw and result steps": {
    scenario: () =>
      new ScenarioBuilder({ seed: 20 }).on(any(), { repeat: true })
        .emit({ type: "keep_alive" }, { type: "system", subtype: "status", status: null })
        .sendRaw('{"type":"raw_line","x":1}')
        .respond("after the frames")
        .thenResult({ result: "custom", totalCostUsd: 0.5, extra: { note: "x" } })
        .build(),
    prompts: ["x", "y"],
  },
  "max turns": {
    scenario: tools(21),
    prompts: ["work"],
    args: [...SDK_ARGS, "--max-turns", "2", "--permission-mode", "bypassPermissions"],
  },
  "many turns": {
    scenario: chat(22),
    prompts: Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? "think" : "hi")),
  },
  // pinned before results were written from line templates (speed goal b): a long session's
  // running totals, answers whose text JSON escapes or that go beyond ASCII, another model
  "a long session, 400 turns": {
    scenario: chat(23),
    prompts: Array.from({ length: 400 }, (_, i) => (i % 7 === 3 ? "think" : "hi")),
  },
  "answers that escape, beyond ASCII": {
    scenario: () =>
      new ScenarioBuilder({ seed: 24 })
        .on("q", { repeat: true }).respond('She said "hi" \\ then\nleft\ttab \u0001 \u2028 end')
        .on("e", { repeat: true }).respond("Café, naïve, 日本語, emoji 🎉 and \ud83d alone")
        .on(any(), { repeat: true }).respond("plain")
        .build(),
    prompts: ["q", "e", "q", "x", "e", "e", "x"],
  },
  "another model, many turns": {
    scenario: chat(25),
    prompts: Array.from({ length: 30 }, () => "hi"),
    args: [...SDK_ARGS, "--model", "claude-sonnet-5-5"],
  },
};
for (const name of BUILTIN_SCENARIO_NAMES) {
  CASES[`builtin ${name}`] = {
    scenario: () => builtinScenario(name),
    prompts: ["Hello", "Please run the tools", "Summarize it"],
    args: [...SDK_ARGS, "--permission-prompt-tool", "stdio", "--include-partial-messages"],
    client: { permission: "alternate" },
  };
}

/** The SDK's own request ids (random) replaced by their order of appearance. */
function ordinalIds(text: string): string {
  const ids = new Map<string, string>();
  return text.replace(
    /"request_id":"([^"]+)"/g,
    (_, id: string) => `"request_id":"${ids.get(id) ?? ids.set(id, `#${ids.size}`).get(id)}"`,
  );
}

/** One query() of the real SDK through MockTransport: what the mock wrote to it. */
async function throughSdk(
  scenario: Scenario,
  prompt: string,
  options: Record<string, unknown>,
): Promise<string> {
  const mock = new MockTransport(scenario);
  let read = "";
  for await (
    const _ of query({
      prompt,
      options: {
        ...options,
        spawnClaudeCodeProcess: (o) => {
          const child = mock.spawn(o) as unknown as SpawnedProcess;
          child.stdout.on("data", (c: Uint8Array) => void (read += decoder.decode(c)));
          return child;
        },
      },
    })
  ) {
    // drain
  }
  return ordinalIds(read);
}

/** `claude -p` of the fake binary (a subprocess), its folder's path replaced. */
async function binary(args: string[], input?: string): Promise<string> {
  await using fake = await installFakeClaude();
  const child = new Deno.Command("claude", {
    args,
    env: { ...fake.env, CLAUDE_MOCK_SEED: "5" },
    cwd: fake.dir,
    stdin: input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (input !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(input));
    await writer.close();
  }
  const out = await child.output();
  assert.equal(out.code, 0, decoder.decode(out.stderr));
  // the folder, and its project key (as in `~/.claude/projects/<key>`)
  return decoder.decode(out.stdout).replaceAll(fake.dir, "<dir>")
    .replaceAll(fake.dir.replace(/[^a-zA-Z0-9]/g, "-"), "<key>");
}

async function digest(text: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("Output bytes: every pinned session writes the same bytes as when it was pinned", async () => {
  const outputs: Record<string, string> = {};
  for (const [name, c] of Object.entries(CASES)) outputs[name] = await drive(c);
  outputs["sdk query(), chat"] = await throughSdk(chat(30)(), "hi", {});
  outputs["sdk query(), tools and canUseTool"] = await throughSdk(tools(31)(), "work", {
    includePartialMessages: true,
    canUseTool: (_name: string, input: Record<string, unknown>) =>
      Promise.resolve({ behavior: "allow", updatedInput: input }),
  });
  outputs["binary, print stream-json"] = await binary([
    "-p",
    "hello",
    "--output-format",
    "stream-json",
    "--verbose",
  ]);
  outputs["binary, stream-json in and out"] = await binary(
    ["-p", "--output-format", "stream-json", "--input-format", "stream-json", "--verbose"],
    ["hello", "what can you do", "hello"].map((text) =>
      line({ type: "user", message: { role: "user", content: text } })
    ).join(""),
  );
  outputs["binary, json"] = await binary(["-p", "hello", "--output-format", "json"]);

  const dump = Deno.env.get("OUTPUT_BYTES_DUMP");
  if (dump) {
    Deno.mkdirSync(dump, { recursive: true });
    for (const [name, text] of Object.entries(outputs)) {
      Deno.writeTextFileSync(`${dump}/${name.replace(/[^a-z0-9]+/gi, "_")}.jsonl`, text);
    }
  }
  const digests: Record<string, string> = {};
  for (const [name, text] of Object.entries(outputs)) {
    // every session wrote something, and line by line JSON
    assert.ok(text.length > 100, `${name}: ${JSON.stringify(text)}`);
    digests[name] = `${text.split("\n").length - 1} lines, ${await digest(text)}`;
  }
  if (Deno.env.get("OUTPUT_BYTES_PIN") === "1") {
    Deno.writeTextFileSync(PINNED, JSON.stringify(digests, null, 2) + "\n");
  }
  const pinned = JSON.parse(Deno.readTextFileSync(PINNED));
  assert.deepEqual(digests, pinned);
});
