/**
 * The timeline page's inline stylesheet and script (no network, no external fonts). The
 * script reads the tape from the page's `application/json` element and writes tape text
 * only through `textContent`, never as HTML. Internal to `timelineHtml`.
 *
 * @module
 */

/** The page's stylesheet. */
export const TIMELINE_CSS: string = String.raw`
:root{--s2c:#2563eb;--c2s:#059669;--err:#dc2626;--warn:#d97706;
--bg:#fff;--fg:#111827;--mute:#6b7280;--line:#e5e7eb;--sel:#fde68a;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace}
*{box-sizing:border-box}
html,body{margin:0;height:100%}
body{display:flex;flex-direction:column;font:13px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header{flex:none;padding:6px 12px;border-bottom:1px solid var(--line);max-height:40vh;overflow:auto}
h1{font-size:16px;margin:0 0 4px}
.meta{margin:2px 0;display:flex;flex-wrap:wrap;gap:4px 12px;align-items:baseline}
.meta .side{font-size:14px}
.meta dl{display:flex;flex-wrap:wrap;gap:2px 14px;margin:0}
.meta .kv{display:flex;gap:4px;align-items:baseline;max-width:100%}
.meta dt{color:var(--mute)}
.meta dd{margin:0;font-family:var(--mono);font-size:12px;overflow-wrap:anywhere}
.meta details pre{margin:0;font-size:11px}
.badges{display:flex;gap:4px}
.badge{border:1px solid var(--line);border-radius:9px;padding:0 7px;font-size:12px;background:#f9fafb}
.badge.ok{border-color:#86efac;background:#f0fdf4}
.badge.warn{border-color:#fcd34d;background:#fffbeb}
.badge.error{border-color:#fca5a5;background:#fef2f2;color:var(--err)}
.keys,.diffsum{margin:2px 0;color:var(--mute);font-size:12px}
.tabs button{font:inherit;margin-right:4px;padding:1px 10px;border:1px solid var(--line);border-radius:4px;background:#f9fafb;cursor:pointer}
body.view-timeline .tabs [data-view=timeline],body.view-diff .tabs [data-view=diff]{background:var(--fg);color:#fff}
.pane{flex:1;min-height:0;display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr)}
body.view-timeline #diff-pane,body.view-diff #timeline-pane{display:none}
.list{overflow:auto;min-height:0}
.panel{overflow:auto;min-height:0;border-left:1px solid var(--line);padding:6px 10px;background:#fafafa}
.dhead{font-weight:600;margin-bottom:4px;overflow-wrap:anywhere}
#json{margin:0;font:12px/1.35 var(--mono);white-space:pre-wrap;overflow-wrap:anywhere}
.sticky{position:sticky;top:0;z-index:3;background:var(--bg)}
.overview{display:grid;grid-template-columns:80px 1fr;gap:2px 6px;padding:6px 12px 4px;border-bottom:1px solid var(--line)}
.track-name{font-size:11px;color:var(--mute);text-align:right}
.track{position:relative;height:14px;background:#f3f4f6;border-radius:3px}
.tick{position:absolute;top:2px;width:3px;height:10px;margin-left:-1px;border-radius:1px}
.track.s2c .tick{background:var(--s2c)}
.track.c2s .tick{background:var(--c2s)}
.tick.error{background:var(--err)!important;top:0;height:14px}
.tick.sel{outline:2px solid var(--fg)}
.axis{display:flex;justify-content:space-between;font-size:11px;color:var(--mute)}
.lanes-head{display:grid;grid-template-columns:70px minmax(0,1fr) minmax(0,1fr);column-gap:56px;padding:3px 80px 3px 8px;font-weight:600;border-bottom:1px solid var(--line)}
.lanes-head div:nth-child(2){color:var(--s2c)}
.lanes-head div:nth-child(3){color:var(--c2s)}
#rows{position:relative;padding:4px 80px 40px 8px}
svg.links{position:absolute;left:0;top:0;pointer-events:none;z-index:0;overflow:visible}
svg.links path{fill:none;stroke:#9ca3af;stroke-width:1.5;opacity:.7}
svg.links path.control{stroke:#7c3aed}
svg.links path.tool{stroke:#0891b2;stroke-dasharray:4 3}
svg.links path.permission{stroke:#a3a3a3;stroke-dasharray:1 3}
svg.links path.cancel{stroke:var(--warn)}
svg.links path.error{stroke:var(--err)}
svg.links path.hot{stroke-width:3;opacity:1}
.row{scroll-margin-top:96px;scroll-margin-bottom:8px;display:grid;grid-template-columns:70px minmax(0,1fr) minmax(0,1fr);column-gap:56px;margin:2px 0;position:relative;z-index:1}
.time{font:11px/1.2 var(--mono);color:var(--mute);text-align:right;padding-top:3px}
.time .dt{display:block;font-size:10px;color:#9ca3af}
.card{border:1px solid var(--line);border-left:4px solid #d1d5db;border-radius:4px;padding:2px 6px;background:var(--bg);cursor:pointer;overflow:hidden}
.card .head{overflow-wrap:anywhere}
.card .preview{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.l-s2c .card{border-left-color:var(--s2c)}
.l-c2s .card{border-left-color:var(--c2s)}
.k-stderr .card{border-left-color:#6b7280;background:#f9fafb}
.has-warn .card{border-color:#fcd34d;border-left-color:var(--warn);background:#fffbeb}
.has-error .card,.has-error .endcard{border-color:#fca5a5;border-left-color:var(--err);background:#fef2f2}
.row.sel .card,.drow.sel{outline:2px solid var(--fg);outline-offset:1px;background:var(--sel)}
.row.partner .card{outline:2px dashed #7c3aed;outline-offset:1px}
.ref{font:11px var(--mono);color:var(--mute);margin-right:6px}
.label{font-weight:600}
.detail{color:var(--fg)}
.card .detail{font-family:var(--mono);font-size:12px}
.preview{color:var(--mute);font-size:12px}
.count{font:600 12px var(--mono);background:#e5e7eb;border-radius:8px;padding:0 6px}
.fold{font:inherit;border:none;background:none;cursor:pointer;padding:0 4px 0 0}
.members{border-left:2px dotted #9ca3af;margin-left:70px}
.members .row{grid-template-columns:0 minmax(0,1fr) minmax(0,1fr);margin-left:-70px}
.members .time{visibility:hidden}
.marks{margin-left:6px;white-space:nowrap}
.mark{font-size:11px;border-radius:3px;padding:0 4px;margin-right:3px;color:#fff}
.mark.error{background:var(--err)}
.mark.warn{background:var(--warn)}
.chips{margin-left:6px}
.chip{display:inline-block;white-space:nowrap;font:11px var(--mono);border:1px solid #c4b5fd;border-radius:8px;padding:0 5px;margin-right:3px;color:#5b21b6;text-decoration:none;background:#f5f3ff}
.chip.tool,.chip.permission{border-color:#a5f3fc;color:#0e7490;background:#ecfeff}
.chip.error{border-color:#fca5a5;color:var(--err);background:#fef2f2}
.row.gap{color:var(--mute);font-size:11px}
.gapline{grid-column:2/4;text-align:center;border-top:1px dashed var(--line);border-bottom:1px dashed var(--line)}
.row.ending{margin-top:8px}
.endcard{grid-column:2/4;border:1px solid var(--line);border-radius:4px;padding:3px 8px;font-weight:600;text-align:center;background:#f0fdf4}
.has-warn .endcard{background:#fffbeb;border-color:#fcd34d}
.dhead-row{display:grid;grid-template-columns:minmax(0,1fr) 28px minmax(0,1fr);padding:4px 8px;font-weight:600;border-bottom:1px solid var(--line);position:sticky;top:0;background:var(--bg);z-index:2}
#diff-rows{padding:4px 8px 40px}
.drow{scroll-margin-top:32px;display:grid;grid-template-columns:minmax(0,1fr) 28px minmax(0,1fr);margin:1px 0;border-radius:3px;cursor:pointer}
.dcell{padding:1px 6px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;border-left:3px solid transparent}
.dcell.l-s2c{border-left-color:var(--s2c)}
.dcell.l-c2s{border-left-color:var(--c2s)}
.dcell.has-error .label{color:var(--err)}
.dcell .t{font:11px var(--mono);color:var(--mute);margin-right:6px}
.dcell .dir{margin-right:4px;color:var(--mute)}
.dmark{text-align:center;font-weight:700}
.drow.same .dmark{color:#9ca3af}
.drow.ids .dmark{color:#2563eb}
.drow.diff{background:#fef2f2}
.drow.diff .dmark{color:var(--err)}
.drow.left{background:#fff7ed}
.drow.right{background:#f0fdf4}
.jsondiff{font:12px/1.35 var(--mono)}
.jsondiff .dl{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0 8px}
.jsondiff .dl span{white-space:pre-wrap;overflow-wrap:anywhere;min-height:1.35em}
.jsondiff .chg{background:#fef3c7}
.jsondiff .del{background:#fee2e2}
.jsondiff .add{background:#dcfce7}
.jsondiff .pad{background:#f3f4f6}
`;

