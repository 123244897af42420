// File tools and Bash results as the real CLI (2.1.328 and 2.1.332) reports them, found by the
// conformance cases files_* and bash_edge_results (tests/fixtures/real/FINDINGS_tools.md).
import assert from "node:assert/strict";
import type { CanUseTool, HookCallback } from "@anthropic-ai/claude-agent-sdk";
import { MockTransport, runQuery, ScenarioBuilder, scenarioFromJSON } from "../mod.ts";
import { scenarioToJSON } from "../scenario_file.ts";

const CWD = "/home/user/project";
const NOTES = "# Notes\nThe build uses make.\nRun make test.\n";

type ToolResultFrame = {
  type: "user";
  tool_use_result: unknown;
  tool_result_meta?: unknown;
  message: { content: Array<{ content: unknown; is_error?: boolean }> };
};

function toolResults(messages: readonly unknown[]): ToolResultFrame[] {
  // deno-lint-ignore no-explicit-any
  return (messages as any[]).filter((m) => m.type === "user" && "tool_use_result" in m);
}

Deno.test("a Write over a file the session read updates it: the read content is the original", async () => {
  const scenario = new ScenarioBuilder({ cwd: CWD }).on("go")
    .usesRead(`${CWD}/notes.txt`, { content: NOTES })
    .usesWrite(`${CWD}/notes.txt`, { content: "# Notes\nThe build uses ninja.\n" })
    .respond("Rewritten.").build();
  const { messages } = await runQuery(new MockTransport(scenario), "go", {
    permissionMode: "acceptEdits",
  });
  const write = toolResults(messages)[1];
  const r = write.tool_use_result as Record<string, unknown>;
  assert.equal(r.type, "update");
  assert.equal(r.originalFile, NOTES);
  assert.equal((r.structuredPatch as unknown[]).length, 1);
  assert.match(String(write.message.content[0].content), /^The file .* has been updated/);
});

Deno.test("a Write over an existing file the session never read: originalFile says what it held", async () => {
  const scenario = new ScenarioBuilder({ cwd: CWD }).on("go")
    .usesWrite(`${CWD}/notes.txt`, { content: "# Notes\n", originalFile: NOTES })
    .respond("Rewritten.").build();
  const { messages } = await runQuery(new MockTransport(scenario), "go", {
    permissionMode: "acceptEdits",
  });
  const r = toolResults(messages)[0].tool_use_result as Record<string, unknown>;
  assert.equal(r.type, "update");
  assert.equal(r.originalFile, NOTES);
});

Deno.test("an Edit whose old_string is not in the file fails before hooks and permission: nothing asked", async () => {
  const asked: string[] = [];
  const scenario = new ScenarioBuilder({ cwd: CWD }).on("go")
    .usesRead(`${CWD}/notes.txt`, { content: NOTES })
    .usesEdit(`${CWD}/notes.txt`, { oldString: "cmake", newString: "ninja" })
    .respond("Not there.").build();
  const { messages } = await runQuery(new MockTransport(scenario), "go", {
    canUseTool: ((name, input) => {
      asked.push(name);
      return Promise.resolve({ behavior: "allow", updatedInput: input });
    }) as CanUseTool,
    hooks: {
      PreToolUse: [{
        hooks: [
          ((input) => {
            asked.push(`hook:${(input as { tool_name: string }).tool_name}`);
            return Promise.resolve({});
          }) as HookCallback,
        ],
      }],
    },
  });
  assert.deepEqual(asked, ["hook:Read"]);
  const edit = toolResults(messages)[1];
  assert.equal(edit.tool_use_result, "Error: String to replace not found in file.\nString: cmake");
  assert.equal(edit.tool_result_meta, undefined);
});

Deno.test("a command writing to stderr with >&2 is read-only: it runs unasked", async () => {
  const asked: string[] = [];
  const scenario = new ScenarioBuilder({ cwd: CWD }).on("go")
    .usesBash("echo oops >&2", { stderr: "oops\n" })
    .usesBash("echo fine 1>&2", { stderr: "fine\n" })
    .respond("Done.").build();
  const { messages } = await runQuery(new MockTransport(scenario), "go", {
    canUseTool: ((name, input) => {
      asked.push(`${name}:${input.command}`);
      return Promise.resolve({ behavior: "allow", updatedInput: input });
    }) as CanUseTool,
  });
  assert.deepEqual(asked, []);
  assert.deepEqual(toolResults(messages).map((r) => r.tool_result_meta), [
    ...toolResults(messages).map((r) => [{
      id: (r.message.content[0] as unknown as { tool_use_id: string }).tool_use_id,
      permission_decision: {
        decision: "accept",
        source: "config",
        reason_type: "subcommandResults",
      },
    }]),
  ]);
});

