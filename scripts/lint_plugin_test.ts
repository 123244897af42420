import assert from "node:assert/strict";
import plugin, {
  functionLength,
  heldToLength,
  LONG_FUNCTIONS,
  MAX_FUNCTION_LINES,
} from "./lint_plugin.ts";

const body = (lines: number) => Array.from({ length: lines - 2 }, (_, i) => `  f(${i});`);
const run = (source: string, file = "src/wire/x.ts", rules = plugin) =>
  Deno.lint.runPlugin(rules, file, source).map((d) => d.message);
const measuring: Deno.lint.Plugin = {
  name: "claude-mock",
  rules: { "function-length": functionLength({}) },
};

Deno.test("function-length: 80 lines pass, 81 are reported, for every kind of function", () => {
  const fn = (lines: number) => ["function a() {", ...body(lines), "}"].join("\n");
  assert.deepEqual(run(fn(MAX_FUNCTION_LINES)), []);
  assert.deepEqual(run(fn(MAX_FUNCTION_LINES + 1)), ["`a` spans 81 lines (at most 80)"]);
  const method = ["class A {", "  m() {", ...body(90), "  }", "}"].join("\n");
  const arrow = ["const g = () => {", ...body(90), "};"].join("\n");
  const expression = ["const h = function () {", ...body(90), "};"].join("\n");
  const property = ["const o = {", "  p: () => {", ...body(90), "  },", "};"].join("\n");
  const anonymous = ["f(() => {", ...body(90), "});"].join("\n");
  for (
    const [source, name] of [
      [method, "`m`"],
      [arrow, "`g`"],
      [expression, "`h`"],
      [property, "`p`"],
      [anonymous, "a function"],
    ]
  ) {
    assert.deepEqual(run(source), [`${name} spans 90 lines (at most 80)`], source);
  }
});

Deno.test("function-length: an outer function counts its inner ones' lines, each is reported", () => {
  const source = ["function outer() {", "  function inner() {", ...body(85), "  }", "}"].join(
    "\n",
  );
  assert.deepEqual(run(source), [
    "`outer` spans 87 lines (at most 80)",
    "`inner` spans 85 lines (at most 80)",
  ]);
});

Deno.test("function-length: tests are not held to it", () => {
  const long = ["function a() {", ...body(100), "}"].join("\n");
  assert.deepEqual(run(long, "src/wire/x_test.ts"), []);
  assert.equal(heldToLength("tests/cli_test.ts"), false);
  assert.equal(heldToLength("src/cli/run_cli.ts"), true);
  assert.equal(heldToLength(new URL("../mod.ts", import.meta.url).pathname), true);
});

Deno.test("function-length: a file of the backlog may not grow a function past its entry", () => {
  const fn = (lines: number) => ["function a() {", ...body(lines), "}"].join("\n");
  const rules: Deno.lint.Plugin = {
    name: "claude-mock",
    rules: { "function-length": functionLength({ "src/wire/x.ts": 100 }) },
  };
  assert.deepEqual(run(fn(100), "src/wire/x.ts", rules), []);
  assert.deepEqual(run(fn(101), "src/wire/x.ts", rules), [
    "`a` spans 101 lines (at most 80; this file's backlog allows 100)",
  ]);
  assert.deepEqual(run(fn(81), "src/wire/y.ts", rules), ["`a` spans 81 lines (at most 80)"]);
});

Deno.test("function-length: the backlog says what each of its files measures", async () => {
  const root = new URL("../", import.meta.url);
  for (const [file, lines] of Object.entries(LONG_FUNCTIONS)) {
    const source = await Deno.readTextFile(new URL(file, root));
    const longest = Math.max(
      MAX_FUNCTION_LINES,
      ...run(source, file, measuring).map((m) => Number(/spans (\d+) lines/.exec(m)?.[1])),
    );
    assert.equal(
      longest,
      lines,
      longest === MAX_FUNCTION_LINES
        ? `${file} has no function over ${MAX_FUNCTION_LINES} lines now: take it off the list`
        : `${file}'s longest function spans ${longest} lines: its entry says ${lines}`,
    );
  }
});
