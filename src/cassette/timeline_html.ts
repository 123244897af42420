/**
 * The timeline view of a tape: one self-contained, offline HTML file (inline CSS and
 * script, no network) with the two directions of the wire as lanes on a time axis.
 *
 * @module
 */

import { TIMELINE_CSS, TIMELINE_SCRIPT } from "./_timeline_assets.ts";
import { alignTapes } from "./_timeline_diff.ts";
import { type TimelineModel, timelineModel } from "./_timeline_model.ts";
import { diffRowsHtml, escapeHtml, overviewHtml, rowsHtml } from "./_timeline_render.ts";
import type { Tape } from "./tape.ts";
import { kindOf } from "../wire/_kind_of.ts";

/** Options of {@linkcode timelineHtml}. */
export interface TimelineHtmlOptions {
  /** The page's title (default: the tape's scenario, test or source). */
  title?: string;
  /** A second tape: adds a diff view of the two, entries aligned in order. */
  compare?: Tape;
  /**
   * The page is one part of a long tape's timeline (its entries are that part's): the
   * header says which, with the lines it covers, and links the previous and next parts.
   */
  part?: {
    /** This part, from 1. */
    index: number;
    /** How many parts there are. */
    count: number;
    /** The address of part `index` (relative to this page). */
    href: (index: number) => string;
  };
}

/**
 * Renders a tape as one self-contained HTML document (inline CSS and script, nothing
 * loaded from the network): the header with the tape's metadata (versions, arguments,
 * `recorded_at`, complete or cut, how the process ended); an overview strip placing every
 * entry by its time `t`; and two lanes, SDK → CLI and CLI → SDK, one row per entry.
 *
 * In the lanes each control request is linked to its answer (a connector and chips; clicking
 * one highlights the other), each tool use to its tool result and to the permission or hook
 * requests about it; runs of consecutive `stream_event` frames fold into one item with a
 * count (Enter or ▸ expands it); errors are marked (an `is_error` result, `api_retry`,
 * `permission_denied`, control errors, denials, stderr, lines that were not JSON, a process
 * that did not exit 0, a cut tape). Clicking an entry shows its JSON, pretty-printed; `j`/`k`
 * (or the arrows) step through the entries, `p` jumps to the linked entry, `n`/`N` to the
 * next or previous error. Every entry has an anchor (`#line-12`, see
 * {@linkcode timelineDiffAnchor}) that selects it when the page opens.
 *
 * With `compare`, a diff view (the default view; `d` switches) aligns the two tapes' entries
 * in order, marks each pair identical (`=`), identical but for ids and times (`≈`),
 * different (`≠`) or one-sided (`−`, `+`), and shows the selected pair's JSON side by side
 * with the differing lines marked.
 *
 * The tape is untrusted input: all its text is escaped, and the frames travel to the script
 * as JSON that cannot close its `<script>` element.
 *
 * @example A tape built in memory
 * ```ts
 * import { type Tape, timelineHtml } from "@x/claude-mock/cassette";
 * const tape: Tape = {
 *   header: { version: 1, cli_version: "2.1.328", scenario: "hello" },
 *   entries: [
 *     { t: 2, dir: "sdk->cli", line: 2, frame: { type: "user", message: { role: "user", content: "hi" } } },
 *     { t: 540, dir: "cli->sdk", line: 3, frame: { type: "result", subtype: "success", is_error: false } },
 *   ],
 *   ending: { t: 560, code: 0, signal: null },
 *   complete: true,
 * };
 * const html = timelineHtml(tape, { title: "hello <tape>" });
 * console.log(html.startsWith("<!doctype html>")); // true
 * console.log(html.includes("<title>hello &#60;tape&#62;</title>")); // true
 * console.log(html.includes('id="line-3"')); // true
 * ```
 *
 * @example Comparing two tapes
 * ```ts
 * import { type Tape, timelineHtml } from "@x/claude-mock/cassette";
 * const tape = (text: string): Tape => ({
 *   header: { version: 1 },
 *   entries: [{ t: 0, dir: "cli->sdk", line: 2, frame: { type: "result", result: text } }],
 * });
 * const html = timelineHtml(tape("Hello!"), { compare: tape("Hi!") });
 * console.log(html.includes('class="drow diff"')); // true
 * ```
 */
