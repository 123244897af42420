// The repository stands alone and reads well: no file names a path beside the checkout (a
// clone has nothing there; `.ci/run` also runs the suite from a copy in an empty folder), no
// source line is over 200 characters, npm pack's tarball is ignored and generated files are
// marked. (`scripts/build_bin_test.ts` checks that dist/bin.js keeps its run bit.)
import assert from "node:assert/strict";
import { fromFileUrl } from "./_paths.ts";

const ROOT = fromFileUrl(new URL("../", import.meta.url));
/** Not the repository's own files: build output, tools' caches, VCS. */
const SKIP_DIRS = new Set([".git", "node_modules", "npm", "coverage", ".bench"]);
/** Where long lines are data, not source: recordings, generated files. */
const DATA_DIRS = ["tests/fixtures/", "snapshots/", "dist/"];
/** Source files (JSON strings cannot be split, so JSON data may hold longer lines). */
const SOURCE = /\.(ts|mts|js|mjs|cjs)$/;
const MAX_LINE = 200;

/** Every file of the checkout (relative paths), but for the skipped folders. */
function files(dir = ""): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(`${ROOT}${dir}`)) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory && !SKIP_DIRS.has(entry.name)) out.push(...files(`${path}/`));
    else if (entry.isFile) out.push(path);
  }
  return out.sort();
}

function text(path: string): string | undefined {
  const bytes = Deno.readFileSync(`${ROOT}${path}`);
  return bytes.includes(0) ? undefined : new TextDecoder().decode(bytes);
}

Deno.test("repository: no file reads or names a folder beside the checkout", () => {
  // spelled in pieces so that this file does not name it either
  const beside = new RegExp(["(?:\\.\\./)+", "|/work/"].map((p) => `${p}shared\\b`).join(""));
  const found: string[] = [];
  for (const path of files()) {
    const lines = text(path)?.split("\n") ?? [];
    lines.forEach((line, i) => {
      if (beside.test(line)) found.push(`${path}:${i + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  assert.deepEqual(found, [], "copy the data into tests/fixtures/ (with its origin) instead");
});

Deno.test("repository: no source line over 200 characters", () => {
  const found: string[] = [];
  for (const path of files()) {
    if (!SOURCE.test(path) || path === "deno.lock") continue;
    if (DATA_DIRS.some((d) => path.startsWith(d)) || path.includes("/testdata/")) continue;
    (text(path) ?? "").split("\n").forEach((line, i) => {
      if (line.length > MAX_LINE) found.push(`${path}:${i + 1} (${line.length} characters)`);
    });
  }
  assert.deepEqual(found, []);
});

Deno.test("repository: no library or script file over 600 lines", () => {
  const found: string[] = [];
  for (const path of files()) {
    const library = (path.startsWith("src/") || path.startsWith("scripts/") ||
      !path.includes("/")) && path.endsWith(".ts") && !path.endsWith("_test.ts");
    if (!library) continue;
    const lines = (text(path) ?? "").split("\n").length - 1;
    if (lines > 600) found.push(`${path} (${lines} lines)`);
  }
  assert.deepEqual(found, [], "split it by concept: one public concept per file");
});

Deno.test("repository: no library comment names a test recording or fixture folder", () => {
  // the library says what the real CLI does (and in which version), not which tape showed it
  const naming = /\br[0-9]_[a-z]|\bv3[0-9x]{2}_[a-z]|tests\/fixtures|wire-samples/;
  const found: string[] = [];
  for (const path of files()) {
    const library = (path.startsWith("src/") || !path.includes("/")) && path.endsWith(".ts") &&
      !path.endsWith("_test.ts");
    if (!library) continue;
    (text(path) ?? "").split("\n").forEach((line, i) => {
      if (naming.test(line)) found.push(`${path}:${i + 1}: ${line.trim().slice(0, 100)}`);
    });
  }
  assert.deepEqual(found, []);
});

Deno.test("repository: no `using` declaration in what the npm package ships", () => {
  // Node 20 and 22 cannot parse `using` or `await using`, and neither `deno bundle` (the Node
  // bin) nor the npm build lowers them: one in a shipped file breaks the package under Node.
  const declaration = /^\s*(?:await\s+)?using\s+[\w$]+\s*=/;
  const found: string[] = [];
  for (const path of files()) {
    const shipped = (path.startsWith("src/") || !path.includes("/")) && path.endsWith(".ts") &&
      !path.endsWith("_test.ts") && !path.includes("/testdata/");
    if (!shipped) continue;
    (text(path) ?? "").split("\n").forEach((line, i) => {
      if (declaration.test(line)) found.push(`${path}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(found, [], "use try/finally with [Symbol.asyncDispose]() instead");
});

Deno.test("repository: npm pack's tarball is ignored, generated files are marked", () => {
  const ignored = Deno.readTextFileSync(`${ROOT}.gitignore`).split("\n");
  assert.ok(ignored.includes("*.tgz"), ".gitignore ignores *.tgz");
  const attributes = Deno.readTextFileSync(`${ROOT}.gitattributes`).split("\n");
  for (const generated of ["dist/**", "src/cassette/_sdk_kinds.ts"]) {
    assert.ok(
      attributes.includes(`${generated} linguist-generated=true`),
      `.gitattributes marks ${generated} as generated`,
    );
  }
  assert.match(Deno.readTextFileSync(`${ROOT}dist/bin.js`), /^#!.*\n\/\/ Generated by /);
});
