// The layout shows the parts: no import cycle between files, and no folder of src/ imports from a
// folder above it (the layers of CONTRIBUTING.md). Every import counts: type-only ones (a cycle of
// types is still two files that cannot be read one without the other) and dynamic ones (a chunk
// loaded later is still a dependency). `scripts/lint_plugin.ts` keeps functions short.
import assert from "node:assert/strict";
import { fromFileUrl } from "./_paths.ts";

const ROOT = fromFileUrl(new URL("../", import.meta.url));

/**
 * The floors of src/'s folders, from the ground up. A file imports from its own folder and from
 * folders on lower floors; folders on one floor do not import each other. The entry points at the
 * root stand above them all, the scripts above the entry points.
 */
const FLOORS: ReadonlyArray<readonly string[]> = [
  // nothing of the project: frames and NDJSON; PCG32; files and the process on Deno and Node
  ["wire", "random", "host"],
  // clocks, pacing, timing profiles
  ["timing"],
  // frames, deterministic ids
  ["builders"],
  // scenarios, matchers, steps, the scenario file format, predefined scenarios
  ["scenario"],
  // the engine; the scenario-driven Messages API
  ["session", "messages_api"],
  // `__mock__` commands (a front end of the engine); the fake binary installed for a test
  ["mock_commands", "fake_claude"],
  // MockTransport and the SDK's process
  ["adapters"],
  // the runner and the recorders; mockClaude(); tapes (record, replay, scrub, lint, drift)
  ["testing", "intercept", "cassette"],
  // the mock against the real CLI
  ["conform"],
  // the fake binary and its subcommands
  ["cli"],
];

/** The import cycles allowed, each with why (one: the fluent pair of the scenario builders). */
const KNOWN_CYCLES: ReadonlyArray<readonly string[]> = [
  // ScenarioBuilder.on() returns an ExchangeBuilder, whose scenario-level calls (crashAfter,
  // onLazy, ...) return the ScenarioBuilder: the fluent pair names each other. One file would be
  // over 600 lines, and an interface between them would change what users' types accept.
  ["src/scenario/exchange_builder.ts", "src/scenario/scenario_builder.ts"],
];

/** Not the project's own code: build output, tools' caches, recordings, VCS. */
const SKIP_DIRS = new Set([".git", "node_modules", "npm", "dist", "coverage", ".bench"]);
const SKIP_PATHS = ["tests/fixtures/", "snapshots/"];
/**
 * Code copied from another project for the tests (tests/vendor/std/README.md): its own layout is
 * its authors', so its cycles are not ours to break; what imports it is checked as any file.
 */
const VENDORED = "tests/vendor/";
const CODE = /\.(ts|mts|js|mjs)$/;

/** Every code file of the checkout (relative paths), but for the skipped folders. */
function codeFiles(dir = ""): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(`${ROOT}${dir}`)) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) {
      if (!SKIP_DIRS.has(entry.name) && !SKIP_PATHS.includes(`${path}/`)) {
        out.push(...codeFiles(`${path}/`));
      }
    } else if (entry.isFile && CODE.test(entry.name)) out.push(path);
  }
  return out.sort();
}

/** `a/b/../c.ts` → `a/c.ts`. */
function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "." && part !== "") parts.push(part);
  }
  return parts.join("/");
}

