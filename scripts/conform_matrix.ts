// The conformance matrix: the corpus (conformance/) against the pinned, the previous and the
// latest Agent SDK, each installed from npm (with its real `claude`) into a cache folder outside
// the repository, and docs/conformance.md written from the results: per case and SDK version
// identical, explained, or the differences.
//
//   deno run -A scripts/conform_matrix.ts [--versions 0.3.328,0.3.331,0.3.332] [--only a,b]
//                                         [--out docs/conformance.md] [--cache DIR]
//                                         [--reports DIR]   (keep each version's JSON report)
//                                         [--reuse]         (with --reports: skip versions reported)
//
// Each version runs in its own process (`cli.ts conform --sdk V --json …`), one after another.
import { parseArgs } from "node:util";
import { explain, loadConformExceptions } from "../src/conform/conform_exceptions.ts";
import { judgeWithKnown, loadKnownDifferences } from "../src/conform/_known_differences.ts";
import { show } from "../src/wire/_show.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const { values } = parseArgs({
  args: Deno.args,
  options: {
    versions: { type: "string", default: "0.3.328,0.3.331,0.3.332" },
    only: { type: "string" },
    out: { type: "string", default: `${ROOT}docs/conformance.md` },
    cache: { type: "string" },
    reports: { type: "string" },
    reuse: { type: "boolean", default: false },
  },
});
const versions = values.versions!.split(",").map((v) => v.trim()).filter(Boolean);
const pinned = /claude-agent-sdk@(\d+\.\d+\.\d+)/.exec(await Deno.readTextFile(`${ROOT}deno.json`))
  ?.[1];

interface Difference {
  type: string;
  kind: string;
  mockFrame?: number;
  realFrame?: number;
  path?: string;
  mock?: unknown;
  real?: unknown;
  explainedBy?: string;
}
interface ModeResult {
  mode: string;
  status: string;
  differences: Difference[];
  error?: string;
  ms: { mock: number; real: number };
}
interface Report {
  sdk: string;
  cli?: string;
  cases: Array<{ case: string; status: string; modes: ModeResult[] }>;
  ms: number;
}

/** The page's introduction: how it is made, what a case is, what CI runs. */
const INTRO: readonly string[] = [
  "Written by `deno run -A scripts/conform_matrix.ts` (do not edit by hand). Each case of",
  "`conformance/` runs through the real Agent SDK's `query()` with the mock and with the real",
  "`claude` the SDK ships (against the scenario's Messages API), and in print mode (`-p`, text,",
  "json, stream-json) with the mock binary and the real binary; both wires are compared after",
  "normalizing ids, times, durations, paths and the API's port. `explained` means every",
  "difference matches a named exception of `conformance/exceptions.json`; `N diffs` counts the",
  "unexplained ones, listed below with their frame numbers (mock/real).",
  "",
  "A case (`conformance/case.schema.json`) names a scenario and what the app does with it: its",
  "prompt or prompts, query options, permission answers, hooks, MCP servers, an interrupt, the",
  "project's files, its print runs (`print.args`, `print.formats`, and `print.stdin`: the",
  "prompts sent as stream-json lines on stdin), and `before`: a run made first in the same",
  "project and config folder and not compared, whose session id and last assistant message's",
  "uuid `$before.session_id` and `$before.assistant_uuid` stand for in the options and print",
  "arguments (to resume, continue or fork it, or resume it at a message).",
  "",
  "CI runs `deno task conform` (the corpus against the pinned SDK), which fails on any",
  "unexplained difference. When a new CLI differs before the mock catches up, the difference",
  "can be listed in `conformance/known_differences.json` (case, mode, SDK, and the reason) and",
  "the corpus run with `--known conformance/known_differences.json`: listed differences are",
  "marked `(known)` here and still reported, but do not fail that run.",
];

