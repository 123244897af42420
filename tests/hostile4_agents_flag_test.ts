// --agents checked as the real CLI checks it before anything runs (2.1.328 and 2.1.332, run on
// 2026-11-26; FINDINGS_agents.md, "--agents checks"): definitions of the wrong shape, a value
// that is no record, JSON text that does not parse, a file that is not there or is a folder
// stop the CLI with exit 1 and the CLI's words (the mock ran on, the bad agents left out or
// listed as given); a file's definitions are read; "__proto__" is no agent.
import assert from "node:assert/strict";
import { runFake } from "./_fake_cli.ts";

const HEAD = "Error: Invalid --agents configuration:\n";

async function agentsRun(value: string, dir: string) {
  const run = await runFake(
    ["-p", "hi", "--output-format", "stream-json", "--verbose", "--agents", value],
    dir,
  );
  const init = run.stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l))
    .find((f) => f.type === "system" && f.subtype === "init");
  return { ...run, agents: init?.agents as string[] | undefined };
}

Deno.test("--agents: definitions of the wrong shape stop the CLI with the real CLI's issues", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cases: Array<[string, string]> = [
      [
        '{"x":5,"y":{"description":5},"z":{"prompt":"p"}}',
        "x: Invalid input: expected object, received number\n" +
        "y.description: Invalid input: expected string, received number\n" +
        "y.prompt: Invalid input: expected string, received undefined\n" +
        "z.description: Invalid input: expected string, received undefined",
      ],
      ["[1]", "Invalid input: expected record, received array"],
      ["5", "Invalid input: expected record, received number"],
      ["false", "Invalid input: expected record, received boolean"],
      ['{"a":null}', "a: Invalid input: expected object, received null"],
      ['{"a":{"description":"","prompt":""}}', "a.description: Description cannot be empty"],
      [
        JSON.stringify({
          a: {
            description: "d",
            prompt: "p",
            tools: [1],
            disallowedTools: "x",
            maxTurns: "x",
            skills: 5,
            mcpServers: 5,
            color: 5,
            effort: 5,
            permissionMode: 5,
            memory: 5,
            background: 5,
            initialPrompt: 5,
            isolation: 5,
            model: "",
          },
        }),
        [
          "a.tools.0: Invalid input: expected string, received number",
          "a.disallowedTools: Invalid input: expected array, received string",
          "a.model: Model cannot be empty",
          'a.permissionMode: Invalid option: expected one of "acceptEdits"|"auto"|"bypassPermissions"|"default"|"dontAsk"|"plan"',
          "a.mcpServers: Invalid input: expected array, received number",
          "a.maxTurns: Invalid input: expected number, received string",
          "a.skills: Invalid input: expected array, received number",
          "a.initialPrompt: Invalid input: expected string, received number",
          'a.memory: Invalid option: expected one of "user"|"project"|"local"',
          "a.background: Invalid input: expected boolean, received number",
          'a.isolation: Invalid option: expected one of "worktree"|"remote"',
        ].join("\n"),
      ],
      [
        '{"a":{"description":"d","prompt":"p","maxTurns":-1}}',
        "a.maxTurns: Too small: expected number to be >0",
      ],
    ];
    for (const [value, issues] of cases) {
      const run = await agentsRun(value, dir);
      assert.equal(run.code, 1, value);
      assert.equal(run.stdout, "", value);
      assert.equal(run.stderr, `${HEAD}${issues}\n`, value);
    }
    // JSON text that does not parse (the message is V8's; the real CLI's is JavaScriptCore's)
    const bad = await agentsRun("{bad", dir);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^Error: Invalid --agents configuration:\ninvalid JSON: \S/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--agents: a file path is read (missing, a folder, not JSON, bad definitions: the CLI's words)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/ok.json`, '{"fa":{"description":"d","prompt":"p"}}');
    await Deno.writeTextFile(`${dir}/bad.json`, '{"fa":{"description":5}}');
    await Deno.writeTextFile(`${dir}/arr.json`, "[1]");
    await Deno.mkdir(`${dir}/folder`);
    const ok = await agentsRun("ok.json", dir);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(ok.agents, [
      "claude",
      "Explore",
      "fa",
      "general-purpose",
      "Plan",
      "statusline-setup",
    ]);
    const bad = await agentsRun("bad.json", dir);
    assert.equal(
      bad.stderr,
      `${HEAD}fa.description: Invalid input: expected string, received number\n` +
        `fa.prompt: Invalid input: expected string, received undefined\n(read from ${dir}/bad.json)\n`,
    );
    const arr = await agentsRun("arr.json", dir);
    assert.equal(
      arr.stderr,
      `${HEAD}Invalid input: expected record, received array\n(read from ${dir}/arr.json)\n`,
    );
    for (const missing of ["null", "agents.json"]) {
      const run = await agentsRun(missing, dir);
      assert.equal(run.code, 1);
      assert.equal(
        run.stderr,
        `Error: --agents file not found: ${dir}/${missing} (a value that is not a JSON object is read as a file path)\n`,
      );
    }
    const folder = await agentsRun("folder", dir);
    assert.equal(folder.code, 1);
    assert.equal(
      folder.stderr,
      `Error reading --agents file ${dir}/folder: EISDIR: illegal operation on a directory, read\n`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--agents: odd names as the real CLI lists them; __proto__ is no agent; deep JSON is no stack overflow", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const odd = await agentsRun(
      JSON.stringify({
        "": { description: "e", prompt: "p" },
        ["__proto__"]: { description: "x", prompt: "p" },
        "ü名": { description: "u", prompt: "p" },
      }),
      dir,
    );
    assert.equal(odd.code, 0, odd.stderr);
    assert.deepEqual(odd.agents, [
      "",
      "claude",
      "Explore",
      "general-purpose",
      "Plan",
      "statusline-setup",
      "ü名",
    ]);
    const deep = await agentsRun(`${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`, dir);
    assert.equal(deep.code, 1);
    assert.match(deep.stderr, /^Error: Invalid --agents configuration:\na\.description: /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
