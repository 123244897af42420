import assert from "node:assert/strict";
import { structuredPatch } from "./structured_patch.ts";

Deno.test("structuredPatch of identical texts is empty", () => {
  assert.deepEqual(structuredPatch("a\nb\n", "a\nb\n"), []);
});

Deno.test("structuredPatch keeps 3 lines of context and splits distant changes", () => {
  const old = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join("\n") + "\n";
  const changed = old.replace("l2\n", "L2\n").replace("l18\n", "L18\n");
  const hunks = structuredPatch(old, changed);
  assert.equal(hunks.length, 2);
  assert.deepEqual(hunks[0], {
    oldStart: 1,
    oldLines: 5,
    newStart: 1,
    newLines: 5,
    lines: [" l1", "-l2", "+L2", " l3", " l4", " l5"],
  });
  assert.equal(hunks[1].oldStart, 15);
  assert.deepEqual(hunks[1].lines, [" l15", " l16", " l17", "-l18", "+L18", " l19", " l20"]);
});

Deno.test("structuredPatch merges nearby changes and handles pure additions", () => {
  const old = "a\nb\nc\nd\ne\n";
  assert.equal(structuredPatch(old, old.replace("a", "A").replace("e", "E")).length, 1);
  assert.deepEqual(structuredPatch("", "x\n"), [{
    oldStart: 1,
    oldLines: 0,
    newStart: 1,
    newLines: 1,
    lines: ["+x"],
  }]);
  assert.deepEqual(structuredPatch("a\n", "a\nb\n")[0].lines, [" a", "+b"]);
  assert.deepEqual(structuredPatch("a\nb\n", "b\n", { context: 0 })[0].lines, ["-a"]);
  assert.throws(() => structuredPatch("a", "b", { context: -1 }), RangeError);
});
