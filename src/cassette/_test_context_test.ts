import assert from "node:assert/strict";
import {
  insideNodeModules,
  nodePreloadFlags,
  recordCommandOf,
  runnerOf,
  tapeNameOf,
  testFileOf,
  testNameOf,
} from "./_test_context.ts";
import { cassette } from "./use_cassette.ts";

const vitestContext = {
  task: {
    name: "says hello",
    file: { filepath: "/app/test/greet.test.ts" },
    suite: {
      name: "greeter",
      suite: { name: "test/greet.test.ts", filepath: "/app/test/greet.test.ts" },
    },
  },
};

Deno.test("testFileOf: each runner's test file", () => {
  assert.equal(testFileOf({ origin: "file:///app/a%20b/x_test.ts" }), "/app/a b/x_test.ts");
  assert.equal(testFileOf({ filePath: "/app/test/x.test.mjs" }), "/app/test/x.test.mjs");
  assert.equal(testFileOf(vitestContext), "/app/test/greet.test.ts");
  assert.equal(testFileOf({ task: vitestContext.task.suite }), "/app/test/greet.test.ts");
  assert.equal(
    testFileOf({ testPath: "/app/test/j.test.js", currentTestName: "x" }),
    "/app/test/j.test.js",
  );
  assert.equal(testFileOf({}), "");
});

Deno.test("testFileOf and testNameOf: a runner's global expect.getState() when the context has none", () => {
  const holder = globalThis as { expect?: unknown };
  holder.expect = {
    getState: () => ({ testPath: "/app/test/g.test.js", currentTestName: "suite works" }),
  };
  try {
    assert.equal(testFileOf({}), "/app/test/g.test.js");
    assert.equal(testNameOf({}), "suite works");
  } finally {
    delete holder.expect;
  }
});

Deno.test("testNameOf and tapeNameOf: tapes named after the test, suites first", () => {
  assert.equal(testNameOf(vitestContext), "greeter says hello");
  assert.equal(testNameOf({ currentTestName: "api retries twice" }), "api retries twice");
  assert.equal(testNameOf({ name: "x", fullName: "suite > x" }), "suite > x");
  assert.equal(testNameOf({ name: "plain" }), "plain");
  assert.equal(tapeNameOf("greeter says hello"), "greeter-says-hello");
  assert.equal(tapeNameOf("suite > x: 'quoted' (2)"), "suite-x-quoted-2");
  assert.equal(tapeNameOf("../../etc"), "etc");
  assert.equal(tapeNameOf("  "), "");
});

Deno.test("runnerOf and recordCommandOf: the command that records, for the runner in use", () => {
  assert.equal(runnerOf(vitestContext), "vitest");
  assert.equal(runnerOf({ origin: "file:///x_test.ts" }), "deno");
  assert.equal(runnerOf({ testPath: "/x.test.js" }), "jest");
  assert.equal(runnerOf({ filePath: "/x.test.mjs" }), "node");
  assert.equal(
    recordCommandOf("vitest", "t.test.ts"),
    "CLAUDE_MOCK_RECORD=1 npx vitest run t.test.ts",
  );
  assert.equal(
    recordCommandOf("jest", "t.test.js"),
    "CLAUDE_MOCK_RECORD=1 NODE_OPTIONS=--experimental-vm-modules npx jest t.test.js",
  );
  assert.equal(recordCommandOf("node", ""), "CLAUDE_MOCK_RECORD=1 node --test <test file>");
  assert.equal(
    recordCommandOf("deno", "x_test.ts"),
    "deno test -A x_test.ts -- --update, with the --config and other flags the tests ran with",
  );
});

Deno.test("recordCommandOf: under Node, with the flags that preload the hooks the tests ran with", () => {
  assert.equal(
    recordCommandOf("node", "/app/test/a.test.mjs", ["--import", "@x/claude-mock/register"]),
    "CLAUDE_MOCK_RECORD=1 node --import @x/claude-mock/register --test /app/test/a.test.mjs",
  );
  assert.deepEqual(
    nodePreloadFlags([
      "--import",
      "@x/claude-mock/register",
      "--test-concurrency=1",
      "--require=./setup.cjs",
      "-r",
      "./b.cjs",
      "--experimental-loader",
      "tsx",
      "--inspect",
    ]),
    [
      "--import",
      "@x/claude-mock/register",
      "--require=./setup.cjs",
      "-r",
      "./b.cjs",
      "--experimental-loader",
      "tsx",
    ],
  );
  // a path the shell would split is quoted
  assert.equal(
    recordCommandOf("node", "/my app/a.test.mjs", ["--import", "./my hooks.mjs"]),
    "CLAUDE_MOCK_RECORD=1 node --import './my hooks.mjs' --test '/my app/a.test.mjs'",
  );
});

Deno.test("insideNodeModules: a folder of node_modules, not a name that contains it", () => {
  assert.equal(insideNodeModules("/app/node_modules/vitest/dist"), true);
  assert.equal(insideNodeModules("C:\\app\\node_modules\\jest"), true);
  assert.equal(insideNodeModules("/app/my_node_modules_notes"), false);
});

Deno.test("cassette: named after the test, beside a vitest or jest test file; never in node_modules", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/test/__cassettes__`, { recursive: true });
    await Deno.copyFile(
      new URL("../../snapshots/hello.jsonl", import.meta.url),
      `${dir}/test/__cassettes__/greeter-says-hello.jsonl`,
    );
    const quiet = { env: {}, args: [] };
    const vitest = {
      task: { ...vitestContext.task, file: { filepath: `${dir}/test/greet.test.ts` } },
    };
    const a = await cassette(vitest, undefined, quiet);
    assert.equal(a.path, `${dir}/test/__cassettes__/greeter-says-hello.jsonl`);
    assert.equal(a.mode, "replay");
    const jest = { testPath: `${dir}/test/greet.test.js`, currentTestName: "greeter says hello" };
    assert.equal((await cassette(jest, undefined, quiet)).path, a.path);
    const missing = await cassette(jest, "other", { ...quiet, env: { CI: "1" } }).catch((e) => e);
    assert.match(
      missing.message,
      /Record it with: CLAUDE_MOCK_RECORD=1 NODE_OPTIONS=--experimental-vm-modules npx jest .*greet\.test\.js/,
    );
    await assert.rejects(
      cassette({ filePath: "/app/node_modules/vitest/dist/worker.js" }, "x", quiet),
      /its folder \/app\/node_modules\/vitest\/dist\/__cassettes__ is inside node_modules/,
    );
    await assert.rejects(cassette({}, undefined, quiet), /the test context has no name/);
    await assert.rejects(
      cassette({ name: "x" }, "x", quiet),
      /names no test file; pass the runner's test context/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
