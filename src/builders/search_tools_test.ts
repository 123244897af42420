import assert from "node:assert/strict";
import { createBuildContext } from "./build_context.ts";
import { globTool, grepTool } from "./search_tools.ts";

// The results as the real CLI 2.1.328 and 2.1.332 wrote them (conformance case files_glob_grep).
Deno.test("globTool: the files one a line, or No files found, with the recorded tool_use_result", () => {
  const ctx = createBuildContext({ seed: 1 });
  const two = globTool(ctx, "src/*.ts", { files: ["src/a.ts", "src/b.ts"] });
  assert.deepEqual(two.block.input, { pattern: "src/*.ts" });
  assert.deepEqual(two.result, {
    content: "src/a.ts\nsrc/b.ts",
    isError: false,
    toolUseResult: {
      filenames: ["src/a.ts", "src/b.ts"],
      durationMs: 15,
      numFiles: 2,
      truncated: false,
      totalMatches: 2,
      countIsComplete: true,
    },
  });
  const none = globTool(ctx, "*.py", { files: [], path: "/p" });
  assert.deepEqual(none.block.input, { pattern: "*.py", path: "/p" });
  assert.equal(none.result.content, "No files found");
  assert.throws(
    () => globTool(ctx, "*", {} as never),
    /options\.files must be an array of strings/,
  );
});

Deno.test("grepTool: each output mode's words and tool_use_result, as recorded", () => {
  const ctx = createBuildContext({ seed: 1 });
  const text = (o: Parameters<typeof grepTool>[2], pattern = "p") =>
    grepTool(ctx, pattern, o).result.content;
  assert.equal(text({ files: ["src/b.ts"] }), "Found 1 file\nsrc/b.ts");
  assert.equal(text({ files: ["b", "a"] }), "Found 2 files\nb\na");
  assert.equal(text({}), "No files found");
  assert.deepEqual(grepTool(ctx, "p", { files: ["a"] }).result.toolUseResult, {
    mode: "files_with_matches",
    filenames: ["a"],
    numFiles: 1,
    totalFiles: 1,
  });
  const lines = ["notes.txt:2:The build uses make.", "notes.txt:3:Run make test."];
  const content = grepTool(ctx, "make", { outputMode: "content", lines });
  assert.deepEqual(content.block.input, { pattern: "make", output_mode: "content" });
  assert.deepEqual(content.result.toolUseResult, {
    mode: "content",
    numFiles: 0,
    filenames: [],
    content: lines.join("\n"),
    numLines: 2,
    totalLines: 2,
  });
  assert.equal(text({ outputMode: "content" }), "No matches found");
  assert.equal(
    text({ outputMode: "count", counts: { "src/a.ts": 1, "src/b.ts": 1 } }),
    "src/a.ts:1\nsrc/b.ts:1\n\nFound 2 total occurrences across 2 files.",
  );
  assert.equal(
    text({ outputMode: "count", counts: { "src/a.ts": 1 } }),
    "src/a.ts:1\n\nFound 1 total occurrence across 1 file.",
  );
  assert.equal(
    text({ outputMode: "count" }),
    "No matches found\n\nFound 0 total occurrences across 0 files.",
  );
  assert.deepEqual(
    grepTool(ctx, "E", {
      outputMode: "count",
      caseInsensitive: true,
      glob: "*.txt",
      counts: { n: 2 },
    })
      .block.input,
    { pattern: "E", glob: "*.txt", output_mode: "count", "-i": true },
  );
  assert.throws(
    () => grepTool(ctx, "p", { lines: ["x"] }),
    /output mode files_with_matches reports options\.files, got options\.lines/,
  );
  assert.throws(() => grepTool(ctx, "p", { outputMode: "all" as never }), RangeError);
  assert.throws(
    () => grepTool(ctx, "p", { outputMode: "count", counts: { a: 0 } }),
    /integer >= 1/,
  );
});
