import assert from "node:assert/strict";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { isObject } from "../wire/frame.ts";
import { contentAfter } from "./file_contents.ts";
import { Session } from "./session.ts";
import { userPrompt } from "../builders/user.ts";

const ok = (toolUseResult: unknown) => ({ content: "", isError: false, toolUseResult });

Deno.test("contentAfter: a whole Read, a Write, an Edit applied once or everywhere", () => {
  const file = { content: "a-b-c", startLine: 1, numLines: 1, totalLines: 1 };
  assert.equal(contentAfter("Read", ok({ type: "text", file })), "a-b-c");
  assert.equal(contentAfter("Write", ok({ type: "create", content: "x" })), "x");
  const edit = { originalFile: "a-b-c", oldString: "-", newString: "$&+" };
  assert.equal(contentAfter("Edit", ok({ ...edit, replaceAll: false })), "a$&+b-c");
  assert.equal(contentAfter("Edit", ok({ ...edit, replaceAll: true })), "a$&+b$&+c");
});

Deno.test("contentAfter: nothing from a partial Read, an error, another tool", () => {
  const part = { content: "b", startLine: 2, numLines: 1, totalLines: 3 };
  assert.equal(contentAfter("Read", ok({ type: "text", file: part })), undefined);
  assert.equal(
    contentAfter("Write", { content: "denied", isError: true, toolUseResult: "Error" }),
    undefined,
  );
  assert.equal(contentAfter("Bash", ok({ stdout: "a-b-c" })), undefined);
});

/** The `tool_use_result` of each tool result the session wrote. */
async function toolResults(scenario: Scenario): Promise<Record<string, unknown>[]> {
  const session = new Session(scenario, {
    args: ["--permission-mode", "bypassPermissions"],
    root: false, // as any user but root: skipping permissions is allowed
  });
  const writer = session.writable.getWriter();
  await writer.write(
    `${JSON.stringify(userPrompt("fix it"))}\n`,
  );
  await writer.close();
  const body = await new Response(session.readable).text();
  return body.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l))
    .filter((f) => f.type === "user" && isObject(f.tool_use_result))
    .map((f) => f.tool_use_result);
}

Deno.test("an Edit without originalFile starts from the file the session's Read showed", async () => {
  const path = "/home/user/project/math.js";
  const scenario = new ScenarioBuilder({ name: "edit" }).on("fix it")
    .usesRead(path, { content: "const x = 1;\nconst add = (a, b) => a - b;\n" })
    .usesEdit(path, { oldString: "a - b", newString: "a + b" })
    .usesEdit(path, { oldString: "x = 1", newString: "x = 2" })
    .respond("Fixed.").build();
  const [, first, second] = await toolResults(scenario);
  assert.equal(first.originalFile, "const x = 1;\nconst add = (a, b) => a - b;\n");
  // the second Edit starts from the first's outcome
  assert.equal(second.originalFile, "const x = 1;\nconst add = (a, b) => a + b;\n");
  assert.deepEqual(
    (second.structuredPatch as { lines: string[] }[])[0].lines.filter((l) => l[0] !== " "),
    ["-const x = 1;", "+const x = 2;"],
  );
});

Deno.test("an Edit's own originalFile wins over what the session's Read showed", async () => {
  const path = "/home/user/project/math.js";
  const scenario = new ScenarioBuilder({ name: "edit" }).on("fix it")
    .usesRead(path, { content: "read content a - b\n" })
    .usesEdit(path, { oldString: "a - b", newString: "a + b", originalFile: "given a - b\n" })
    .respond("Fixed.").build();
  const [, edit] = await toolResults(scenario);
  assert.equal(edit.originalFile, "given a - b\n");
});
