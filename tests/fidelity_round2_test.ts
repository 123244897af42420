// Fidelity round two: each recording of the real CLI 2.1.328 in tests/fixtures/real/r2_*
// (see FINDINGS_round2.md) replayed through the real SDK and the mock, both directions
// compared frame by frame (kinds, keys, order) with the values an app asserts on.
import assert from "node:assert/strict";
import { createSdkMcpServer, type HookCallback, tool } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import { ScenarioBuilder } from "../mod.ts";
import { compareTape, kindsFrom, recAllow } from "./_fidelity.ts";

const CWD = "/home/user/project";
const NOTES =
  "Project notes\n=============\n1. The build uses make.\n2. Tests live in tests/.\n3. Release on Fridays.\n";
const TODO = "TODO\n- write docs\n- fix flaky test\n";

const base = { permissionMode: "default" as const };

// ---- 1. counting num_turns

Deno.test("r2 fidelity: two tool uses in one message count two turns more", async () => {
  const { canUseTool } = recAllow();
  await compareTape(
    "r2_two_tools_one_message",
    new ScenarioBuilder()
      .on("Read notes.txt and todo.txt")
      .usesTogether((t) =>
        t.usesRead(`${CWD}/notes.txt`, { content: NOTES })
          .usesRead(`${CWD}/todo.txt`, { content: TODO }), { say: "I'll read both files." })
      .respond("notes.txt has three project notes; todo.txt lists two tasks.")
      .build(),
    { ...base, maxTurns: 5, canUseTool },
  );
});

Deno.test("r2 fidelity: three tool uses in one message (Read, Read, Bash ls)", async () => {
  const { canUseTool, calls } = recAllow();
  await compareTape(
    "r2_three_tools_one_message",
    new ScenarioBuilder()
      .on("list the directory")
      .usesTogether((t) =>
        t.usesRead(`${CWD}/notes.txt`, { content: NOTES })
          .usesRead(`${CWD}/todo.txt`, { content: TODO })
          .usesBash("ls", { description: "List files", stdout: "notes.txt\ntodo.txt" }), {
        say: "Reading and listing.",
      })
      .respond("Two files: notes.txt and todo.txt.")
      .build(),
    { ...base, maxTurns: 5, canUseTool },
  );
  assert.equal(calls.length, 0, "nothing asked: reads in the cwd and `ls` are read-only");
});

Deno.test("r2 fidelity: tool uses in two messages", async () => {
  const { canUseTool } = recAllow();
  await compareTape(
    "r2_tools_two_messages",
    new ScenarioBuilder()
      .on("then todo.txt")
      .usesRead(`${CWD}/notes.txt`, { content: NOTES, say: "First notes.txt." })
      .usesRead(`${CWD}/todo.txt`, { content: TODO, say: "Now todo.txt." })
      .respond("Both read: three notes and two tasks.")
      .build(),
    { ...base, maxTurns: 5, canUseTool },
  );
});

for (const maxTurns of [2, 3]) {
  Deno.test(`r2 fidelity: --max-turns ${maxTurns} counts API calls, not tool uses`, async () => {
    const { canUseTool } = recAllow();
    await compareTape(
      `r2_two_tools_max_turns_${maxTurns}`,
      new ScenarioBuilder()
        .on("Read notes.txt and todo.txt")
        .usesTogether((t) =>
          t.usesRead(`${CWD}/notes.txt`, { content: NOTES })
            .usesRead(`${CWD}/todo.txt`, { content: TODO }), { say: "I'll read both files." })
        .respond("notes.txt has three project notes; todo.txt lists two tasks.")
        .build(),
      { ...base, maxTurns, canUseTool },
    );
  });
}

// ---- 2. MCP isError with plain text