Deno.test("a tool step's thinking: the message thinks, then says, then uses the tool (scenario file and builder)", async () => {
  const scenario = scenarioFromJSON({
    name: "think-then-read",
    cwd: CWD,
    exchanges: [{
      on: { any: true },
      steps: [
        {
          read: { path: `${CWD}/notes.txt`, content: NOTES },
          thinking: "I should read the notes first.",
          say: "Reading.",
        },
        {
          together: [{ bash: { command: "ls" } }, { bash: { command: "pwd" } }],
          thinking: "Two commands at once.",
        },
        { say: "Done." },
      ],
    }],
  });
  const { messages } = await runQuery(new MockTransport(scenario), "go", {
    permissionMode: "acceptEdits",
  });
  const assistants = messages.filter((m) => m.type === "assistant") as unknown as Array<
    { message: { content: Array<{ type: string; thinking?: string; signature?: string }> } }
  >;
  // the CLI writes one assistant frame per content block
  const types = assistants.map((a) => a.message.content.map((b) => b.type).join("+"));
  assert.deepEqual(types, [
    "thinking",
    "text",
    "tool_use",
    "thinking",
    "tool_use",
    "tool_use",
    "text",
  ]);
  assert.equal(assistants[0].message.content[0].thinking, "I should read the notes first.");
  assert.ok(assistants[0].message.content[0].signature);
  assert.throws(
    () =>
      scenarioFromJSON({
        name: "bad",
        exchanges: [{ on: "x", steps: [{ bash: { command: "ls" }, thinking: 3 }] }],
      }),
    /'exchanges\[0\]\.steps\[0\]\.thinking' must be a string/,
  );
  assert.throws(
    () => new ScenarioBuilder().on("x").usesBash("ls", { thinking: 3 as never }),
    /options\.thinking/,
  );
});

Deno.test("the task tools of an older model run unasked on the session's task list (task_tools_state)", async () => {
  const asked: string[] = [];
  const scenario = new ScenarioBuilder({ cwd: CWD }).on("go")
    .usesTool("TaskCreate", { subject: "Build", description: "Run make" })
    .usesTool("TaskUpdate", { taskId: "1", status: "in_progress" })
    .usesTool("TaskList", {})
    .respond("Tracking.").build();
  const { messages } = await runQuery(new MockTransport(scenario), "go", {
    model: "claude-sonnet-4-5",
    canUseTool: ((name, input) => {
      asked.push(name);
      return Promise.resolve({ behavior: "allow", updatedInput: input });
    }) as CanUseTool,
  });
  assert.deepEqual(asked, []);
  const results = toolResults(messages);
  assert.deepEqual(results.map((r) => r.message.content[0].content), [
    "Task #1 created successfully: Build",
    "Updated task #1 status",
    "#1 [in_progress] Build",
  ]);
  assert.deepEqual(
    (results[2].tool_result_meta as Array<{ permission_decision: unknown }>)[0].permission_decision,
    { decision: "accept", source: "config" },
  );
});

Deno.test("glob and grep steps: the files, lines and counts that match, unasked; file form round-trips; bad options named", async () => {
  const file = {
    name: "search",
    cwd: CWD,
    exchanges: [{
      on: { any: true },
      steps: [
        { glob: { pattern: "src/*.ts", files: ["src/a.ts", "src/b.ts"] } },
        { grep: { pattern: "make", outputMode: "content", lines: ["notes.txt:2:make"] } },
        { grep: { pattern: "export", outputMode: "count", counts: { "src/a.ts": 1 } } },
        { say: "Found." },
      ],
    }],
  };
  const scenario = scenarioFromJSON(file);
  assert.deepEqual(scenarioToJSON(scenario).exchanges, file.exchanges);
  const { messages } = await runQuery(new MockTransport(scenario), "go", {
    tools: ["Glob", "Grep"],
    canUseTool: (() => Promise.reject(new Error("nothing is asked"))) as CanUseTool,
  });
  assert.deepEqual(toolResults(messages).map((r) => r.message.content[0].content), [
    "src/a.ts\nsrc/b.ts",
    "notes.txt:2:make",
    "src/a.ts:1\n\nFound 1 total occurrence across 1 file.",
  ]);
  assert.throws(
    () =>
      scenarioFromJSON({
        name: "bad",
        exchanges: [{ on: "x", steps: [{ grep: { pattern: "p", counts: { a: 0 } } }] }],
      }),
    /'exchanges\[0\]\.steps\[0\]\.grep\.counts\["a"\]' must be an integer >= 1/,
  );
  assert.throws(
    () => new ScenarioBuilder().on("x").usesGrep("p", { lines: ["l"] }),
    /'exchanges\[0\]\.steps\[0\]' usesGrep: output mode files_with_matches reports options\.files/,
  );
  assert.throws(
    () => new ScenarioBuilder().on("x").usesGlob("p", {} as never),
    /usesGlob: options\.files must be an array of strings, got undefined/,
  );
});

