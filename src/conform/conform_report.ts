/**
 * A conformance report as text (per case: identical, explained, or the first differences
 * with their frame numbers), as a side-by-side HTML timeline per case and mode (the timeline
 * view's compare mode over the normalized tapes), and as Markdown.
 *
 * @module
 */

import { timelineHtml } from "../cassette/timeline_html.ts";
import type { Difference } from "./_compare.ts";
import type { CaseResult, ConformReport, ModeResult } from "./run_conformance.ts";
import { show } from "../wire/_show.ts";

/** How many differences per mode the text report shows (the rest are counted). */
const SHOWN = 6;

/** One difference as a line: `frame 5/6 cli->sdk result: value usage.output_tokens: mock 3, real 25`. */
export function describeDifference(d: Difference): string {
  const frame = d.mockFrame !== undefined || d.realFrame !== undefined
    ? `frame ${d.mockFrame ?? "-"}/${d.realFrame ?? "-"} `
    : "";
  const at = d.path ? ` ${d.path}` : "";
  let what: string;
  switch (d.type) {
    case "missing":
      what = "only the real CLI writes it";
      break;
    case "extra":
      what = "only the mock writes it";
      break;
    case "keys":
      what = `keys only in mock ${show(d.mock, { max: 158 })}, only in real ${
        show(d.real, { max: 158 })
      }`;
      break;
    default:
      what = `mock ${show(d.mock, { max: 158 })}, real ${show(d.real, { max: 158 })}`;
  }
  const explained = d.explainedBy ? ` (explained: ${d.explainedBy})` : "";
  return `${frame}${d.kind} ${d.type}${at}: ${what}${explained}`;
}

/** A mode's status in a few words. */
function modeSummary(m: ModeResult): string {
  if (m.status === "error") return `error (${m.error})`;
  if (m.status === "identical") return "identical";
  const open = m.differences.filter((d) => !d.explainedBy).length;
  return m.status === "explained"
    ? `explained (${m.differences.length})`
    : `${open} difference${open === 1 ? "" : "s"}${
      m.differences.length > open ? ` (+${m.differences.length - open} explained)` : ""
    }`;
}

/**
 * The text report: a line per case, then its first unexplained differences per mode.
 *
 * @example A report of one case
 * ```ts
 * import { conformancePassed, reportText } from "@x/claude-mock/cli";
 * const report = {
 *   sdk: "0.3.328",
 *   cli: "2.1.328",
 *   claude: "/path/to/claude",
 *   ms: 2100,
 *   cases: [{
 *     case: "hello",
 *     source: "conformance/hello.json",
 *     status: "different" as const,
 *     modes: [{
 *       mode: "print:json",
 *       status: "different" as const,
 *       ms: { mock: 300, real: 900 },
 *       differences: [{
 *         type: "value" as const,
 *         kind: "cli->sdk result/success",
 *         mockFrame: 1,
 *         realFrame: 1,
 *         path: "usage.output_tokens",
 *         mock: 3,
 *         real: 25,
 *       }],
 *     }],
 *   }],
 * };
 * console.log(reportText(report));
 * // conform: SDK 0.3.328 (CLI 2.1.328), /path/to/claude
 * // hello: print:json 1 difference
 * //   print:json frame 1/1 cli->sdk result/success value usage.output_tokens: mock 3, real 25
 * // 1 cases: 0 identical, 0 explained, 1 different, 0 errors (2 s)
 * console.log(conformancePassed(report)); // false
 * ```
 */
export function reportText(report: ConformReport, options: { shown?: number } = {}): string {
  const lines = [
    `conform: SDK ${report.sdk}${report.cli ? ` (CLI ${report.cli})` : ""}, ${report.claude}`,
  ];
  for (const c of report.cases) lines.push(...caseLines(c, options.shown ?? SHOWN));
  lines.push(summaryLine(report));
  return `${lines.join("\n")}\n`;
}