/** The page's script: selection, keys, folding, links, anchors and the JSON panels. */
export const TIMELINE_SCRIPT: string = String.raw`
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("tape-data").textContent);
  var A = data.a, B = data.b, D = data.diff;
  var body = document.body;
  var rowsEl = document.getElementById("rows");
  var svg = rowsEl.querySelector("svg.links");
  var jsonEl = document.getElementById("json");
  var dhead = document.getElementById("dhead");
  var NS = "http://www.w3.org/2000/svg";
  var each = function (list, f) { Array.prototype.forEach.call(list, f); };
  var partners = {};
  // a request's answer first: "p" goes there
  var rank = { control: 0, cancel: 1, tool: 2, permission: 3 };
  A.links.slice().sort(function (x, y) { return rank[x[2]] - rank[y[2]]; }).forEach(function (l) {
    (partners[l[0]] = partners[l[0]] || []).push(l[1]);
    (partners[l[1]] = partners[l[1]] || []).push(l[0]);
  });
  var current = { timeline: null, diff: null };

  function view() { return body.classList.contains("view-diff") ? "diff" : "timeline"; }
  function entryRow(i) { return rowsEl.querySelector('.row.entry[data-i="' + Number(i) + '"]'); }
  function groupRowOf(members) {
    return rowsEl.querySelector('.row.group[data-g="' + Number(members.getAttribute("data-g")) + '"]');
  }
  function shownRow(i) {
    var r = entryRow(i);
    if (!r) return null;
    var m = r.closest(".members");
    return m && m.hidden ? groupRowOf(m) : r;
  }
  function reveal(i) {
    var r = entryRow(i);
    if (!r) return null;
    var m = r.closest(".members");
    if (m && m.hidden) toggle(groupRowOf(m), true);
    return r;
  }
  function selectable() {
    if (view() === "diff") return Array.prototype.slice.call(document.querySelectorAll("#diff-rows .drow"));
    return Array.prototype.filter.call(rowsEl.querySelectorAll(".row.entry, .row.group"), function (r) {
      var m = r.closest(".members");
      return !m || !m.hidden;
    });
  }
  function pretty(e) {
    if (!e) return "";
    if (e.dir === "stderr") return String(e.text);
    if ("frame" in e) return JSON.stringify(e.frame, null, 2);
    return String(e.raw);
  }
  function where(e, i) {
    return (e.line > 0 ? "line " + e.line : "entry " + i) + " · t " + e.t + " ms · " + e.dir +
      (e.dir === "stderr" ? " (text)" : "frame" in e ? "" : " (raw line, not JSON)");
  }
  function lastIndex(row) {
    if (row.classList.contains("group")) {
      var m = row.getAttribute("data-members").split(" ");
      return Number(m[m.length - 1]);
    }
    return Number(row.getAttribute("data-i"));
  }
  function highlight(i) {
    each(document.querySelectorAll(".partner"), function (el) { el.classList.remove("partner"); });
    each(svg.querySelectorAll("path.hot"), function (p) { p.classList.remove("hot"); });
    each(document.querySelectorAll(".tick.sel"), function (t) { t.classList.remove("sel"); });
    if (i === null) return;
    var row = shownRow(i);
    (partners[i] || []).forEach(function (j) {
      var r = shownRow(j);
      if (r && r !== row) r.classList.add("partner");
    });
    each(svg.querySelectorAll("path"), function (p) {
      if (Number(p.getAttribute("data-from")) === i || Number(p.getAttribute("data-to")) === i) p.classList.add("hot");
    });
    var tick = document.querySelector('.tick[data-to="' + i + '"]');
    if (tick) tick.classList.add("sel");
  }
  function select(row, scroll) {
    if (!row) return;
    var key = row.classList.contains("drow") ? "diff" : "timeline";
    var old = current[key];
    if (old) { old.classList.remove("sel"); old.setAttribute("aria-selected", "false"); }
    current[key] = row;
    row.classList.add("sel");
    row.setAttribute("aria-selected", "true");
    if (scroll !== false) row.scrollIntoView({ block: "nearest" });
    if (key === "diff") return showPair(row);
    if (row.classList.contains("group")) {
      var members = row.getAttribute("data-members").split(" ").map(Number);
      var first = A.entries[members[0]], last = A.entries[members[members.length - 1]];
      dhead.textContent = members.length + " stream_event frames, " + where(first, members[0]) +
        " to t " + last.t + " ms (Enter expands)";
      jsonEl.textContent = JSON.stringify(members.map(function (i) { return A.entries[i].frame; }), null, 2);
      highlight(null);
      return;
    }
    var i = Number(row.getAttribute("data-i"));
    dhead.textContent = where(A.entries[i], i);
    jsonEl.textContent = pretty(A.entries[i]);
    highlight(i);
  }
  function toggle(groupRow, open) {
    var g = Number(groupRow.getAttribute("data-g"));
    var m = rowsEl.querySelector('.members[data-g="' + g + '"]');
    var willOpen = open === undefined ? m.hidden : open;
    m.hidden = !willOpen;
    groupRow.classList.toggle("open", willOpen);
    var b = groupRow.querySelector(".fold");
    b.textContent = willOpen ? "▾" : "▸";
    b.setAttribute("aria-expanded", String(willOpen));
    if (!willOpen && current.timeline && m.contains(current.timeline)) select(groupRow);
    drawLinks();
  }
  function drawLinks() {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (view() !== "timeline") return;
    var base = rowsEl.getBoundingClientRect();
    svg.setAttribute("width", String(rowsEl.scrollWidth));
    svg.setAttribute("height", String(rowsEl.scrollHeight));
    var pt = function (r, right) {
      return { x: (right ? r.right : r.left) - base.left, y: r.top - base.top + Math.min(r.height / 2, 11) };
    };
    A.links.forEach(function (l) {
      var ra = shownRow(l[0]), rb = shownRow(l[1]);
      if (!ra || !rb || ra === rb) return;
      var a = ra.querySelector(".card").getBoundingClientRect();
      var b = rb.querySelector(".card").getBoundingClientRect();
      var leftA = ra.classList.contains("l-s2c"), leftB = rb.classList.contains("l-s2c");
      var d;
      if (leftA !== leftB) {
        var p = pt(a, leftA), q = pt(b, leftB), mx = (p.x + q.x) / 2;
        d = "M" + p.x + " " + p.y + " C" + mx + " " + p.y + " " + mx + " " + q.y + " " + q.x + " " + q.y;
      } else {
        var s = leftA ? -1 : 1, p2 = pt(a, !leftA), q2 = pt(b, !leftA);
        var bulge = s * (16 + Math.min(50, Math.abs(q2.y - p2.y) / 10));
        d = "M" + p2.x + " " + p2.y + " C" + (p2.x + bulge) + " " + p2.y + " " + (q2.x + bulge) + " " +
          q2.y + " " + q2.x + " " + q2.y;
      }
      var path = document.createElementNS(NS, "path");
      path.setAttribute("d", d);
      path.setAttribute("class", "link " + l[2] + (l[3] ? " error" : ""));
      path.setAttribute("data-from", String(l[0]));
      path.setAttribute("data-to", String(l[1]));
      svg.appendChild(path);
    });
    var sel = current.timeline;
    if (sel && sel.classList.contains("entry")) highlight(Number(sel.getAttribute("data-i")));
  }
  function lineDiff(a, b) {
    var n = a.length, m = b.length, ops = [], i, j;
    if ((n + 1) * (m + 1) > 2000000) {
      for (i = 0; i < Math.max(n, m); i++) {
        if (i < n && i < m && a[i] === b[i]) ops.push(["=", a[i], b[i]]);
        else { if (i < n) ops.push(["-", a[i], null]); if (i < m) ops.push(["+", null, b[i]]); }
      }
    } else {
      var w = m + 1, t = new Uint32Array((n + 1) * w);
      for (i = n - 1; i >= 0; i--) for (j = m - 1; j >= 0; j--) {
        t[i * w + j] = a[i] === b[j] ? t[(i + 1) * w + j + 1] + 1 : Math.max(t[(i + 1) * w + j], t[i * w + j + 1]);
      }
      i = 0; j = 0;
      while (i < n || j < m) {
        if (i < n && j < m && a[i] === b[j]) { ops.push(["=", a[i++], b[j++]]); }
        else if (j >= m || (i < n && t[(i + 1) * w + j] >= t[i * w + j + 1])) ops.push(["-", a[i++], null]);
        else ops.push(["+", null, b[j++]]);
      }
    }
    var out = [], dels = [], adds = [];
    var flush = function () {
      for (var k = 0; k < Math.max(dels.length, adds.length); k++) {
        if (k < dels.length && k < adds.length) out.push([dels[k], adds[k], "chg", "chg"]);
        else if (k < dels.length) out.push([dels[k], "", "del", "pad"]);
        else out.push(["", adds[k], "pad", "add"]);
      }
      dels = []; adds = [];
    };
    ops.forEach(function (op) {
      if (op[0] === "=") { flush(); out.push([op[1], op[2], "", ""]); }
      else if (op[0] === "-") dels.push(op[1]);
      else adds.push(op[2]);
    });
    flush();
    return out;
  }
  function showPair(row) {
    var a = Number(row.getAttribute("data-a")), b = Number(row.getAttribute("data-b"));
    var ea = a >= 0 ? A.entries[a] : null, eb = b >= 0 ? B.entries[b] : null;
    document.getElementById("diff-dhead").textContent = "A: " + (ea ? where(ea, a) : "(nothing)") +
      "  ↔  B: " + (eb ? where(eb, b) : "(nothing)");
    var box = document.getElementById("json-diff");
    while (box.firstChild) box.removeChild(box.firstChild);
    lineDiff(ea ? pretty(ea).split("\n") : [], eb ? pretty(eb).split("\n") : []).forEach(function (l) {
      var div = document.createElement("div");
      div.className = "dl";
      for (var s = 0; s < 2; s++) {
        var span = document.createElement("span");
        span.className = (s === 0 ? "da " : "db ") + l[2 + s];
        span.textContent = l[s];
        div.appendChild(span);
      }
      box.appendChild(div);
    });
  }
  function move(step) {
    var rows = selectable();
    if (rows.length === 0) return;
    var at = rows.indexOf(current[view()]);
    var next = at < 0 ? (step > 0 ? 0 : rows.length - 1) : Math.max(0, Math.min(rows.length - 1, at + step));
    select(rows[next]);
  }
  function nextError(step) {
    if (view() === "diff") {
      var rows = selectable(), at = rows.indexOf(current.diff);
      for (var k = at + step; k >= 0 && k < rows.length; k += step) {
        if (!rows[k].classList.contains("same")) return select(rows[k]);
      }
      return;
    }
    var errs = A.errors, here = current.timeline ? lastIndex(current.timeline) : -1;
    if (step < 0 && current.timeline && current.timeline.classList.contains("group")) {
      here = Number(current.timeline.getAttribute("data-members").split(" ")[0]);
    }
    var list = step > 0 ? errs : errs.slice().reverse();
    for (var e = 0; e < list.length; e++) {
      if (step > 0 ? list[e] > here : here < 0 || list[e] < here) return select(reveal(list[e]));
    }
  }
  function setView(v) {
    if (!D) return;
    body.classList.toggle("view-diff", v === "diff");
    body.classList.toggle("view-timeline", v !== "diff");
    drawLinks();
    if (current[v]) current[v].scrollIntoView({ block: "nearest" });
  }
  function fromHash() {
    var id;
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
    if (!id) return;
    if (view() === "diff") {
      var rows = document.querySelectorAll("#diff-rows .drow");
      for (var k = 0; k < rows.length; k++) if (rows[k].getAttribute("data-aid") === id) return select(rows[k]);
    }
    var i = A.ids.indexOf(id);
    if (i >= 0) select(reveal(i));
    else { var el = document.getElementById(id); if (el && el.classList.contains("group")) select(el); }
  }
  document.addEventListener("click", function (ev) {
    var target = ev.target;
    if (!(target instanceof Element)) return;
    var tab = target.closest(".tabs button");
    if (tab) return setView(tab.getAttribute("data-view"));
    var link = target.closest("a[data-to]");
    if (link) { ev.preventDefault(); return select(reveal(link.getAttribute("data-to"))); }
    var fold = target.closest(".fold");
    if (fold) { var g = fold.closest(".row.group"); toggle(g); return select(g, false); }
    var row = target.closest(".row.entry, .row.group, .drow");
    if (row) select(row, false);
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var k = ev.key, sel = current[view()];
    if (k === "j" || k === "ArrowDown") move(1);
    else if (k === "k" || k === "ArrowUp") move(-1);
    else if (k === "Home" || k === "End") {
      var all = selectable();
      if (all.length > 0) select(all[k === "Home" ? 0 : all.length - 1]);
    }
    else if (k === "n") nextError(1);
    else if (k === "N") nextError(-1);
    else if (k === "d" && D) setView(view() === "diff" ? "timeline" : "diff");
    else if (k === "p" && sel && sel.classList.contains("entry")) {
      var ps = partners[Number(sel.getAttribute("data-i"))];
      if (!ps) return;
      select(reveal(ps[0]));
    } else if (k === "Enter" && sel && view() === "timeline") {
      if (sel.classList.contains("group")) toggle(sel);
      else if (sel.classList.contains("member")) toggle(groupRowOf(sel.closest(".members")), false);
      else return;
    } else return;
    ev.preventDefault();
  });
  var pending = 0;
  window.addEventListener("resize", function () {
    if (!pending) pending = requestAnimationFrame(function () { pending = 0; drawLinks(); });
  });
  window.addEventListener("hashchange", fromHash);
  drawLinks();
  fromHash();
})();
`;