export function timelineHtml(tape: Tape, options: TimelineHtmlOptions = {}): string {
  checkOptions(tape, options);
  const other = options.compare;
  const model = timelineModel(tape);
  const title = options.title ?? titleOf(tape);
  // the page's own script carries this nonce: a script smuggled in by tape text would not run
  const nonce = Array.from(
    crypto.getRandomValues(new Uint8Array(16)),
    (b) => b.toString(16).padStart(2, "0"),
  )
    .join("");
  const parts: string[] = [pageHead(title, nonce)];
  parts.push(`<body class="${other ? "view-diff" : "view-timeline"}">\n<header>`);
  parts.push(`<h1>${escapeHtml(title)}</h1>`);
  if (options.part) parts.push(partHtml(tape, options.part));
  parts.push(headerHtml(tape, model, other ? "A" : undefined));
  let data: Record<string, unknown> = { a: dataOf(tape, model), b: null, diff: null };
  let diff = "";
  if (other) {
    const compared = comparison([tape, other], model);
    parts.push(compared.header);
    data = { ...data, ...compared.data };
    diff = compared.pane;
  }
  parts.push(
    `<p class="keys">j/k or ↓/↑ move · Enter expand · click or p: linked entry · n/N next/previous error${
      other ? " · d timeline/diff" : ""
    }</p></header>\n`,
  );
  parts.push(
    `<main class="pane" id="timeline-pane">\n<section class="list" id="timeline-list">\n<div class="sticky">${
      overviewHtml(tape, model)
    }\n<div class="lanes-head"><div>t ms</div><div>SDK → CLI</div><div>CLI → SDK</div></div></div>\n` +
      `<div id="rows" role="listbox" aria-label="entries">\n<svg class="links" aria-hidden="true"></svg>\n${
        rowsHtml(tape, model)
      }\n</div></section>\n<aside class="panel" id="detail"><div class="dhead" id="dhead">` +
      `Select an entry (click, or j/k) to see its JSON</div><pre id="json"></pre></aside>\n</main>\n`,
  );
  parts.push(diff);
  parts.push(
    `<script type="application/json" id="tape-data">${jsonForScript(data)}</script>\n` +
      `<script nonce="${nonce}">${TIMELINE_SCRIPT}</script>\n</body>\n</html>\n`,
  );
  return parts.join("");
}

/** Throws a `TypeError` for a tape, options or a tape to compare that are not what they say. */
function checkOptions(tape: Tape, options: TimelineHtmlOptions): void {
  checkTape(tape, "tape");
  if (options === null || typeof options !== "object") {
    throw new TypeError(
      `Cannot render timeline: options must be an object, got ${
        options === null ? "null" : typeof options
      }`,
    );
  }
  if (options.title !== undefined && typeof options.title !== "string") {
    throw new TypeError(
      `Cannot render timeline: options.title must be a string, got ${kindOf(options.title)}`,
    );
  }
  if (options.compare !== undefined) checkTape(options.compare, "options.compare");
}

/** The page up to its body: the policy that lets only the page's own script run, the style. */
function pageHead(title: string, nonce: string): string {
  return `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'">\n` +
    `<title>${escapeHtml(title)}</title>\n<style>${TIMELINE_CSS}</style>\n</head>\n`;
}

/**
 * A diff of two tapes: B's header, the counts of aligned rows and the tabs (for the page's
 * header), the data the page's script reads, and the diff pane.
 */