/** The lines of one case. */
export function caseLines(c: CaseResult, shown: number = SHOWN): string[] {
  const lines = [
    `${c.case}: ${c.modes.map((m) => `${m.mode} ${modeSummary(m)}`).join(" · ") || "no runs"}`,
  ];
  for (const m of c.modes) {
    const open = m.differences.filter((d) => !d.explainedBy);
    for (const d of open.slice(0, shown)) lines.push(`  ${m.mode} ${describeDifference(d)}`);
    if (open.length > shown) lines.push(`  ${m.mode} … ${open.length - shown} more`);
    if (m.thrown && m.status !== "identical" && m.status !== "explained") {
      if (m.thrown.mock) lines.push(`  ${m.mode} mock query threw: ${m.thrown.mock}`);
      if (m.thrown.real) lines.push(`  ${m.mode} real query threw: ${m.thrown.real}`);
    }
  }
  return lines;
}

/** `17 cases: 10 identical, 3 explained, 4 different, 0 errors (183 s)`. */
export function summaryLine(report: ConformReport): string {
  const count = (s: CaseResult["status"]) => report.cases.filter((c) => c.status === s).length;
  return `${report.cases.length} cases: ${count("identical")} identical, ${
    count("explained")
  } explained, ${count("different")} different, ${count("error")} errors (${
    Math.round(report.ms / 1000)
  } s)`;
}

/**
 * Whether the run passes: every case identical or explained.
 *
 * @example An empty run passes
 * ```ts
 * import { conformancePassed } from "@x/claude-mock/cli";
 * console.log(conformancePassed({ sdk: "0.3.328", claude: "claude", cases: [], ms: 0 })); // true
 * ```
 */
export function conformancePassed(report: ConformReport): boolean {
  return report.cases.every((c) => c.status === "identical" || c.status === "explained");
}

/**
 * The HTML pages: `index` (a table of cases and modes linking to each timeline) and one page
 * per case and mode (the mock's normalized tape with the real CLI's as `compare`).
 */
export function reportHtml(report: ConformReport, pageName: (c: string, mode: string) => string): {
  index: string;
  pages: Map<string, string>;
} {
  const pages = new Map<string, string>();
  const rows: string[] = [];
  for (const c of report.cases) {
    const cells = c.modes.map((m) => {
      const name = pageName(c.case, m.mode);
      if (m.tapes) {
        pages.set(
          name,
          timelineHtml(m.tapes.mock, {
            compare: m.tapes.real,
            title: `${c.case} · ${m.mode} · mock vs real CLI ${
              report.cli ?? ""
            } (SDK ${report.sdk})`,
          }),
        );
      }
      const label = escape(`${m.mode}: ${modeSummary(m)}`);
      return m.tapes
        ? `<a class="${m.status}" href="${escape(name)}">${label}</a>`
        : `<span class="${m.status}">${label}</span>`;
    });
    rows.push(`<tr><td>${escape(c.case)}</td><td>${cells.join("<br>")}</td></tr>`);
  }
  const index =
    `<!doctype html><html><head><meta charset="utf-8"><title>Conformance: SDK ${
      escape(report.sdk)
    }</title><style>body{font:14px system-ui;margin:2em}td{padding:4px 12px;vertical-align:top;border-bottom:1px solid #ddd}` +
    `.identical{color:#176f2c}.explained{color:#5a5a00}.different{color:#b00020}.error{color:#b00020;font-weight:bold}</style></head><body>` +
    `<h1>Mock vs real CLI ${escape(report.cli ?? "")} (SDK ${escape(report.sdk)})</h1><p>${
      escape(summaryLine(report))
    }</p>` +
    `<p>Each link opens the side-by-side timeline of the two normalized wires (mock left, real CLI right).</p>` +
    `<table>${rows.join("")}</table></body></html>\n`;
  return { index, pages };
}

function escape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
