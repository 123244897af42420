// driftCheck with stand-in type checkers (tests/cassette_drift_slow_test.ts runs the real deno check).
import assert from "node:assert/strict";
import { driftCheck, type TypeDiagnostic } from "./drift.ts";
import type { Tape, TapeDirection, TapeEntry } from "./tape.ts";

const entry = (line: number, frame: Record<string, unknown>, dir: TapeDirection = "cli->sdk") =>
  ({ t: 0, dir, line, frame: frame as { type: string } }) satisfies TapeEntry;
const tapeOf = (entries: TapeEntry[], source = "t.jsonl"): Tape => ({
  header: { version: 1 },
  entries,
  source,
});
/** The 1-based line of the first source line matching `re` after a line matching `after`. */
function lineOf(source: string, re: RegExp, after = /^/): number {
  const lines = source.split("\n");
  const from = lines.findIndex((l) => after.test(l));
  const i = lines.findIndex((l, n) => n >= from && re.test(l));
  assert.ok(from >= 0 && i >= 0, `no line ${re} after ${after} in:\n${source}`);
  return i + 1;
}

Deno.test("driftCheck: one const per distinct frame, typed by kind, with field-name checks", async () => {
  const sources: string[] = [];
  const tape = tapeOf([
    entry(2, {
      type: "assistant",
      uuid: "4b8e0c55-6b1f-4a5e-9d0a-1c2b3d4e5f60",
      n: 1,
      text: "x".repeat(80),
    }),
    entry(3, {
      type: "assistant",
      uuid: "0f6f3a1e-2222-4d3c-8b8b-aaaaaaaaaaaa",
      n: 2,
      text: "y".repeat(90),
    }),
    entry(4, { type: "control_request", request_id: "r", request: { subtype: "can_use_tool" } }),
    entry(5, { type: "result", subtype: "success" }),
    entry(6, { type: "user" }, "sdk->cli"),
  ]);
  const findings = await driftCheck(tape, {
    typeCheck: (source) => (sources.push(source), Promise.resolve([])),
    sdk: "npm:@anthropic-ai/claude-agent-sdk@0.3.328",
  });
  assert.deepEqual(findings, []);
  assert.equal(sources.length, 1);
  const source = sources[0];
  assert.match(
    source,
    /^import type \* as Sdk from "npm:@anthropic-ai\/claude-agent-sdk@0\.3\.328";$/m,
  );
  assert.deepEqual(source.match(/^const f\d+: [^=]+/gm), [
    'const f0: Msg<"assistant", undefined> ',
    'const f1: Req<"can_use_tool"> ',
    'const f2: Msg<"result", "success"> ',
  ]);
  assert.match(
    source,
    /"uuid": "00000000-0000-0000-0000-000000000000",\n {2}"n": 0,\n {2}"text": "…"/,
  );
  assert.match(
    source,
    /^const k1_\d+: Keys<T1_root>\[\] = \[\n {2}"type",\n {2}"request_id",\n {2}"request",\n\];$/m,
  );
  assert.match(source, /^type T1_\d+ = Nr<F<T1_root, "request">, "subtype", "can_use_tool">;$/m);
});

