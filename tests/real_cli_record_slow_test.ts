// SLOW, REAL BINARY: these tests run the real `claude` of the pinned SDK (resolved from the
// SDK's own location, as the SDK resolves it) against the scenario-driven Messages API. About
// 1 to 3 s each; no network beyond loopback, no API key.
import assert from "node:assert/strict";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { builtinScenario, scenarioFromJSON } from "../mod.ts";
import { serveMessagesApi } from "../messages_api.ts";
import { cassette, recordingSpawn } from "../cassette.ts";
import { resolveClaudeBinary } from "../src/conform/resolve_claude.ts";

const CLAUDE = resolveClaudeBinary(import.meta.resolve("@anthropic-ai/claude-agent-sdk"));

async function collect(
  prompt: string,
  options: Parameters<typeof query>[0]["options"],
): Promise<{ messages: SDKMessage[]; error?: string }> {
  const messages: SDKMessage[] = [];
  try {
    for await (const m of query({ prompt, options })) messages.push(m);
    return { messages };
  } catch (error) {
    return { messages, error: String(error) };
  }
}

Deno.test("real CLI: a cassette recorded with no API key (scenario API) replays to identical app messages", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const scenario = builtinScenario("tool_with_permission");
    const allow = {
      canUseTool: (_tool: string, input: Record<string, unknown>) =>
        Promise.resolve({ behavior: "allow" as const, updatedInput: input }),
    };
    let recorded;
    {
      await using tape = await cassette({ name: "record" }, "permission", {
        dir,
        mode: "record",
        api: { scenario },
        scrub: false,
        env: {},
      });
      recorded = await collect("Create out.txt with touch.", {
        ...allow,
        pathToClaudeCodeExecutable: CLAUDE,
        spawnClaudeCodeProcess: tape.spawn as never,
      });
    }
    assert.equal(recorded.error, undefined);
    const result = recorded.messages.at(-1) as { type: string; result?: string };
    assert.equal(result.type, "result");
    assert.equal(result.result, "Done.");
    // what the real CLI did: asked for Bash, ran it for real, reported the result
    const toolResults = recorded.messages.filter((m) =>
      m.type === "user" && JSON.stringify(m).includes('"tool_result"')
    );
    assert.equal(toolResults.length, 1);
    const text = await Deno.readTextFile(`${dir}/permission.jsonl`);
    assert.match(text.split("\n")[0], /"messages_api":"scenario"/);
    assert.match(text, /"subtype":"can_use_tool"/);
    let replayed;
    {
      await using tape = await cassette({ name: "replay" }, "permission", { dir, env: {} });
      // a recording with a canUseTool replays with the app's own callback (no stub needed)
      replayed = await collect("Create out.txt with touch.", {
        ...allow,
        spawnClaudeCodeProcess: tape.spawn as never,
      });
    }
    assert.equal(replayed.error, undefined);
    assert.deepEqual(replayed.messages, recorded.messages);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("real CLI: recordingSpawn with api runs the tools for real in the sandbox and journals the API calls", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const scenario = scenarioFromJSON({
      name: "write-and-read",
      exchanges: [{
        on: "go",
        steps: [
          { write: { path: "/home/user/project/made.txt", content: "made by the real CLI\n" } },
          { read: { path: "/home/user/project/seed.txt", content: "seeded\n" } },
          { say: "Both done." },
        ],
      }],
    });
    const spawn = recordingSpawn({
      out: `${dir}/tape.jsonl`,
      api: { scenario, files: { "seed.txt": "seeded\n" } },
    });
    const run = await collect("go", {
      pathToClaudeCodeExecutable: CLAUDE,
      spawnClaudeCodeProcess: spawn,
      permissionMode: "acceptEdits",
    });
    const tape = await spawn.finished;
    assert.equal(run.error, undefined);
    assert.equal(tape.ending?.code, 0);
    assert.deepEqual(
      spawn.journal.filter((e) => e.kind === "conversation").map((e) => e.place?.step),
      ["steps[0]", "steps[1]", "steps[2]"],
    );
    const results = tape.entries.flatMap((e) =>
      "frame" in e && e.frame.type === "user"
        ? JSON.stringify((e.frame as { message?: unknown }).message)
        : []
    );
    assert.match(results[1], /created successfully|File created/i);
    assert.match(results[2], /seeded/, "the real Read found the sandbox's seeded file");
    // the sandbox is gone once the tape is finished
    const init = tape.entries.find((e) => "frame" in e && e.frame.subtype === "init");
    const cwd = String((init as { frame: { cwd?: unknown } }).frame.cwd);
    await assert.rejects(() => Deno.stat(cwd), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("real CLI: what the CLI sends besides the conversation: the /api/hello probe and a title call, none without non-essential traffic", async () => {
  for (const nonessential of [false, true]) {
    await using api = await serveMessagesApi(builtinScenario("simple_conversation"));
    const work = await Deno.makeTempDir();
    try {
      const env: Record<string, string> = {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: work,
        ...api.env(),
        CLAUDE_CONFIG_DIR: work,
        CLAUDE_CODE_TMPDIR: work,
        ...(nonessential ? { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" } : {}),
      };
      const prompt = "Summarize the release notes of the parser module.";
      const run = await collect(prompt, { pathToClaudeCodeExecutable: CLAUDE, cwd: work, env });
      assert.equal(run.error, undefined);
      const result = run.messages.at(-1) as { result?: string };
      assert.equal(result.result, "I can help with that.", "the title call took no exchange");
      // the title call and the turn go out at once: their order varies
      assert.deepEqual(
        api.journal.map((e) => `${e.method} ${e.path.replace(/\?.*/, "")} ${e.kind}`).sort(),
        nonessential
          ? ["POST /v1/messages conversation"]
          : ["HEAD /api/hello probe", "POST /v1/messages conversation", "POST /v1/messages title"],
      );
      const title = api.journal.find((e) => e.kind === "title");
      if (title) assert.deepEqual(title.answer?.blocks, ["text"]);
    } finally {
      await Deno.remove(work, { recursive: true });
    }
  }
});

Deno.test("real CLI: the command-line snippets of docs/recording.md run as written", async () => {
  const doc = await Deno.readTextFile(new URL("../docs/recording.md", import.meta.url));
  // marked `ignore` for the docs run (they need the real binary): this test runs them
  const blocks = [...doc.matchAll(/```sh(?: ignore \([^)\n]*\))?\n([\s\S]*?)```/g)].map((m) =>
    m[1].trim()
  );
  assert.equal(blocks.length, 2);
  const cli = new URL("../cli.ts", import.meta.url).pathname;
  const dir = await Deno.makeTempDir();
  try {
    const argvOf = (
      line: string,
    ) => ["run", "-A", cli, ...line.replace(/^claude-mock /, "").split(/\s+/)];
    const env = { CLAUDE_MOCK_REAL_CLAUDE: CLAUDE };
    // record: runs the real claude in a sandbox against the scenario
    const record = await new Deno.Command(Deno.execPath(), {
      args: argvOf(blocks[0]),
      cwd: dir,
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(record.code, 0, new TextDecoder().decode(record.stderr));
    assert.equal(new TextDecoder().decode(record.stdout), "Hello! How can I help you today?\n");
    assert.match(await Deno.readTextFile(`${dir}/hello.jsonl`), /"messages_api":"scenario"/);
    // serve: prints its URL, serves until stopped (the snippet's & is the shell's)
    const serve = new Deno.Command(Deno.execPath(), {
      args: argvOf(blocks[1].replace(/\s*&$/, "")),
      cwd: dir,
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = serve.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const { value } = await reader.read();
    const url = value!.trim();
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${url}/v1/messages`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hello" }] }),
    });
    assert.equal((await response.json()).content[0].text, "Hello! How can I help you today?");
    serve.kill("SIGTERM");
    await reader.cancel();
    assert.equal((await serve.status).code, 0, "stopped cleanly by the signal");
    assert.match(await Deno.readTextFile(`${dir}/journal.jsonl`), /"kind":"conversation"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
