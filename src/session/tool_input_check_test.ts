import assert from "node:assert/strict";
import { checkToolInput, coercedToolInput } from "./tool_input_check.ts";
import { cliVersionFacts } from "../builders/cli_versions.ts";
import { sessionTools } from "../builders/tool_availability.ts";

const ROOT = new URL("../../", import.meta.url);

interface Use {
  name: string;
  input: Record<string, unknown>;
}

/** The tool uses of a conformance case and the real CLI's results for them, in order. */
function recorded(name: string, cli: string): { uses: Use[]; results: Record<string, unknown>[] } {
  const c = JSON.parse(Deno.readTextFileSync(new URL(`conformance/${name}.json`, ROOT)));
  const uses = (c.scenario.exchanges[0].steps as { tool?: Use }[])
    .flatMap((s) => (s.tool ? [s.tool] : []))
    .map((u) => ({
      name: u.name,
      // the recordings write the project folder as <cwd>
      input: JSON.parse(JSON.stringify(u.input).replaceAll("/home/user/project", "<cwd>")),
    }));
  const tape = Deno.readTextFileSync(
    new URL(`tests/fixtures/real/conform/${name}.duplex.v${cli}.jsonl`, ROOT),
  ).trim().split("\n").map((l) => JSON.parse(l));
  const results = tape.map((e) => e.frame).filter((f) =>
    f?.type === "user" && f.message?.content?.[0]?.type === "tool_result"
  );
  return { uses, results };
}

for (const cli of ["2.1.328", "2.1.332"]) {
  for (
    const [name, deferred] of [["tools_bad_input", false], [
      "tools_bad_input_deferred",
      true,
    ]] as const
  ) {
    Deno.test(`checkToolInput: every refusal of ${name} as CLI ${cli} words it`, () => {
      const { uses, results } = recorded(name, cli);
      const schemaTexts = cliVersionFacts(cli).facts.toolInputSchemas;
      let refused = 0;
      uses.forEach((use, i) => {
        const real = results[i] as {
          message: { content: { content: unknown; is_error?: boolean }[] };
          tool_use_result: unknown;
        };
        const text = real.message.content[0].content;
        const check = checkToolInput(use.name, use.input, { deferred, schemaTexts });
        if (typeof text !== "string" || !text.includes("InputValidationError")) {
          assert.ok(check === undefined || check.ok, `${use.name} ${JSON.stringify(use.input)}`);
          return;
        }
        refused++;
        assert.ok(check && !check.ok, `${use.name} ${JSON.stringify(use.input)} passed`);
        assert.equal(`<tool_use_error>${check.content}</tool_use_error>`, text);
        assert.equal(check.toolUseResult, real.tool_use_result);
      });
      assert.ok(refused >= 20, `only ${refused} refusals recorded`);
    });
  }
}

Deno.test("checkToolInput: parsed input in the schema's order, defaults filled in, strings read as numbers", () => {
  const check = checkToolInput("Edit", {
    replace_all: "true",
    new_string: "b",
    old_string: "a",
    file_path: "/x",
  });
  assert.deepEqual(check, {
    ok: true,
    input: { file_path: "/x", old_string: "a", new_string: "b", replace_all: true },
  });
  const edit = checkToolInput("Edit", { file_path: "/x", old_string: "a", new_string: "b" });
  assert.equal(edit?.ok && edit.input.replace_all, false);
  // unknown tools (MCP, the task tools) are not checked
  assert.equal(checkToolInput("mcp__calc__add", { a: "x" }), undefined);
  assert.equal(checkToolInput("TaskCreate", {}), undefined);
  // Task is the Agent tool
  const task = checkToolInput("Task", { description: "d" });
  assert.ok(task && !task.ok && task.content.startsWith("InputValidationError: Task failed"));
});

Deno.test("coercedToolInput: only strings read as numbers or booleans change, in place", () => {
  const input = { timeout: "5000", command: "make" };
  assert.deepEqual(Object.entries(coercedToolInput("Bash", input)), [
    ["timeout", 5000],
    ["command", "make"],
  ]);
  const plain = { command: "ls" };
  assert.equal(coercedToolInput("Bash", plain), plain);
  const bad = { command: 5 };
  assert.equal(coercedToolInput("Bash", bad), bad);
});

Deno.test("sessionTools: --tools takes the Agent tool by its name", () => {
  assert.deepEqual(sessionTools({ tools: ["Agent", "Read"] }), ["Task", "Read"]);
});