const reports: Report[] = [];
const work = values.reports ?? await Deno.makeTempDir({ prefix: "conform-matrix-" });
await Deno.mkdir(work, { recursive: true });
try {
  for (const version of versions) {
    const json = `${work}/${version}.json`;
    if (values.reuse && values.reports) {
      try {
        reports.push(JSON.parse(await Deno.readTextFile(json)));
        console.log(`== SDK ${version}: reusing ${json}`);
        continue;
      } catch {
        // not there yet: run it
      }
    }
    const args = [
      "run",
      "-A",
      `${ROOT}cli.ts`,
      "conform",
      `${ROOT}conformance`,
      "--sdk",
      version,
      "--json",
      json,
      ...(values.only ? ["--only", values.only] : []),
    ];
    console.log(`== SDK ${version}: deno ${args.slice(2).join(" ")}`);
    const env = values.cache ? { XDG_CACHE_HOME: values.cache } : undefined;
    const child = new Deno.Command(Deno.execPath(), {
      args,
      cwd: ROOT,
      stdout: "inherit",
      stderr: "inherit",
      ...(env ? { env } : {}),
    }).spawn();
    // stopping the matrix stops the run in progress (it ends its CLIs and exits 143)
    const stop = () => child.kill("SIGTERM");
    Deno.addSignalListener("SIGTERM", stop);
    Deno.addSignalListener("SIGINT", stop);
    const run = await child.status;
    Deno.removeSignalListener("SIGTERM", stop);
    Deno.removeSignalListener("SIGINT", stop);
    if (run.signal || run.code === 143) throw new Error(`conform for SDK ${version} was stopped`);
    try {
      reports.push(JSON.parse(await Deno.readTextFile(json)));
    } catch {
      throw new Error(`conform for SDK ${version} wrote no report (exit ${run.code})`);
    }
  }
} finally {
  if (!values.reports) await Deno.remove(work, { recursive: true });
}
// explained by the exceptions file as it is now (a reused report may predate an entry)
const exceptions = await loadConformExceptions(`${ROOT}conformance/exceptions.json`);
for (const r of reports) {
  for (const c of r.cases) {
    for (const m of c.modes) {
      for (const d of m.differences) {
        const by = explain(d as never, { case: c.case, mode: m.mode, sdk: r.sdk }, exceptions);
        if (by) d.explainedBy = by;
        else delete d.explainedBy;
      }
      const open = m.differences.filter((d) => !d.explainedBy).length;
      if (m.status !== "error") {
        m.status = m.differences.length === 0
          ? "identical"
          : open === 0
          ? "explained"
          : "different";
      }
    }
    const rank = ["identical", "explained", "different", "error"];
    c.status = c.modes.reduce(
      (w, m) => (rank.indexOf(m.status) > rank.indexOf(w) ? m.status : w),
      "identical",
    );
  }
}
// the known differences (conformance/known_differences.json): what CI lets differ, with why
const knownFile = `${ROOT}conformance/known_differences.json`;
const known = await Deno.stat(knownFile).then(() => loadKnownDifferences(knownFile), () => []);
const knownBy = new Map<string, string>();
for (const r of reports) {
  for (const k of judgeWithKnown(r as never, known).known) {
    knownBy.set(`${r.sdk}|${k.case}|${k.mode}`, k.reason);
  }
}
await Deno.writeTextFile(values.out!, markdown(reports));
// formatted as the repository's markdown is (deno fmt --check runs in the test task)
await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", values.out!], cwd: ROOT })
  .output();
console.log(`wrote ${values.out}`);

function status(m: ModeResult): string {
  if (m.status === "error") return `error`;
  const open = m.differences.filter((d) => !d.explainedBy).length;
  if (m.status === "identical") return "identical";
  if (open === 0) return "explained";
  return `${open} diff${open === 1 ? "" : "s"}`;
}

function cell(sdk: string, c: Report["cases"][number] | undefined): string {
  if (!c) return "–";
  return c.modes.map((m) =>
    `${m.mode.replace("print:", "")}: ${status(m)}${
      knownBy.has(`${sdk}|${c.case}|${m.mode}`) ? " (known)" : ""
    }`
  ).join("<br>");
}

