import assert from "node:assert/strict";
import { alignTapes } from "./_timeline_diff.ts";
import { timelineModel } from "./_timeline_model.ts";
import { loadTape } from "./load_tape.ts";
import type { Tape, TapeEntry } from "./tape.ts";
import { timelineDiffAnchor, timelineHtml } from "./timeline_html.ts";

const REAL = new URL("../../tests/fixtures/real/", import.meta.url);
const real = (name: string) => loadTape(decodeURIComponent(new URL(name, REAL).pathname));

/** The JSON the page's script reads. */
function pageData(html: string): {
  a: { entries: TapeEntry[]; ids: string[]; errors: number[]; links: unknown[][] };
  b: unknown;
  diff: unknown[][] | null;
} {
  const m = /<script type="application\/json" id="tape-data">([^<]*)<\/script>/.exec(html);
  assert.ok(m, "the page has its data element");
  return JSON.parse(m[1]);
}

const frame = (t: number, dir: "sdk->cli" | "cli->sdk", f: Record<string, unknown>, line = 0) =>
  ({ t, dir, frame: { ...f }, line }) as TapeEntry;

Deno.test("timelineHtml: a real interrupt tape: folds, links, marks, anchors", async () => {
  const tape = await real("cp_interrupt_partial.jsonl");
  const html = timelineHtml(tape);
  assert.match(html, /^<!doctype html>/);
  // self-contained: nothing loaded from elsewhere
  assert.doesNotMatch(html, /<(link|img|iframe)\b|\bsrc=|@import|url\(/i);
  assert.match(html, /<title>cp_interrupt_partial<\/title>/);
  const counts = [...html.matchAll(/<span class="count">×(\d+)<\/span>/g)].map((m) => m[1]);
  assert.deepEqual(counts, ["6", "3"]);
  for (let line = 2; line <= 22; line++) assert.match(html, new RegExp(`id="line-${line}"`));
  assert.match(
    html,
    /id="line-14"[^]*?<a class="chip control" href="#line-15" data-to="13">→ answer #15 \+14 ms<\/a>/,
  );
  assert.match(html, /id="line-21"[^>]*has-error|class="[^"]*has-error[^"]*" id="line-21"/);
  assert.match(html, /<span class="badge error" id="errors">1 error<\/span>/);
  assert.match(html, /completeness not recorded/);
  assert.match(html, /ending not recorded/);
  assert.match(html, /--include-partial-messages/);
  const data = pageData(html);
  assert.equal(data.a.entries.length, 21);
  assert.deepEqual(data.a.errors, [19]);
  assert.deepEqual(data.a.links, [[0, 2, "control", 0], [12, 13, "control", 0]]);
  assert.equal(data.b, null);
});

Deno.test("timelineModel: hooks, permissions, tool links and answers", async () => {
  const model = timelineModel(await real("cp_hooks_all.jsonl"));
  const byLine = (i: number) => i + 2;
  const links = model.links.map((l) => `${l.kind} ${byLine(l.from)}>${byLine(l.to)}`);
  assert.deepEqual(links, [
    "control 2>4",
    "control 6>7",
    "permission 9>11",
    "control 11>12",
    "permission 9>14",
    "control 14>15",
    "tool 9>16",
    "control 18>19",
  ]);
  assert.equal(model.errorCount, 0);
  assert.equal(model.entries[9].detail, "can_use_tool Read");
  assert.equal(model.entries[4].detail, "hook_callback UserPromptSubmit");
});

Deno.test("timelineModel: every kind of error is marked", () => {
  const tape: Tape = {
    header: { version: 1 },
    entries: [
      frame(0, "sdk->cli", {
        type: "control_request",
        request_id: "r1",
        request: { subtype: "x" },
      }),
      frame(1, "cli->sdk", {
        type: "control_response",
        response: { subtype: "error", request_id: "r1", error: "Unsupported control request" },
      }),
      frame(2, "cli->sdk", {
        type: "system",
        subtype: "api_retry",
        attempt: 1,
        max_retries: 2,
        error_status: 529,
      }),
      frame(3, "cli->sdk", {
        type: "system",
        subtype: "permission_denied",
        tool_name: "Bash",
        message: "no",
      }),
      { t: 4, dir: "stderr", text: "boom", line: 0 },
      { t: 5, dir: "cli->sdk", raw: "not json", line: 0 },
      frame(6, "cli->sdk", {
        type: "result",
        subtype: "success",
        is_error: true,
        permission_denials: [],
      }),
      frame(7, "cli->sdk", {
        type: "result",
        subtype: "success",
        is_error: false,
        permission_denials: [{ tool_name: "Write" }],
      }),
      frame(8, "cli->sdk", {
        type: "control_request",
        request_id: "c1",
        request: { subtype: "can_use_tool" },
      }),
      frame(9, "cli->sdk", { type: "control_cancel_request", request_id: "c1" }),
      frame(10, "sdk->cli", {
        type: "control_request",
        request_id: "never",
        request: { subtype: "interrupt" },
      }),
    ],
    ending: { t: 12, code: 1, signal: null },
    complete: true,
  };
  const model = timelineModel(tape);
  const marks = model.entries.map((e) => e.marks.map((m) => `${m.level}: ${m.text}`).join("; "));
  assert.deepEqual(marks, [
    "",
    "error: control error: Unsupported control request",
    "error: API retry 1/2 (529)",
    "error: permission denied: Bash",
    "error: written to stderr",
    "error: a line that is not a JSON frame",
    "error: result is_error",
    "error: permission denials: Write",
    "warn: never answered",
    "warn: request cancelled",
    "warn: never answered",
  ]);
  assert.deepEqual(model.links.map((l) => [l.from, l.to, l.kind, l.error]), [
    [0, 1, "control", true],
    [8, 9, "cancel", true],
  ]);
  assert.deepEqual(model.endingMarks, [{ level: "error", text: "exit code 1" }]);
  assert.equal(model.errorCount, 8);
  assert.deepEqual(model.entries.map((e) => e.id).slice(0, 2), ["entry-0", "entry-1"]);
  const html = timelineHtml(tape);
  assert.match(html, /class="row ending has-error" id="ending">.*process exited with code 1/);
  assert.match(html, /exit 1 at 12 ms/);
  assert.match(html, /id="errors">8 errors</);
  const cut = timelineModel({ header: { version: 1 }, entries: [], complete: false });
  assert.deepEqual(cut.endingMarks, [{
    level: "warn",
    text: "the tape was cut short (no ending line)",
  }]);
  assert.match(
    timelineHtml({ header: { version: 1 }, entries: [], complete: false }),
    /tape cut short/,
  );
  const killed = timelineModel({
    header: { version: 1 },
    entries: [],
    ending: { t: 0, code: null, signal: "SIGTERM" },
  });
  assert.deepEqual(killed.endingMarks, [{ level: "error", text: "killed by SIGTERM" }]);
});

Deno.test("timelineHtml: tape text is escaped everywhere and cannot close the data script", () => {
  const evil = '</script><script>alert(1)</script><img src=x onerror="alert(2)">&amp;';
  const tape: Tape = {
    header: { version: 1, scenario: evil, args: [evil], [evil]: evil },
    entries: [
      frame(0, "sdk->cli", { type: "user", message: { role: "user", content: evil } }, 2),
      { t: 1, dir: "cli->sdk", raw: evil, line: 3 },
      { t: 2, dir: "stderr", text: evil, line: 4 },
      frame(3, "cli->sdk", { type: evil, [evil]: evil }, 5),
    ],
    source: evil,
  };
  const html = timelineHtml(tape, { title: evil, compare: tape });
  assert.equal(html.match(/<script\b/g)?.length, 2, "only the page's own two scripts");
  assert.equal(html.match(/<\/script>/g)?.length, 2);
  assert.doesNotMatch(html, /<img/);
  assert.ok(!html.includes(evil));
  assert.ok(html.includes("&#60;/script&#62;&#60;script&#62;alert(1)"));
  // the data still round-trips
  assert.deepEqual(pageData(html).a.entries[0], { ...tape.entries[0], line: 2 });
  assert.equal(pageData(html).a.entries[1].line, 3);
  // the script runs only with its nonce
  const nonce = /script-src 'nonce-([0-9a-f]{32})'/.exec(html)?.[1];
  assert.ok(nonce);
  assert.match(html, new RegExp(`<script nonce="${nonce}">`));
});

Deno.test("timelineHtml: compare aligns by kind, so an extra frame shifts nothing", () => {
  const base = [
    frame(0, "sdk->cli", {
      type: "control_request",
      request_id: "a",
      request: { subtype: "initialize" },
    }),
    frame(1, "sdk->cli", { type: "user", message: { role: "user", content: "hi" } }),
    frame(5, "cli->sdk", {
      type: "system",
      subtype: "init",
      uuid: "11111111-1111-4111-8111-111111111111",
    }),
    frame(9, "cli->sdk", { type: "result", subtype: "success", result: "Hello" }),
  ];
  const other = [
    base[0],
    base[1],
    frame(3, "cli->sdk", { type: "system", subtype: "api_retry", attempt: 1 }),
    frame(6, "cli->sdk", {
      type: "system",
      subtype: "init",
      uuid: "22222222-2222-4222-8222-222222222222",
    }),
    frame(9, "cli->sdk", { type: "result", subtype: "error_during_execution", result: "" }),
  ];
  const rows = alignTapes(base, other);
  assert.deepEqual(rows.map((r) => [r.a, r.b, r.mark]), [
    [0, 0, "same"],
    [1, 1, "same"],
    [-1, 2, "right"],
    [2, 3, "ids"],
    [3, 4, "diff"],
  ]);
  const html = timelineHtml({ header: { version: 1 }, entries: base }, {
    compare: { header: { version: 1 }, entries: other },
  });
  assert.match(html, /<body class="view-diff">/);
  assert.match(
    html,
    /5 aligned rows: 2 identical, 1 the same but for ids and times, <b>1 different<\/b>, 0 only in A, 1 only in B/,
  );
  assert.deepEqual(pageData(html).diff, rows.map((r) => [r.a, r.b, r.mark]));
  const same = alignTapes(base, base);
  assert.ok(same.every((r) => r.mark === "same"));
  assert.deepEqual(alignTapes([], base).map((r) => r.mark), ["right", "right", "right", "right"]);
});

Deno.test("timelineHtml: bad input is refused with a TypeError that says where", () => {
  const bad = (tape: unknown) => () => timelineHtml(tape as Tape);
  assert.throws(bad(null), { name: "TypeError", message: /tape must be a Tape object, got null/ });
  assert.throws(bad({ header: {}, entries: "x" }), /tape has no entries array/);
  assert.throws(
    bad({ header: {}, entries: [{ t: 0, dir: "up", frame: {} }], source: "x.jsonl" }),
    {
      name: "TypeError",
      message:
        'Cannot render timeline: tape has an entry with direction "up" at entry 0 (in x.jsonl)',
    },
  );
  assert.throws(
    bad({ header: {}, entries: [{ t: "soon", dir: "sdk->cli", frame: {} }] }),
    /time that is not a finite number at entry 0/,
  );
  assert.throws(
    bad({ header: {}, entries: [{ t: 0, dir: "sdk->cli" }] }),
    /neither frame nor raw at entry 0/,
  );
  assert.throws(
    bad({ header: {}, entries: [{ t: 0, dir: "stderr" }] }),
    /stderr entry without text/,
  );
  const tape: Tape = { header: { version: 1 }, entries: [] };
  assert.throws(
    () => timelineHtml(tape, { compare: {} as Tape }),
    /options.compare has no header object/,
  );
  assert.throws(
    () => timelineHtml(tape, { title: 3 as unknown as string }),
    /options.title must be a string/,
  );
  const big = { header: { version: 1 }, entries: [frame(0, "sdk->cli", { type: "x", n: 1n })] };
  assert.throws(() => timelineHtml(big), { name: "TypeError", message: /not JSON-serializable/ });
});

Deno.test("timelineDiffAnchor: the anchor of a line, or a link to it", () => {
  assert.equal(timelineDiffAnchor(12), "#line-12");
  assert.equal(timelineDiffAnchor(3, { html: "tapes/hello.html" }), "tapes/hello.html#line-3");
  for (const line of [0, -1, 1.5, NaN]) {
    assert.throws(() => timelineDiffAnchor(line), {
      name: "RangeError",
      message: /positive integer/,
    });
  }
  assert.throws(() => timelineDiffAnchor(1, { html: 2 as unknown as string }), TypeError);
});

Deno.test("timelineHtml: every real tape renders, with one row per entry", async () => {
  const names: string[] = [];
  for (const dir of ["", "failures/"]) {
    for await (const file of Deno.readDir(new URL(dir, REAL))) {
      if (file.name.endsWith(".jsonl") && !file.name.endsWith(".messages.jsonl")) {
        names.push(dir + file.name);
      }
    }
  }
  assert.ok(names.length > 60, `${names.length} tapes`);
  for (const name of names) {
    const file = { name };
    const tape = await real(name);
    const html = timelineHtml(tape);
    const rows = html.match(/class="row entry /g)?.length ?? 0;
    assert.equal(rows, tape.entries.length, file.name);
    assert.equal(pageData(html).a.entries.length, tape.entries.length, file.name);
  }
});
