import assert from "node:assert/strict";
import { loadConformCase, printPlan } from "./conform_case.ts";

Deno.test("loadConformCase: each wrong field is named, in the order the case is read", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cases: Array<[unknown, RegExp]> = [
      [[1], /: expected a JSON object$/],
      [{ name: "x" }, /expected a case \(with 'scenario'\) or a scenario file/],
      [{ scenario: 3 }, /'scenario' must be a scenario object, builtin:<name> or a path/],
      [{ scenario: "builtin:multi_tool", prompt: "a", prompts: ["b"] }, /not both/],
      [{ scenario: "builtin:multi_tool", prompt: 1 }, /'prompt' must be a string/],
      [{ scenario: "builtin:multi_tool", options: 1 }, /'options' must be an object/],
      [{ scenario: "builtin:multi_tool", name: "" }, /'name' must be a non-empty string/],
      [{ scenario: "builtin:multi_tool", interrupt: {} }, /'interrupt' must be \{ after/],
      [{ scenario: "builtin:multi_tool", print: 1 }, /'print' must be false or/],
      [{ scenario: "builtin:multi_tool", print: { formats: ["x"] } }, /'print.formats' must/],
      [{ scenario: "builtin:multi_tool", print: { args: [1] } }, /'print.args' must be/],
      [{ scenario: "builtin:multi_tool", print: { prompt: 1 } }, /'print.prompt' must be/],
      [{ scenario: "builtin:multi_tool", print: { stdin: 1 } }, /'print.stdin' must be true/],
      [{ scenario: "builtin:multi_tool", print: { input: [] } }, /'print.input' is not a print/],
      [
        { scenario: "builtin:multi_tool", print: { stdin: true, prompt: "a" } },
        /'print.prompt' or 'print.stdin', not both/,
      ],
      [{ scenario: "builtin:multi_tool", duplex: 1 }, /'duplex' must be true or false/],
      [{ scenario: "builtin:multi_tool", requests: {} }, /'requests' must be an array of/],
      [
        { scenario: "builtin:multi_tool", requests: [{ method: "interrupt" }] },
        /'requests' must be an array of \{ method: mcpServerStatus \| reconnectMcpServer/,
      ],
      [
        { scenario: "builtin:multi_tool", requests: [{ method: "mcpServerStatus", args: 1 }] },
        /'requests' must be an array of/,
      ],
    ];
    for (const [i, [data, message]] of cases.entries()) {
      const file = `${dir}/c${i}.json`;
      await Deno.writeTextFile(file, JSON.stringify(data));
      await assert.rejects(() => loadConformCase(file), (error: Error) => {
        assert.ok(error instanceof TypeError, JSON.stringify(data));
        assert.match(error.message, /^Cannot load the conformance case .*c\d+\.json: /);
        assert.match(error.message, message);
        return true;
      });
    }
    await Deno.writeTextFile(`${dir}/bad.json`, "{");
    await assert.rejects(() => loadConformCase(`${dir}/bad.json`), /bad\.json: not JSON/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadConformCase: prompts, print and a scenario beside the case", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/chat.json`,
      JSON.stringify({ exchanges: [{ on: { exact: "hi" }, steps: [{ say: "Hello" }] }] }),
    );
    await Deno.writeTextFile(
      `${dir}/case.json`,
      JSON.stringify({
        scenario: "chat.json",
        prompts: ["hi", "again"],
        print: { args: ["--verbose"] },
        duplex: false,
      }),
    );
    const c = await loadConformCase(`${dir}/case.json`);
    assert.equal(c.name, "case");
    assert.equal(c.scenarioSource, `${dir}/chat.json`);
    assert.deepEqual(c.prompt, ["hi", "again"]);
    assert.deepEqual(c.print, { args: ["--verbose"], formats: ["text", "json", "stream-json"] });
    assert.equal(c.duplex, false);
    await Deno.writeTextFile(`${dir}/plain.json`, JSON.stringify({ scenario: "chat.json" }));
    const plain = await loadConformCase(`${dir}/plain.json`);
    assert.equal(plain.prompt, "hello");
    assert.equal(plain.print, undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("printPlan: print.stdin sends the case's prompts on stdin, in every format", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/stdin.json`;
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        scenario: "builtin:simple_conversation",
        prompts: ["hello", "bye"],
        print: { stdin: true, args: ["--replay-user-messages"] },
      }),
    );
    const plan = printPlan(await loadConformCase(file));
    assert.deepEqual(plan?.stdin, ["hello", "bye"]);
    assert.deepEqual(plan?.args, ["--replay-user-messages"]);
    assert.deepEqual(plan?.formats, ["text", "json", "stream-json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadConformCase: requests make the case an SDK one (no print runs by default)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/r.json`;
    const requests = [{ method: "toggleMcpServer", args: ["calc", false] }];
    await Deno.writeTextFile(
      file,
      JSON.stringify({ scenario: "builtin:simple_conversation", prompt: "hello", requests }),
    );
    const c = await loadConformCase(file);
    assert.deepEqual(c.requests, requests);
    assert.equal(printPlan(c), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