function comparison(
  [tape, other]: [Tape, Tape],
  model: ReturnType<typeof timelineModel>,
): { header: string; data: Record<string, unknown>; pane: string } {
  const otherModel = timelineModel(other);
  const rows = alignTapes(tape.entries, other.entries);
  const counts = { same: 0, ids: 0, diff: 0, left: 0, right: 0 };
  for (const row of rows) counts[row.mark]++;
  const header = headerHtml(other, otherModel, "B") +
    `<p class="diffsum">${rows.length} aligned rows: ${counts.same} identical, ${counts.ids} ` +
    `the same but for ids and times, <b>${counts.diff} different</b>, ${counts.left} only in A, ` +
    `${counts.right} only in B.</p>` +
    `<nav class="tabs"><button type="button" data-view="timeline">Timeline of A</button>` +
    `<button type="button" data-view="diff">Diff A ↔ B</button></nav>`;
  const data = { b: dataOf(other, otherModel), diff: rows.map((r) => [r.a, r.b, r.mark]) };
  const pane = `<main class="pane" id="diff-pane">\n<section class="list" id="diff-list">` +
    `<div class="dhead-row"><div>A: ${escapeHtml(titleOf(tape))}</div><div></div><div>B: ${
      escapeHtml(titleOf(other))
    }</div></div>\n<div id="diff-rows" role="listbox" aria-label="aligned entries">\n${
      diffRowsHtml([tape, other], [model, otherModel], rows)
    }\n</div></section>\n<aside class="panel" id="diff-detail"><div class="dhead" id="diff-dhead">` +
    `Select a pair (j/k) to compare its JSON</div><div id="json-diff" class="jsondiff"></div></aside>\n</main>\n`;
  return { header, data, pane };
}

/**
 * The anchor of a tape line in a timeline page (`#line-12`), or a link to it with `html`
 * (`tape.html#line-12`): opening it selects that entry (expanding its folded run, and in a
 * diff view the pair holding it). For messages that point at an entry, like a replay
 * mismatch.
 *
 * @example Pointing at line 12
 * ```ts
 * import { timelineDiffAnchor } from "@x/claude-mock/cassette";
 * console.log(timelineDiffAnchor(12)); // #line-12
 * console.log(timelineDiffAnchor(12, { html: "hello.html" })); // hello.html#line-12
 * ```
 */
export function timelineDiffAnchor(line: number, options: { html?: string } = {}): string {
  if (!Number.isSafeInteger(line) || line < 1) {
    throw new RangeError(
      `Cannot make a timeline anchor: line must be a positive integer, got ${String(line)}`,
    );
  }
  const html = options?.html;
  if (html !== undefined && typeof html !== "string") {
    throw new TypeError(
      `Cannot make a timeline anchor: options.html must be a string, got ${kindOf(html)}`,
    );
  }
  return `${html ?? ""}#line-${line}`;
}

function partHtml(tape: Tape, part: NonNullable<TimelineHtmlOptions["part"]>): string {
  const { index, count, href } = part;
  const first = tape.entries[0]?.line;
  const last = tape.entries.at(-1)?.line;
  const lines = first !== undefined ? ` (lines ${first}–${last})` : "";
  const link = (i: number, text: string) =>
    i >= 1 && i <= count ? ` · <a href="${escapeHtml(href(i))}">${text}</a>` : "";
  return `<p class="parts">Part ${index} of ${count}${lines}${link(index - 1, "← previous part")}${
    link(index + 1, "next part →")
  }</p>`;
}

function titleOf(tape: Tape): string {
  const h = tape.header;
  const name = [h.scenario, h.test].find((v) => typeof v === "string" && v !== "");
  if (typeof name === "string") return name;
  if (typeof tape.source === "string" && tape.source !== "") {
    return tape.source.replace(/^.*[\\/]/, "");
  }
  return "tape";
}

/** Checks what `timelineHtml` reads of a tape; throws TypeError saying where it is wrong. */
function checkTape(tape: Tape, name: string): void {
  const where = (i?: number) => {
    const src = typeof tape?.source === "string" ? ` (in ${tape.source})` : "";
    return i === undefined ? src : ` at entry ${i}${src}`;
  };
  const fail = (what: string, i?: number): never => {
    throw new TypeError(`Cannot render timeline: ${name} ${what}${where(i)}`);
  };
  if (tape === null || typeof tape !== "object") {
    fail(`must be a Tape object, got ${kindOf(tape)}`);
  }
  if (tape.header === null || typeof tape.header !== "object") fail("has no header object");
  if (!Array.isArray(tape.entries)) fail("has no entries array");
  tape.entries.forEach((e, i) => {
    if (e === null || typeof e !== "object") return fail("has an entry that is not an object", i);
    if (typeof e.t !== "number" || !Number.isFinite(e.t)) {
      fail(`has a time that is not a finite number`, i);
    }
    if (e.dir === "stderr") {
      if (typeof e.text !== "string") fail("has a stderr entry without text", i);
    } else if (e.dir === "sdk->cli" || e.dir === "cli->sdk") {
      if ("frame" in e) {
        if (e.frame === null || typeof e.frame !== "object") {
          fail("has a frame that is not an object", i);
        }
      } else if (typeof (e as { raw?: unknown }).raw !== "string") {
        fail("has an entry with neither frame nor raw", i);
      }
    } else fail(`has an entry with direction ${JSON.stringify(e.dir)}`, i);
  });
  const end = tape.ending;
  if (end !== undefined && (end === null || typeof end !== "object" || typeof end.t !== "number")) {
    fail("has an ending that is not { t, code, signal }");
  }
}

