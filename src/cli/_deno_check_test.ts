// (_deno_check_slow_test.ts runs a real deno check)
import assert from "node:assert/strict";
import { parseDenoCheck } from "./_deno_check.ts";

// deno check's output (NO_COLOR=1) for a generated file, as deno 2.9 prints it
const OUTPUT = `Check /tmp/claude-mock-drift-x/drift_check.ts
TS2322 [ERROR]: Type '{ type: "text"; text: string; }' is not assignable to type 'BetaContentBlock'.
  Property 'citations' is missing in type '{ type: "text"; text: string; }' but required in type 'BetaTextBlock'.
      {
      ^
    at file:///tmp/claude-mock-drift-x/drift_check.ts:794:7

    'citations' is declared here.
        citations: Array<BetaTextCitation> | null;
        ~~~~~~~~~
        at file:///root/.cache/deno/npm/registry.npmjs.org/@anthropic-ai/sdk/1.12.0/resources/beta/messages/messages.d.mts:5329:5

TS2353 [ERROR]: Object literal may only specify known properties, and 'extra' does not exist in type 'SDKControlPermissionRequest'.
    at file:///tmp/claude-mock-drift-x/drift_check.ts:12:141

TS2307 [ERROR]: Cannot find module 'x'.
    at file:///elsewhere/other.ts:1:1

Found 3 errors.

error: Type checking failed.
`;

Deno.test("parseDenoCheck: headline, elaboration, position; other files at line 0", () => {
  assert.deepEqual(parseDenoCheck(OUTPUT, "/tmp/claude-mock-drift-x/drift_check.ts"), [
    {
      line: 794,
      column: 7,
      code: 2322,
      message:
        "Type '{ type: \"text\"; text: string; }' is not assignable to type 'BetaContentBlock'.\n" +
        "Property 'citations' is missing in type '{ type: \"text\"; text: string; }' but required in type 'BetaTextBlock'.",
    },
    {
      line: 12,
      column: 141,
      code: 2353,
      message:
        "Object literal may only specify known properties, and 'extra' does not exist in type 'SDKControlPermissionRequest'.",
    },
    { line: 0, column: 0, code: 2307, message: "Cannot find module 'x'." },
  ]);
  assert.deepEqual(parseDenoCheck("Check x.ts\n", "x.ts"), []);
});