Deno.test("driftCheck: findings map to tape lines and paths; later runs check what is left", async () => {
  const tapes = [
    tapeOf([
      entry(7, { type: "assistant", mesage: { id: "m" }, parent_tool_use_id: null }),
      { t: 1, dir: "cli->sdk", line: 8, raw: "{not json" },
      entry(9, { type: "assistant", mesage: { id: "m" }, parent_tool_use_id: null }),
    ], "a.jsonl"),
    tapeOf(
      [entry(4, { type: "result", subtype: "success", usage: { input_tokens: "x" } })],
      "b.jsonl",
    ),
  ];
  const runs: string[] = [];
  const typeCheck = (source: string): Promise<TypeDiagnostic[]> => {
    runs.push(source);
    if (runs.length > 1) {
      assert.doesNotMatch(source, /mesage/);
      assert.match(source, /"input_tokens": \(null as never\),/);
      assert.doesNotMatch(source, /const k/, "field names are checked in the first run only");
      return Promise.resolve([]);
    }
    return Promise.resolve([
      {
        line: lineOf(source, /^ {2}"mesage",$/, /^const k0_/),
        column: 3,
        code: 2322,
        message: "Type '\"mesage\"' is not assignable to type 'keyof SDKAssistantMessage'.",
      },
      {
        line: lineOf(source, /^ {2}"mesage": \{$/),
        column: 3,
        code: 2353,
        message:
          "Object literal may only specify known properties, and '\"mesage\"' does not exist in type 'SDKAssistantMessage'.",
      },
      {
        line: lineOf(source, /^const f0:/),
        column: 7,
        code: 2741,
        message:
          "Property 'message' is missing in type '{ type: \"assistant\"; parent_tool_use_id: null; }' but required in type 'SDKAssistantMessage'.",
      },
      {
        line: lineOf(source, /"input_tokens": "x"/),
        column: 5,
        code: 2322,
        message: "Type 'string' is not assignable to type 'number'.",
      },
    ]);
  };
  const findings = await driftCheck(tapes, { typeCheck });
  assert.equal(runs.length, 2);
  assert.deepEqual(
    findings.map((f) => `${f.source}:${f.line} ${f.kind} ${f.code} ${f.path}: ${f.message}`),
    [
      'a.jsonl:7 assistant unmodeled-field mesage: The SDK\'s SDKAssistantMessage has no field "mesage"',
      "a.jsonl:7 assistant missing-field : Property 'message' is missing in type '{…}' but required in type 'SDKAssistantMessage'.",
      "a.jsonl:8 raw parse-error : The cli->sdk line is not a JSON object: {not json",
      'a.jsonl:9 assistant unmodeled-field mesage: The SDK\'s SDKAssistantMessage has no field "mesage"',
      "a.jsonl:9 assistant missing-field : Property 'message' is missing in type '{…}' but required in type 'SDKAssistantMessage'.",
      "b.jsonl:4 result/success type-mismatch usage.input_tokens: Type 'string' is not assignable to type 'number'.",
    ],
  );
});

Deno.test("driftCheck: unknown kinds, elaborated messages, no progress, directions", async () => {
  const tape = tapeOf([
    entry(2, { type: "bogus_kind", a: 1 }),
    entry(3, { type: "control_request", request_id: "r", request: { subtype: "teleport" } }),
    entry(4, {
      type: "stream_event",
      event: { type: "content_block_start", content_block: { type: "text" } },
    }),
    entry(5, { type: "assistant", message: { content: [{ type: "hologram", beams: 3 }] } }),
    entry(6, { type: "user", isReplay: false }, "sdk->cli"),
  ]);
  let runs = 0;
  let lastSource = "";
  const typeCheck = (source: string): Promise<TypeDiagnostic[]> => {
    runs++;
    lastSource = source;
    const found: TypeDiagnostic[] = [{
      line: lineOf(source, /^ {4}"content_block": /),
      column: 5,
      code: 2322,
      message: "Type '{ type: \"text\"; }' is not assignable to type 'BetaContentBlock'.\n" +
        "Property 'citations' is missing in type '{ type: \"text\"; }' but required in type 'BetaTextBlock'.",
    }];
    if (runs === 1) {
      found.push(
        {
          line: lineOf(source, /^ {8}"type": "hologram",$/),
          column: 7,
          code: 2322,
          message: 'Type \'"hologram"\' is not assignable to type \'"text" | "thinking"\'.',
        },
      );
      found.push(
        {
          line: lineOf(source, /^const f0:/),
          column: 7,
          code: 2322,
          message: "Type '{ type: string; a: number; }' is not assignable to type 'never'.",
        },
        {
          line: lineOf(source, /^ {2}"request": \{$/),
          column: 3,
          code: 2322,
          message: "Type '{ subtype: string; }' is not assignable to type 'never'.",
        },
      );
    }
    return Promise.resolve(found);
  };
  const findings = await driftCheck(tape, { typeCheck, directions: ["cli->sdk"] });
  assert.equal(runs, 2, "the same finding again stops the frame");
  assert.deepEqual(findings.map((f) => `${f.line} ${f.kind} ${f.code} ${f.path}: ${f.message}`), [
    "2 bogus_kind unknown-kind : The SDK's types have no such frame: Type '{…}' is not assignable to type 'never'.",
    "3 control_request/teleport unknown-kind request: The SDK's types have no such frame: Type '{…}' is not assignable to type 'never'.",
    "4 stream_event/content_block_start missing-field event.content_block: Property 'citations' is missing in type '{…}' but required in type 'BetaTextBlock'.",
    '5 assistant dropped-content message.content[0]: The SDK\'s types have no type "hologram" here (they have "text" | "thinking")',
  ]);
  assert.match(
    lastSource,
    /^ {4}"content": \[\n {6}\(null as never\),\n {4}\],$/m,
    "the block is out",
  );
  let seen = "";
  await driftCheck(tape, {
    typeCheck: (s) => (seen = s, Promise.resolve([])),
    directions: ["sdk->cli"],
  });
  assert.deepEqual(seen.match(/^const f\d+: .*/gm), ['const f0: Msg<"user", undefined> = {']);
});

Deno.test("driftCheck: a checker that cannot check, a problem outside the frames, bad rounds", async () => {
  const tape = tapeOf([entry(2, { type: "result", subtype: "success" })]);
  await assert.rejects(
    driftCheck(tape, { typeCheck: () => Promise.reject(new Error("deno not found")) }),
    { message: "deno not found" },
  );
  await assert.rejects(
    driftCheck(tape, {
      typeCheck: () =>
        Promise.resolve([{ line: 2, column: 1, code: 2307, message: "Cannot find module 'x'." }]),
      sdk: "x",
    }),
    {
      name: "Error",
      message:
        "Cannot check drift: the type checker reports TS2307 outside the frames (line 2): Cannot find module 'x'. (did the SDK's types load from \"x\"?)",
    },
  );
  await assert.rejects(
    driftCheck(tape, { typeCheck: () => Promise.resolve([]), rounds: 0 }),
    { name: "RangeError", message: "Cannot check drift: rounds must be a positive integer, not 0" },
  );
  let called = false;
  const none = await driftCheck(tapeOf([{ t: 0, dir: "stderr", line: 2, text: "x" }]), {
    typeCheck: () => (called = true, Promise.resolve([])),
  });
  assert.deepEqual([none, called], [[], false]);
});
