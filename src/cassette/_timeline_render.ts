/**
 * The HTML of the timeline's parts: the overview strip, the two-lane rows (folded stream
 * runs, link chips, error marks, gaps, the ending) and the diff view's aligned rows. Every
 * piece of tape text goes through {@linkcode escapeHtml}. Internal to `timelineHtml`.
 *
 * @module
 */

import type { DiffRow } from "./_timeline_diff.ts";
import type {
  TimelineEntryView,
  TimelineLink,
  TimelineMark,
  TimelineModel,
} from "./_timeline_model.ts";
import type { Tape, TapeEntry } from "./tape.ts";

/** Escapes text for HTML text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A gap of at least this many ms between two rows gets its own row. */
const GAP_MS = 500;

const num = (n: number) => Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "?";

/** The name of an entry in chips: `#12` (its tape line) or `[3]` (its index). */
function refOf(entry: TapeEntry, index: number): string {
  return entry.line > 0 ? `#${entry.line}` : `[${index}]`;
}

function marksHtml(marks: TimelineMark[]): string {
  if (marks.length === 0) return "";
  return `<span class="marks">${
    marks.map((m) => `<span class="mark ${m.level}">${escapeHtml(m.text)}</span>`).join("")
  }</span>`;
}

const CHIP_TEXT: Record<string, [string, string]> = {
  control: ["answer", "answers"],
  cancel: ["cancelled by", "cancels"],
  tool: ["result", "tool_use"],
  permission: ["asked", "about tool_use"],
};

/** The links of each entry, both ends (built once per model). */
const linksByEntry = new WeakMap<TimelineModel, Map<number, TimelineLink[]>>();

function linksOf(model: TimelineModel, index: number): TimelineLink[] {
  let map = linksByEntry.get(model);
  if (!map) {
    map = new Map();
    for (const link of model.links) {
      for (const end of [link.from, link.to]) {
        const list = map.get(end) ?? [];
        list.push(link);
        map.set(end, list);
      }
    }
    linksByEntry.set(model, map);
  }
  return map.get(index) ?? [];
}

function chipsHtml(tape: Tape, view: TimelineEntryView, model: TimelineModel): string {
  const chips: string[] = [];
  for (const link of linksOf(model, view.index)) {
    const out = link.from === view.index;
    const other = out ? link.to : link.from;
    const target = tape.entries[other];
    const [outText, inText] = CHIP_TEXT[link.kind];
    const dt = target.t - tape.entries[view.index].t;
    const when = out ? ` +${num(dt)} ms` : "";
    chips.push(
      `<a class="chip ${link.kind}${link.error ? " error" : ""}" href="#${
        escapeHtml(idOf(tape, other))
      }" data-to="${other}">${out ? "→" : "←"} ${out ? outText : inText} ${
        escapeHtml(refOf(target, other))
      }${when}</a>`,
    );
  }
  return chips.length > 0 ? `<span class="chips">${chips.join("")}</span>` : "";
}

function idOf(tape: Tape, index: number): string {
  const line = tape.entries[index].line;
  return Number.isSafeInteger(line) && line > 0 ? `line-${line}` : `entry-${index}`;
}

function cardHtml(inner: string, lane: "s2c" | "c2s"): string {
  const card = `<div class="card">${inner}</div>`;
  return lane === "s2c"
    ? `<div class="cell s2c">${card}</div><div class="cell c2s"></div>`
    : `<div class="cell s2c"></div><div class="cell c2s">${card}</div>`;
}

function timeHtml(t: number, dt: number | undefined): string {
  return `<div class="time"><span class="t">${num(t)}</span>${
    dt !== undefined ? `<span class="dt">+${num(dt)}</span>` : ""
  }</div>`;
}