/** A value in a table cell: code, cut, its backticks and pipes escaped. */
function cellValue(value: unknown): string {
  return "`" + show(value, { max: 138 }).replace(/`/g, "'").replace(/\|/g, "\\|") + "`";
}

function line(d: Difference): string {
  const frame = d.mockFrame !== undefined || d.realFrame !== undefined
    ? `frame ${d.mockFrame ?? "–"}/${d.realFrame ?? "–"} `
    : "";
  const what = d.type === "missing"
    ? "only the real CLI writes it"
    : d.type === "extra"
    ? "only the mock writes it"
    : d.type === "keys"
    ? `keys only in mock ${cellValue(d.mock)}, only in real ${cellValue(d.real)}`
    : `mock ${cellValue(d.mock)}, real ${cellValue(d.real)}`;
  return `${frame}\`${d.kind}\` ${d.type}${d.path ? ` \`${d.path}\`` : ""}: ${what}`;
}

/** A difference without its frame numbers and array indexes: what recurs across cases. */
function pattern(d: Difference): string {
  return `${d.kind}|${d.type}|${(d.path ?? "").replace(/\.\d+(?=\.|$)/g, ".N")}`;
}

/** The unexplained difference patterns at least half of the cases have. */
function commonPatterns(r: Report): Map<string, { count: number; example: Difference }> {
  const seen = new Map<string, { cases: Set<string>; example: Difference }>();
  for (const c of r.cases) {
    for (const m of c.modes) {
      for (const d of m.differences) {
        if (d.explainedBy) continue;
        const key = pattern(d);
        const entry = seen.get(key) ?? { cases: new Set(), example: d };
        entry.cases.add(c.case);
        seen.set(key, entry);
      }
    }
  }
  const out = new Map<string, { count: number; example: Difference }>();
  for (const [key, { cases, example }] of seen) {
    if (cases.size * 2 >= r.cases.length) out.set(key, { count: cases.size, example });
  }
  return out;
}

function markdown(all: Report[]): string {
  const names = [...new Set(all.flatMap((r) => r.cases.map((c) => c.case)))].sort();
  const out: string[] = [
    "<!-- written by scripts/conform_matrix.ts: do not edit by hand -->",
    "",
    "# Conformance: the mock against the real CLI",
    "",
    ...INTRO,
    "",
    `| SDK | CLI | cases identical | explained | different | errors | run time |`,
    `|---|---|---|---|---|---|---|`,
  ];
  for (const r of all) {
    const n = (s: string) => r.cases.filter((c) => c.status === s).length;
    out.push(
      `| ${r.sdk}${r.sdk === pinned ? " (pinned)" : ""} | ${r.cli ?? "?"} | ${n("identical")} | ${
        n("explained")
      } | ${n("different")} | ${n("error")} | ${Math.round(r.ms / 1000)} s |`,
    );
  }
  out.push(
    "",
    `| case | ${all.map((r) => `SDK ${r.sdk}`).join(" | ")} |`,
    `|---|${all.map(() => "---").join("|")}|`,
  );
  for (const name of names) {
    out.push(
      `| ${name} | ${
        all.map((r) => cell(r.sdk, r.cases.find((c) => c.case === name))).join(" | ")
      } |`,
    );
  }
  for (const r of all) {
    out.push("", `## Differences with SDK ${r.sdk} (CLI ${r.cli ?? "?"})`, "");
    // what most cases share (the initialize answer, system/init) is listed once
    const common = commonPatterns(r);
    if (common.size > 0) {
      out.push(`In most cases (listed once here, left out below):`, "");
      for (const [, { count, example }] of common) {
        out.push(
          `- ${count} cases: ${line({ ...example, mockFrame: undefined, realFrame: undefined })}`,
        );
      }
      out.push("");
    }
    let any = false;
    for (const c of r.cases) {
      for (const m of c.modes) {
        const open = m.differences.filter((d) => !d.explainedBy && !common.has(pattern(d)));
        if (m.status === "error") {
          out.push(`- **${c.case}** ${m.mode}: error: ${m.error}`);
          any = true;
        }
        if (open.length === 0) continue;
        any = true;
        const reason = knownBy.get(`${r.sdk}|${c.case}|${m.mode}`);
        out.push(
          `- **${c.case}** ${m.mode} (${open.length})${reason ? ` (known: ${reason})` : ""}:`,
        );
        for (const d of open.slice(0, 10)) out.push(`  - ${line(d)}`);
        if (open.length > 10) out.push(`  - … ${open.length - 10} more`);
      }
    }
    if (!any) out.push("None: every case is identical or explained.");
  }
  out.push("");
  return out.join("\n");
}