Deno.test("a compound command asks about its parts that are not read-only: a rule for each, subcommandResults (bash_compound)", async () => {
  const asked: unknown[] = [];
  const scenario = new ScenarioBuilder({ cwd: CWD }).on("go")
    .usesBash("echo out; echo err >&2; exit 3", { stdout: "out\n", stderr: "err\n", exitCode: 3 })
    .usesBash("ls && npm run build --silent && touch a.txt", { exitCode: 1 })
    .respond("Done.").build();
  await runQuery(new MockTransport(scenario), "go", {
    canUseTool: ((_name, input, options) => {
      asked.push(options.suggestions);
      return Promise.resolve({ behavior: "allow", updatedInput: input });
    }) as CanUseTool,
  });
  const rules = (contents: string[]) => [{
    type: "addRules",
    rules: contents.map((ruleContent) => ({ toolName: "Bash", ruleContent })),
    behavior: "allow",
    destination: "localSettings",
  }];
  assert.deepEqual(asked, [rules(["exit 3"]), rules(["npm run *", "touch a.txt"])]);
});

Deno.test("a compound command no one can approve is denied naming its parts (bash_compound_unasked)", async () => {
  const scenario = new ScenarioBuilder({ cwd: CWD }).on("go")
    .usesBash("echo out; exit 3", { stdout: "out\n", exitCode: 3 })
    .usesBash("touch a.txt && rm -f b.txt")
    .respond("Done.").build();
  const { messages } = await runQuery(new MockTransport(scenario), "go");
  const denied = (messages as unknown as Array<Record<string, unknown>>)
    .filter((m) => m.subtype === "permission_denied")
    .map(({ decision_reason_type, decision_reason, message }) => ({
      decision_reason_type,
      decision_reason,
      message,
    }));
  const intro = "This Bash command contains multiple operations. The following";
  assert.deepEqual(denied, [
    {
      decision_reason_type: "subcommandResults",
      decision_reason: undefined,
      message: `${intro} part requires approval: exit 3`,
    },
    {
      decision_reason_type: "subcommandResults",
      decision_reason: undefined,
      message: `${intro} parts require approval: touch a.txt, rm -f b.txt`,
    },
  ]);
});

Deno.test("a notebookEdit step: unasked 'read it first' before a Read, then it edits the notebook the Read showed (files_notebook_edit)", async () => {
  const asked: string[] = [];
  const notebook = JSON.stringify({
    cells: [{ cell_type: "code", id: "c1", metadata: {}, outputs: [], source: ["print(1)"] }],
  });
  const path = `${CWD}/nb.ipynb`;
  const scenario = scenarioFromJSON({
    name: "nb",
    cwd: CWD,
    exchanges: [{
      on: { any: true },
      steps: [
        { notebookEdit: { path, cellId: "c1", newSource: "print(0)" } },
        { read: { path, content: notebook } },
        { notebookEdit: { path, cellId: "c1", newSource: "print(2)" } },
        { notebookEdit: { path, cellId: "c1", newSource: "print(3)" } },
        { say: "Done." },
      ],
    }],
  });
  const { messages } = await runQuery(new MockTransport(scenario), "go", {
    canUseTool: ((name, input) => {
      asked.push(`${name} ${input.new_source}`);
      return Promise.resolve({ behavior: "allow", updatedInput: input });
    }) as CanUseTool,
  });
  assert.deepEqual(asked, ["NotebookEdit print(2)", "NotebookEdit print(3)"]);
  const results = toolResults(messages);
  assert.equal(
    results[0].tool_use_result,
    "Error: File has not been read yet. Read it first before writing to it.",
  );
  assert.equal((results[1].tool_use_result as { type: string }).type, "notebook");
  assert.deepEqual(results.slice(2).map((r) => r.message.content[0].content), [
    "Updated cell c1 with print(2)",
    "Updated cell c1 with print(3)",
  ]);
  // the second edit starts from the first's notebook
  assert.equal((results[3].tool_use_result as { old_source: string }).old_source, "print(2)");
});