function diskServer(alwaysLoad: boolean) {
  return createSdkMcpServer({
    name: "disk",
    version: "1.0.0",
    tools: [
      tool(
        "save",
        "Save a note to disk",
        { note: z.string() },
        () =>
          Promise.resolve({
            content: [{ type: "text" as const, text: "disk quota exceeded" }],
            isError: true,
          }),
        alwaysLoad ? { alwaysLoad: true } : undefined,
      ),
    ],
  });
}

for (
  const [name, alwaysLoad] of [["r2_mcp_is_error_plain", false], [
    "r2_mcp_is_error_plain_always",
    true,
  ]] as const
) {
  Deno.test(`r2 fidelity: ${name} (the tool's text is kept)`, async () => {
    const { canUseTool, calls } = recAllow();
    await compareTape(
      name,
      new ScenarioBuilder()
        .on("Save the note")
        .usesTool("mcp__disk__save", { note: "buy milk" })
        .respond("Saving failed: the disk quota is exceeded.")
        .build(),
      { ...base, maxTurns: 3, canUseTool, mcpServers: { disk: diskServer(alwaysLoad) } },
    );
    assert.equal(calls.length, 1);
  });
}

// ---- 3. can_use_tool payloads

async function cut(
  name: string,
  build: (b: ReturnType<ScenarioBuilder["on"]>) => ReturnType<ScenarioBuilder["on"]>,
  settings?: Record<string, unknown>,
) {
  const { canUseTool, calls } = recAllow();
  await compareTape(
    name,
    build(new ScenarioBuilder().on(/.*/)).respond("Done.").build(),
    { ...base, maxTurns: 5, canUseTool, ...(settings ? { settings } : {}) },
  );
  return calls;
}

Deno.test("r2 fidelity: Write asked in the default mode", async () => {
  const calls = await cut(
    "r2_cut_write_default",
    (b) => b.usesWrite(`${CWD}/new.txt`, { content: "hello\n" }),
  );
  assert.deepEqual(calls[0].suggestions, [{
    type: "setMode",
    mode: "acceptEdits",
    destination: "session",
  }]);
});

Deno.test("r2 fidelity: Read, then an Edit asked", async () => {
  await cut("r2_cut_edit", (b) =>
    b.usesRead(`${CWD}/notes.txt`, { content: NOTES })
      .usesEdit(`${CWD}/notes.txt`, {
        oldString: "Release on Fridays.",
        newString: "Release on Mondays.",
        originalFile: NOTES,
      }));
});

Deno.test("r2 fidelity: Bash asked through an ask rule from --settings", async () => {
  const calls = await cut(
    "r2_cut_bash_ask_rule",
    (b) => b.usesBash("echo hi", { description: "Print hi", stdout: "hi" }),
    { permissions: { ask: ["Bash(echo:*)"] } },
  );
  assert.equal(calls[0].suggestions, undefined);
  assert.equal(calls[0].decisionReasonType, "rule");
});

Deno.test("r2 fidelity: Bash asked with no rule (blocked_path, three suggestions)", async () => {
  const calls = await cut(
    "r2_cut_bash_no_rule",
    (b) => b.usesBash("touch out.txt", { description: "Create out.txt" }),
  );
  assert.equal(calls[0].blockedPath, `${CWD}/out.txt`);
  assert.equal((calls[0].suggestions as unknown[]).length, 3);
});

Deno.test("r2 fidelity: Read outside the cwd", async () => {
  const calls = await cut(
    "r2_cut_read_outside",
    (b) => b.usesRead("/etc/hostname", { content: "vm\n" }),
  );
  assert.equal(calls[0].decisionReason, "Path is outside allowed working directories");
});

Deno.test("r2 fidelity: Read inside the cwd asked through an ask rule", async () => {
  await cut(
    "r2_cut_read_inside_ask",
    (b) => b.usesRead(`${CWD}/notes.txt`, { content: NOTES }),
    { permissions: { ask: ["Read"] } },
  );
});

// ---- 4. initialize answers

const hello = () =>
  new ScenarioBuilder().on("hello").respond("Hello! How can I help you today?").build();