function entryRowHtml(
  tape: Tape,
  model: TimelineModel,
  view: TimelineEntryView,
  options: { dt?: number; member?: boolean },
): string {
  const entry = tape.entries[view.index];
  const level = view.marks.some((m) => m.level === "error")
    ? " has-error"
    : view.marks.length > 0
    ? " has-warn"
    : "";
  const inner =
    `<div class="head"><span class="ref">${escapeHtml(refOf(entry, view.index))}</span>` +
    `<span class="label">${escapeHtml(view.label)}</span>` +
    (view.detail ? ` <span class="detail">${escapeHtml(view.detail)}</span>` : "") +
    marksHtml(view.marks) + chipsHtml(tape, view, model) + `</div>` +
    (view.preview ? `<div class="preview">${escapeHtml(view.preview)}</div>` : "");
  return `<div class="row entry k-${view.kind} l-${view.lane}${level}${
    options.member ? " member" : ""
  }" id="${escapeHtml(view.id)}" data-i="${view.index}" role="option" aria-selected="false">${
    timeHtml(entry.t, options.dt)
  }${cardHtml(inner, view.lane)}</div>`;
}

function groupHtml(tape: Tape, model: TimelineModel, g: number, dt: number | undefined): string {
  const group = model.groups[g];
  const first = model.entries[group.members[0]];
  const last = tape.entries[group.members[group.members.length - 1]];
  const events = group.events.map(([type, n]) => n > 1 ? `${type} ×${n}` : type).join(", ");
  const marks = group.members.flatMap((i) => model.entries[i].marks);
  const inner =
    `<div class="head"><button class="fold" tabindex="-1" aria-expanded="false">▸</button>` +
    `<span class="ref">${
      escapeHtml(
        last.line > 0 && tape.entries[first.index].line > 0
          ? `#${tape.entries[first.index].line}–${last.line}`
          : `[${first.index}–${group.members[group.members.length - 1]}]`,
      )
    }</span><span class="label">stream_event</span> <span class="count">×${group.members.length}</span>` +
    ` <span class="detail">${escapeHtml(events)}</span>` + marksHtml(marks) + `</div>` +
    (group.text ? `<div class="preview">${escapeHtml(group.text)}</div>` : "");
  const members = group.members.map((i, k) =>
    entryRowHtml(tape, model, model.entries[i], {
      dt: k === 0 ? undefined : tape.entries[i].t - tape.entries[group.members[k - 1]].t,
      member: true,
    })
  ).join("\n");
  return `<div class="row group k-stream_event l-${first.lane}" id="group-${g}" data-g="${g}"` +
    ` data-members="${group.members.join(" ")}" role="option" aria-selected="false">${
      timeHtml(tape.entries[first.index].t, dt)
    }${
      cardHtml(inner, first.lane)
    }</div>\n<div class="members" data-g="${g}" hidden>\n${members}\n</div>`;
}

/** The two-lane rows of a tape, with gaps, folded stream runs and the ending. */
export function rowsHtml(tape: Tape, model: TimelineModel): string {
  const out: string[] = [];
  let previous: number | undefined;
  const gap = (t: number) => {
    if (previous !== undefined && t - previous >= GAP_MS) {
      out.push(
        `<div class="row gap" aria-hidden="true"><div class="time"></div><div class="gapline">⋯ ${
          num(t - previous)
        } ms ⋯</div></div>`,
      );
    }
  };
  for (let i = 0; i < tape.entries.length; i++) {
    const view = model.entries[i];
    const t = tape.entries[i].t;
    gap(t);
    const dt = previous === undefined ? undefined : t - previous;
    if (view.group !== undefined) {
      const members = model.groups[view.group].members;
      out.push(groupHtml(tape, model, view.group, dt));
      i = members[members.length - 1];
    } else {
      out.push(entryRowHtml(tape, model, view, { dt }));
    }
    previous = tape.entries[i].t;
  }
  out.push(endingRowHtml(tape, model, previous, gap));
  return out.join("\n");
}

function endingRowHtml(
  tape: Tape,
  model: TimelineModel,
  previous: number | undefined,
  gap: (t: number) => void,
): string {
  const end = tape.ending;
  let text: string;
  if (end) {
    gap(end.t);
    text = end.signal ? `process killed by ${end.signal}` : `process exited with code ${end.code}`;
  } else if (tape.complete === false) {
    text = "tape cut short: no ending line after the last entry";
  } else {
    text = "end of tape (the process's ending was not recorded)";
  }
  const level = model.endingMarks.some((m) => m.level === "error")
    ? " has-error"
    : model.endingMarks.length > 0
    ? " has-warn"
    : "";
  const t = end ? end.t : previous ?? 0;
  return `<div class="row ending${level}" id="ending">${
    timeHtml(t, undefined)
  }<div class="endcard">${escapeHtml(text)}${marksHtml(model.endingMarks)}</div></div>`;
}

/** The overview strip: every entry as a tick placed by its time, one track per lane. */
export function overviewHtml(tape: Tape, model: TimelineModel): string {
  const track = (lane: "s2c" | "c2s") =>
    model.entries.filter((v) => v.lane === lane).map((v) => {
      const x = Math.min(100, Math.max(0, (tape.entries[v.index].t / model.span) * 100));
      const err = v.marks.some((m) => m.level === "error") ? " error" : "";
      return `<a class="tick k-${v.kind}${err}" style="left:${
        x.toFixed(3)
      }%" data-to="${v.index}" href="#${escapeHtml(v.id)}" title="${
        escapeHtml(`${refOf(tape.entries[v.index], v.index)} ${v.label} ${v.detail}`)
      }"></a>`;
    }).join("");
  return `<div class="overview" aria-label="entries over time">` +
    `<div class="track-name">SDK → CLI</div><div class="track s2c">${track("s2c")}</div>` +
    `<div class="track-name">CLI → SDK</div><div class="track c2s">${track("c2s")}</div>` +
    `<div class="track-name"></div><div class="axis"><span>0 ms</span><span>${
      num(model.span)
    } ms</span></div></div>`;
}