/** Static imports and re-exports (type-only too), side-effect imports, dynamic imports. */
const IMPORTS = [
  /^\s*(?:import|export)\b[^;'"`]*?\bfrom\s*(["'])(\.{1,2}\/[^"'\n]+)\1/gm,
  /^\s*import\s*(["'])(\.{1,2}\/[^"'\n]+)\1/gm,
];
const DYNAMIC = /\bimport\(\s*(["'])(\.{1,2}\/[^"'\n]+)\1\s*\)/g;

/** The project files `path` imports (relative specifiers only; comments are not read). */
export function importsOf(path: string, source: string): string[] {
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
  const found = new Set<string>();
  for (const pattern of IMPORTS) {
    for (const m of source.matchAll(pattern)) found.add(normalize(dir + m[2]));
  }
  for (const line of source.split("\n")) {
    const code = line.trimStart();
    if (code.startsWith("*") || code.startsWith("//") || code.startsWith("/*")) continue;
    for (const m of line.matchAll(DYNAMIC)) found.add(normalize(dir + m[2]));
  }
  return [...found].sort();
}

/** The import graph of the checkout's code. */
function importGraph(): Map<string, string[]> {
  const files = codeFiles();
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = Deno.readTextFileSync(`${ROOT}${file}`);
    graph.set(file, importsOf(file, source).filter((target) => known.has(target)));
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan), each sorted. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.includes(node)) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}

/** Where a file stands: its floor (src/ folders from 0, the entry points and scripts above). */
function floorOf(file: string): { part: string; floor: number } | undefined {
  const top = FLOORS.length;
  if (file.startsWith("src/")) {
    const part = file.split("/")[1];
    const floor = FLOORS.findIndex((folders) => folders.includes(part));
    return { part, floor: floor < 0 ? Number.NaN : floor };
  }
  if (!file.includes("/")) return { part: "the entry points", floor: top };
  if (file.startsWith("scripts/")) return { part: "scripts", floor: top + 1 };
  return undefined; // tests, examples and the Node suite
}

/** Tests, beside the code or not, may drive the code under test through any layer. */
function isTest(file: string): boolean {
  return /_test\.[mc]?[jt]s$/.test(file) || floorOf(file) === undefined;
}

Deno.test("layout: the import scanner reads every kind of import, and no comment", () => {
  const source = [
    'import { a } from "./a.ts";',
    'import type { B } from "../lib/b.ts";',
    "import {",
    "  c,",
    '} from "./c.ts";',
    'export * from "./d.ts";',
    'export type { E } from "./e.ts";',
    'import "./f.ts";',
    'const g = await import("./g.ts");',
    'type H = import("./h.ts").H;',
    '// import { x } from "./x.ts";',
    ' * const y = await import("./y.ts");',
    'import { z } from "npm:zod";',
  ].join("\n");
  assert.deepEqual(importsOf("src/mod/file.ts", source), [
    "src/lib/b.ts",
    "src/mod/a.ts",
    "src/mod/c.ts",
    "src/mod/d.ts",
    "src/mod/e.ts",
    "src/mod/f.ts",
    "src/mod/g.ts",
    "src/mod/h.ts",
  ]);
});

Deno.test("layout: the cycle finder names each cycle's files once", () => {
  const graph = new Map([
    ["a", ["b"]],
    ["b", ["c"]],
    ["c", ["a", "d"]],
    ["d", []],
    ["e", ["e"]],
  ]);
  assert.deepEqual(cyclesOf(graph), [["a", "b", "c"], ["e"]]);
});

Deno.test("layout: no import cycle between files", () => {
  const known = new Set(KNOWN_CYCLES.map((cycle) => cycle.join(" ")));
  const cycles = cyclesOf(importGraph()).filter((cycle) =>
    !cycle.every((file) => file.startsWith(VENDORED))
  );
  const found = cycles.filter((cycle) => !known.has(cycle.join(" ")));
  assert.deepEqual(found, [], "break each cycle: move what both files need into a file of its own");
  const gone = [...known].filter((k) => !cycles.some((cycle) => cycle.join(" ") === k));
  assert.deepEqual(gone, [], "a known cycle is gone: take it off KNOWN_CYCLES");
});

Deno.test("layout: every folder of src/ has a floor, and no import goes up or sideways", () => {
  const graph = importGraph();
  const unplaced = [
    ...new Set([...graph.keys()].filter((f) => f.startsWith("src/")).map((f) => f.split("/")[1])),
  ].filter((part) => !FLOORS.some((folders) => folders.includes(part)));
  assert.deepEqual(unplaced, [], "give each folder of src/ its floor in FLOORS");
  const wrong: string[] = [];
  for (const [file, targets] of graph) {
    const from = floorOf(file);
    if (!from || isTest(file)) continue;
    for (const target of targets) {
      const to = floorOf(target);
      if (!to || isTest(target)) {
        wrong.push(`${file} -> ${target} (code of the library or its scripts imports a test)`);
      } else if (to.part !== from.part && !(to.floor < from.floor)) {
        wrong.push(
          `${file} -> ${target} (${from.part}, floor ${from.floor} -> ${to.part}, ${to.floor})`,
        );
      }
    }
  }
  assert.deepEqual(wrong, []);
});