Deno.test("r2 fidelity: initialize answer, no options", async () => {
  await compareTape("r2_init_plain", hello(), { maxTurns: 1 });
});

Deno.test("r2 fidelity: initialize answer with hooks (hooks_applied)", async () => {
  const hook: HookCallback = () => Promise.resolve({ continue: true });
  const { ours } = await compareTape("r2_init_hooks", hello(), {
    maxTurns: 1,
    hooks: { PreToolUse: [{ matcher: "Read", hooks: [hook] }] },
  });
  const answer = ours.out.find((f) => f.type === "control_response")!;
  assert.equal(
    (answer.response as { response: { hooks_applied: boolean } }).response.hooks_applied,
    true,
  );
});

for (
  const [name, alwaysLoad] of [["r2_init_mcp", true], ["r2_init_mcp_deferred", false]] as const
) {
  Deno.test(`r2 fidelity: initialize answer with an SDK MCP server (${name})`, async () => {
    const { ours } = await compareTape(name, hello(), {
      maxTurns: 1,
      mcpServers: { disk: diskServer(alwaysLoad) },
    });
    const answer = ours.out.find((f) => f.type === "control_response")!;
    assert.deepEqual(
      (answer.response as { response: Record<string, unknown> }).response.sdk_mcp_manifests_parked,
      { disk: "parked" },
    );
    const init = ours.out.find((f) => f.subtype === "init")!;
    assert.ok((init.tools as string[]).includes("mcp__disk__save"));
  });
}

// ---- 5. order of frames around SDK requests

function setModeScenario() {
  return new ScenarioBuilder()
    .on("Read notes.txt.")
    .usesRead(`${CWD}/notes.txt`, { content: NOTES })
    .respond("notes.txt has three notes.")
    .on("Fridays to Mondays")
    .usesEdit(`${CWD}/notes.txt`, {
      oldString: "Release on Fridays.",
      newString: "Release on Mondays.",
      originalFile: NOTES,
    })
    .respond("Changed Fridays to Mondays.")
    .build();
}

for (const name of ["r2_set_permission_mode", "r2_set_permission_mode_delay"]) {
  Deno.test(`r2 fidelity: ${name} (idle, the answer, then the status frame)`, async () => {
    const { canUseTool, calls } = recAllow();
    const { ours } = await compareTape(name, setModeScenario(), {
      ...base,
      maxTurns: 5,
      canUseTool,
      turns: [
        "Read notes.txt.",
        (q) => q.setPermissionMode("acceptEdits"),
        "Now change Fridays to Mondays in notes.txt.",
      ],
    });
    assert.equal(calls.length, 0, "the Edit runs without asking in acceptEdits");
    assert.deepEqual(kindsFrom(ours.out, "result/success", 4), [
      "result/success",
      "system/session_state_changed:idle",
      "control_response",
      "system/status:null",
    ]);
    const inits = ours.out.filter((f) => f.subtype === "init");
    assert.deepEqual(inits.map((f) => f.permissionMode), ["default", "acceptEdits"]);
  });
}

Deno.test("r2 fidelity: set_model (idle, the replayed command output, the answer)", async () => {
  const { ours } = await compareTape(
    "r2_set_model",
    new ScenarioBuilder().on("hello again").respond("Hello again!").on("hello").respond("Hello!")
      .build(),
    { maxTurns: 2, turns: ["hello", (q) => q.setModel("sonnet"), "hello again"] },
  );
  assert.deepEqual(kindsFrom(ours.out, "result/success", 4), [
    "result/success",
    "system/session_state_changed:idle",
    "user",
    "control_response",
  ]);
  const inits = ours.out.filter((f) => f.subtype === "init");
  assert.deepEqual(inits.map((f) => f.model), ["claude-opus-5-5", "claude-sonnet-5-5"]);
  const last = ours.messages.at(-1) as { modelUsage: Record<string, unknown> };
  assert.deepEqual(Object.keys(last.modelUsage), ["claude-opus-5-5", "claude-sonnet-5-5"]);
});