function diffCellHtml(tape: Tape, model: TimelineModel, index: number, side: "a" | "b"): string {
  if (index < 0) return `<div class="dcell ${side} none"></div>`;
  const view = model.entries[index];
  const entry = tape.entries[index];
  const dir = entry.dir === "stderr" ? "stderr" : entry.dir === "sdk->cli" ? "→" : "←";
  const err = view.marks.some((m) => m.level === "error") ? " has-error" : "";
  return `<div class="dcell ${side} l-${view.lane}${err}"><span class="ref">${
    escapeHtml(refOf(entry, index))
  }</span><span class="t">${num(entry.t)}</span><span class="dir">${dir}</span>` +
    `<span class="label">${escapeHtml(view.label)}</span> <span class="detail">${
      escapeHtml(view.detail)
    }</span> <span class="preview">${escapeHtml(view.preview)}</span></div>`;
}

const DIFF_SIGN: Record<DiffRow["mark"], [string, string]> = {
  same: ["=", "identical"],
  ids: ["≈", "the same but for ids and times"],
  diff: ["≠", "different"],
  left: ["−", "only in the first tape"],
  right: ["+", "only in the second tape"],
};

/** The diff view's aligned rows. */
export function diffRowsHtml(
  tapes: [Tape, Tape],
  models: [TimelineModel, TimelineModel],
  rows: DiffRow[],
): string {
  return rows.map((row, d) => {
    const [sign, title] = DIFF_SIGN[row.mark];
    const aid = row.a >= 0 ? ` data-aid="${escapeHtml(models[0].entries[row.a].id)}"` : "";
    return `<div class="drow ${row.mark}" id="diff-${d}" data-d="${d}" data-a="${row.a}" data-b="${row.b}"${aid} role="option" aria-selected="false">${
      diffCellHtml(tapes[0], models[0], row.a, "a")
    }<div class="dmark" title="${title}">${sign}</div>${
      diffCellHtml(tapes[1], models[1], row.b, "b")
    }</div>`;
  }).join("\n");
}