function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

const KNOWN_HEADER = new Set([
  "format",
  "version",
  "recorded_at",
  "cli_version",
  "sdk_version",
  "args",
  "scenario",
  "test",
  "converted_from",
]);

function headerHtml(tape: Tape, model: TimelineModel, side: string | undefined): string {
  const h = tape.header;
  const rows: Array<[string, string]> = [];
  const add = (name: string, value: unknown) => {
    if (value !== undefined && value !== null && value !== "") rows.push([name, String(value)]);
  };
  add("source", tape.source);
  add("format", `${h.format ?? "(no format name)"} v${h.version}`);
  add("CLI", h.cli_version);
  add("SDK", h.sdk_version);
  add("args", Array.isArray(h.args) ? h.args.map((a) => shellQuote(String(a))).join(" ") : h.args);
  add("recorded at", h.recorded_at);
  add("scenario", h.scenario);
  add("test", h.test);
  add("converted from", h.converted_from);
  const extra = Object.keys(h).filter((k) => !KNOWN_HEADER.has(k));
  const state = tape.complete === true
    ? `<span class="badge ok">complete</span>`
    : tape.complete === false
    ? `<span class="badge warn">cut short</span>`
    : `<span class="badge">completeness not recorded</span>`;
  const end = tape.ending;
  const ending = end
    ? end.signal
      ? `<span class="badge error">killed by ${escapeHtml(String(end.signal))}</span>`
      : `<span class="badge ${end.code === 0 ? "ok" : "error"}">exit ${
        escapeHtml(String(end.code))
      } at ${Math.round(end.t)} ms</span>`
    : `<span class="badge">ending not recorded</span>`;
  const errors = model.errorCount > 0
    ? `<span class="badge error" id="${
      side ? `errors-${side}` : "errors"
    }">${model.errorCount} error${model.errorCount === 1 ? "" : "s"}</span>`
    : `<span class="badge ok">no errors</span>`;
  const dl = rows.map(([k, v]) =>
    `<div class="kv"><dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd></div>`
  ).join("");
  const more = extra.length > 0
    ? `<details><summary>${extra.length} more header field${
      extra.length === 1 ? "" : "s"
    }</summary>` +
      `<pre>${
        escapeHtml(JSON.stringify(Object.fromEntries(extra.map((k) => [k, h[k]])), null, 2))
      }</pre></details>`
    : "";
  return `<div class="meta"${side ? ` data-side="${side}"` : ""}>${
    side ? `<b class="side">${side}</b>` : ""
  }` +
    `<div class="badges">${state}${ending}${errors}<span class="badge">${tape.entries.length} entries</span></div>` +
    `<dl>${dl}</dl>${more}</div>`;
}

function dataOf(tape: Tape, model: TimelineModel): Record<string, unknown> {
  return {
    entries: tape.entries.map((e) =>
      e.dir === "stderr"
        ? { t: e.t, dir: e.dir, line: e.line, text: e.text }
        : "frame" in e
        ? { t: e.t, dir: e.dir, line: e.line, frame: e.frame }
        : { t: e.t, dir: e.dir, line: e.line, raw: e.raw }
    ),
    ids: model.entries.map((v) => v.id),
    errors: model.entries.filter((v) => v.marks.some((m) => m.level === "error")).map((v) =>
      v.index
    ),
    links: model.links.map((l) => [l.from, l.to, l.kind, l.error ? 1 : 0]),
  };
}

/** JSON that can sit inside a `<script>` element: no `<`, `>` or `&` in it. */
function jsonForScript(value: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(
      `Cannot render timeline: a frame is not JSON-serializable (${
        error instanceof Error ? error.message : error
      })`,
    );
  }
  return json.replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