Deno.test("r2 fidelity: running after message_stop, message_stop after the answer (partial)", async () => {
  const { canUseTool } = recAllow();
  const { ours } = await compareTape(
    "r2_running_partial",
    new ScenarioBuilder()
      .on("touch")
      .usesBash("touch out.txt", { description: "Create out.txt", say: "Creating it." })
      .respond("Created out.txt.")
      .build(),
    { ...base, maxTurns: 3, canUseTool, includePartialMessages: true },
  );
  assert.deepEqual(kindsFrom(ours.out, "stream_event/message_delta", 5), [
    "stream_event/message_delta",
    "system/session_state_changed:requires_action",
    "control_request/can_use_tool",
    "stream_event/message_stop",
    "system/session_state_changed:running",
  ]);
});

// ---- 6. /compact

const HELLO = "Hello! How can I help you today?";
const SUMMARY_REPLY =
  "<analysis>\nThe user said hello; nothing else happened.\n</analysis>\n\n<summary>\nSummary of the conversation.\n</summary>";

for (
  const [name, prompt] of [["r2_compact", "/compact"], [
    "r2_compact_instructions",
    "/compact focus on tests",
  ]]
) {
  Deno.test(`r2 fidelity: ${name} (manual compaction, its frames and result)`, async () => {
    const { ours, real, mine } = await compareTape(
      name,
      new ScenarioBuilder({ compact: { reply: SUMMARY_REPLY, outputTokens: 25 } })
        .on("hello").respond(HELLO, { outputTokens: 25 })
        .build(),
      { maxTurns: 3, turns: ["hello", prompt] },
    );
    const summary = (f: { message: unknown }) => (f.message as { content: string }).content;
    const realSummary = real.find((f) => f.isSynthetic === true)!;
    const mySummary = mine.find((f) => f.isSynthetic === true)!;
    const scrub = (s: string) => s.replace(/[0-9a-f-]{36}\.jsonl/, "SESSION.jsonl");
    assert.equal(scrub(summary(mySummary as never)), scrub(summary(realSummary as never)));
    const realBoundary = real.find((f) => f.subtype === "compact_boundary")!;
    const myBoundary = mine.find((f) => f.subtype === "compact_boundary")!;
    assert.deepEqual(myBoundary.compact_metadata, realBoundary.compact_metadata);
    const realResult = real.filter((f) => f.type === "result")[1];
    const myResult = mine.filter((f) => f.type === "result")[1];
    assert.deepEqual(Object.keys(myResult), Object.keys(realResult), "compact result key order");
    for (
      const key of ["total_cost_usd", "num_turns", "duration_api_ms", "result", "local_command"]
    ) {
      assert.deepEqual(myResult[key], realResult[key], key);
    }
    assert.deepEqual(
      myResult.model_usage_since_last_result,
      realResult.model_usage_since_last_result,
    );
    assert.equal(ours.error, undefined);
  });
}

Deno.test("r2 fidelity: r2_compact_untagged (a second request, the first reply kept)", async () => {
  const { real, mine } = await compareTape(
    "r2_compact_untagged",
    new ScenarioBuilder({
      compact: {
        reply: "Summary of the conversation.",
        retryReply: "Summary of the conversation (second summarization request).",
        outputTokens: 25,
      },
    }).on("hello").respond(HELLO, { outputTokens: 25 }).build(),
    { maxTurns: 3, turns: ["hello", "/compact"] },
  );
  const realResult = real.filter((f) => f.type === "result")[1];
  const myResult = mine.filter((f) => f.type === "result")[1];
  assert.equal(myResult.total_cost_usd, realResult.total_cost_usd, "three calls paid");
  const boundary = (fs: typeof real) =>
    fs.find((f) => f.subtype === "compact_boundary")!.compact_metadata;
  assert.deepEqual(boundary(mine), boundary(real));
});
