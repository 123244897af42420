// denoTypeChecker with a real deno check (a subprocess that type-checks): slow, so in the slow
// tier (deno task test:slow); _deno_check_test.ts reads its output without running it.
import assert from "node:assert/strict";
import { denoTypeChecker } from "./_deno_check.ts";

Deno.test("denoTypeChecker: a real deno check; a failure that is no diagnostic rejects", async () => {
  const check = denoTypeChecker({ cwd: Deno.cwd() });
  assert.deepEqual(await check("const a: number = 1;\nexport {};\n"), []);
  const [d] = await check("const a: number = 1;\nconst b: string = a;\nexport {};\n");
  assert.deepEqual([d.line, d.column, d.code], [2, 7, 2322]);
  assert.equal(d.message, "Type 'number' is not assignable to type 'string'.");
  const broken = denoTypeChecker({ cwd: Deno.cwd(), config: "/nonexistent/deno.json" });
  await assert.rejects(broken("export {};\n"), {
    message: /^Cannot check drift: deno check failed \(exit 1\)/,
  });
});
