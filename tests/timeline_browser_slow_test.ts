// The timeline page in a real headless Chromium, driven over the Chrome DevTools Protocol
// (a WebSocket from Deno; no puppeteer): what it shows, the keys, the JSON panel, the diff
// view, a screenshot, and tape text that tries to inject HTML.
//
// Needs Debian's `chromium` (`apt-get install -y chromium`); skipped without it, except in CI
// (`CI=true`), where `.ci/run` installs it and a missing browser fails the test.

import assert from "node:assert/strict";
import { type Tape, timelineHtml } from "../cassette.ts";
import { loadTape } from "../src/cassette/load_tape.ts";
import { fromFileUrl, toFileUrl } from "./_paths.ts";

const REAL = new URL("./fixtures/real/", import.meta.url);
const IN_CI = Deno.env.get("CI") === "true";
const CHROMIUM = findChromium();
if (!CHROMIUM && !IN_CI) {
  console.warn(
    "timeline_browser_slow_test: skipped: no chromium found (install it with `apt-get install -y chromium`, or set CHROMIUM_PATH)",
  );
}

function findChromium(): string | undefined {
  const candidates = [
    Deno.env.get("CHROMIUM_PATH"),
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
  ];
  for (const path of candidates) {
    if (!path) continue;
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // not there
    }
  }
  return undefined;
}

/** A real tape from the fixtures. */
function readTape(name: string): Promise<Tape> {
  return loadTape(fromFileUrl(new URL(name, REAL)));
}

type Json = Record<string, unknown>;
interface Pending {
  resolve(value: Json): void;
  reject(error: Error): void;
}

/** A Chrome DevTools Protocol connection (flat sessions). */
class Cdp {
  #ws: WebSocket;
  #id = 0;
  #pending = new Map<number, Pending>();
  #waiters: Array<{ method: string; resolve(params: Json): void; reject(error: Error): void }> = [];
  #closed: Promise<void>;
  /** Exceptions the page threw. */
  exceptions: string[] = [];

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    this.#closed = new Promise((resolve) => ws.addEventListener("close", () => resolve()));
    ws.addEventListener("close", () => {
      for (const p of this.#pending.values()) p.reject(new Error("CDP connection closed"));
      for (const w of this.#waiters) {
        w.reject(new Error(`CDP connection closed before ${w.method}`));
      }
      this.#pending.clear();
      this.#waiters = [];
    });
    ws.addEventListener("message", (ev) => {
      const msg = JSON.parse(String(ev.data));
      if (typeof msg.id === "number") {
        const p = this.#pending.get(msg.id);
        this.#pending.delete(msg.id);
        if (msg.error) p?.reject(new Error(`CDP error: ${JSON.stringify(msg.error)}`));
        else p?.resolve(msg.result);
        return;
      }
      if (msg.method === "Runtime.exceptionThrown") {
        this.exceptions.push(JSON.stringify(msg.params.exceptionDetails).slice(0, 500));
      }
      const at = this.#waiters.findIndex((w) => w.method === msg.method);
      if (at >= 0) this.#waiters.splice(at, 1)[0].resolve(msg.params);
    });
  }

  static open(url: string): Promise<Cdp> {
    const ws = new WebSocket(url);
    return new Promise((resolve, reject) => {
      ws.addEventListener("open", () => resolve(new Cdp(ws)), { once: true });
      ws.addEventListener("error", () => reject(new Error(`cannot connect to ${url}`)), {
        once: true,
      });
    });
  }

  send(method: string, params: Json = {}, sessionId?: string): Promise<Json> {
    const id = ++this.#id;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  event(method: string): Promise<Json> {
    return new Promise((resolve, reject) => this.#waiters.push({ method, resolve, reject }));
  }

  async close(): Promise<void> {
    if (this.#ws.readyState !== WebSocket.CLOSED) this.#ws.close();
    await this.#closed;
  }
}

/** A page in the browser: navigate, evaluate, press keys. */
class Page {
  constructor(readonly cdp: Cdp, readonly session: string) {}

  send(method: string, params: Json = {}): Promise<Json> {
    return this.cdp.send(method, params, this.session);
  }

  async open(html: string, file: string): Promise<void> {
    await Deno.writeTextFile(file, html);
    const loaded = this.cdp.event("Page.loadEventFired");
    await this.send("Page.navigate", { url: toFileUrl(file) });
    await loaded;
  }

  async eval<T>(expression: string): Promise<T> {
    const reply = await this.send("Runtime.evaluate", { expression, returnByValue: true });
    if (reply.exceptionDetails) {
      throw new Error(`page threw on ${expression}: ${JSON.stringify(reply.exceptionDetails)}`);
    }
    return (reply.result as { value: T }).value;
  }

  async press(key: string): Promise<void> {
    const keys: Record<string, [string, number, string?]> = {
      j: ["KeyJ", 74, "j"],
      k: ["KeyK", 75, "k"],
      n: ["KeyN", 78, "n"],
      p: ["KeyP", 80, "p"],
      d: ["KeyD", 68, "d"],
      ArrowDown: ["ArrowDown", 40],
      ArrowUp: ["ArrowUp", 38],
      Enter: ["Enter", 13, "\r"],
    };
    const [code, vk, text] = keys[key];
    const base = { key, code, windowsVirtualKeyCode: vk, nativeVirtualKeyCode: vk };
    await this.send("Input.dispatchKeyEvent", {
      type: "keyDown",
      ...base,
      ...(text ? { text } : {}),
    });
    await this.send("Input.dispatchKeyEvent", { type: "keyUp", ...base });
  }

  /** The selected row's id and the JSON panel's text. */
  selection(): Promise<{ id: string; json: string; head: string }> {
    return this.eval(`({
      id: document.querySelector("#rows .sel")?.id ?? "",
      json: document.getElementById("json").textContent,
      head: document.getElementById("dhead").textContent,
    })`);
  }
}

/** Starts chromium, reads its DevTools address from stderr. */
async function launch(dir: string) {
  const child = new Deno.Command(CHROMIUM!, {
    args: [
      "--headless",
      "--remote-debugging-port=0",
      `--user-data-dir=${dir}/profile`,
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-extensions",
      "--disable-background-networking",
      "--no-first-run",
      "--no-default-browser-check",
      "--window-size=1280,800",
      "about:blank",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  // a browser that stops answering ends the test instead of hanging it
  const guard = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let url: string | undefined;
  while (url === undefined) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += value;
    url = /DevTools listening on (ws:\/\/\S+)/.exec(seen)?.[1];
  }
  // keep reading stderr so chromium never blocks on a full pipe
  const drained = (async () => {
    while (!(await reader.read()).done);
  })();
  return { child, url, seen, drained, guard };
}

Deno.test({
  name: "timeline page in headless Chromium: lanes, links, folds, keys, JSON, diff, screenshot",
  ignore: !CHROMIUM && !IN_CI,
  async fn(t) {
    if (!CHROMIUM) {
      throw new Error(
        "CI=true but no chromium: .ci/run must install it (apt-get install -y chromium)",
      );
    }
    const dir = await Deno.makeTempDir({ prefix: "timeline_browser_" });
    let browser: Awaited<ReturnType<typeof launch>> | undefined;
    let cdp: Cdp | undefined;
    try {
      browser = await launch(dir);
      assert.ok(browser.url, `chromium printed no DevTools address; its stderr:\n${browser.seen}`);
      cdp = await Cdp.open(browser.url);
      const { targetId } = await cdp.send("Target.createTarget", { url: "about:blank" });
      const { sessionId } = await cdp.send("Target.attachToTarget", { targetId, flatten: true });
      const page = new Page(cdp, sessionId as string);
      await page.send("Page.enable");
      await page.send("Runtime.enable");
      await page.send("Emulation.setDeviceMetricsOverride", {
        width: 1280,
        height: 800,
        deviceScaleFactor: 1,
        mobile: false,
      });
      await page.send("Emulation.setFocusEmulationEnabled", { enabled: true });

      await t.step("interrupt tape: lanes, folded stream events, links, marks", async () => {
        const tape = await readTape("cp_interrupt_partial.jsonl");
        await page.open(timelineHtml(tape), `${dir}/interrupt.html`);
        const shown = await page.eval<Json>(`({
          entries: document.querySelectorAll("#rows .row.entry").length,
          s2c: document.querySelectorAll("#rows .row.entry.l-s2c").length,
          c2s: document.querySelectorAll("#rows .row.entry.l-c2s").length,
          visible: [...document.querySelectorAll("#rows .row.entry, #rows .row.group")]
            .filter((r) => r.offsetParent !== null).length,
          counts: [...document.querySelectorAll("#rows .row.group .count")].map((c) => c.textContent),
          chip: document.querySelector("#line-14 a.chip.control")?.getAttribute("href"),
          back: document.querySelector("#line-15 a.chip.control")?.getAttribute("href"),
          paths: [...document.querySelectorAll("svg.links path.control")]
            .map((p) => p.dataset.from + ">" + p.dataset.to),
          errorRow: document.querySelector("#line-21").classList.contains("has-error"),
          errorMark: document.querySelector("#line-21 .mark.error")?.textContent,
          errors: document.getElementById("errors")?.textContent,
          ticks: document.querySelectorAll(".overview .tick").length,
          title: document.title,
        })`);
        assert.equal(shown.entries, tape.entries.length);
        assert.equal(shown.s2c, 3); // initialize, the prompt, interrupt
        assert.equal(shown.c2s, tape.entries.length - 3);
        assert.deepEqual(shown.counts, ["×6", "×3"]);
        assert.equal(shown.visible, tape.entries.length - 6 - 3 + 2);
        assert.equal(shown.chip, "#line-15");
        assert.equal(shown.back, "#line-14");
        assert.deepEqual(shown.paths, ["0>2", "12>13"]); // entry indexes: lines 2>4 and 14>15
        assert.equal(shown.errorRow, true);
        assert.match(String(shown.errorMark), /result is_error \(aborted_streaming\)/);
        assert.equal(shown.errors, "1 error");
        assert.equal(shown.ticks, tape.entries.length);
        assert.equal(shown.title, "cp_interrupt_partial");
      });

      await t.step("clicking a request highlights its answer, and back", async () => {
        await page.eval(`document.querySelector("#line-14 .card").click()`);
        let state = await page.eval<Json>(`({
          sel: document.querySelector("#rows .sel")?.id,
          partners: [...document.querySelectorAll("#rows .partner")].map((r) => r.id),
          hot: document.querySelectorAll("svg.links path.hot").length,
        })`);
        assert.deepEqual(state, { sel: "line-14", partners: ["line-15"], hot: 1 });
        await page.eval(`document.querySelector("#line-14 a.chip").click()`);
        state = await page.eval<Json>(`({
          sel: document.querySelector("#rows .sel")?.id,
          partners: [...document.querySelectorAll("#rows .partner")].map((r) => r.id),
        })`);
        assert.deepEqual(state, { sel: "line-15", partners: ["line-14"] });
      });

      await t.step("keys step through the entries; Enter expands a folded run", async () => {
        const tape = await readTape("cp_interrupt_partial.jsonl");
        await page.open(timelineHtml(tape), `${dir}/keys.html`);
        const frameAt = (line: number) => tape.entries.find((e) => e.line === line)!;
        await page.press("j");
        let sel = await page.selection();
        assert.equal(sel.id, "line-2");
        assert.deepEqual(JSON.parse(sel.json), (frameAt(2) as { frame: unknown }).frame);
        assert.match(sel.head, /^line 2 · t 8 ms · sdk->cli/);
        await page.press("ArrowDown");
        assert.equal((await page.selection()).id, "line-3");
        await page.press("k");
        assert.equal((await page.selection()).id, "line-2");
        for (let i = 0; i < 6; i++) await page.press("j");
        sel = await page.selection();
        assert.equal(sel.id, "group-0");
        assert.equal(JSON.parse(sel.json).length, 6);
        assert.equal(
          await page.eval(`document.querySelector('.members[data-g="0"]').hidden`),
          true,
        );
        await page.press("Enter");
        assert.equal(
          await page.eval(`document.querySelector('.members[data-g="0"]').hidden`),
          false,
        );
        await page.press("j");
        sel = await page.selection();
        assert.equal(sel.id, "line-8");
        assert.equal(JSON.parse(sel.json).event.type, "message_start");
        await page.press("Enter"); // on a member: folds the run back, selects it
        assert.equal((await page.selection()).id, "group-0");
        assert.equal(
          await page.eval(`document.querySelector('.members[data-g="0"]').hidden`),
          true,
        );
        await page.press("n"); // the next error
        sel = await page.selection();
        assert.equal(sel.id, "line-21");
        assert.equal(JSON.parse(sel.json).subtype, "error_during_execution");
        await page.press("j");
        await page.press("k");
        await page.press("k");
        assert.equal((await page.selection()).id, "group-1");
      });

      await t.step("a screenshot is a real PNG", async () => {
        const { data } = await page.send("Page.captureScreenshot", { format: "png" });
        const png = Uint8Array.from(atob(String(data)), (c) => c.charCodeAt(0));
        assert.deepEqual([...png.slice(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
        const view = new DataView(png.buffer);
        assert.equal(String.fromCharCode(...png.slice(12, 16)), "IHDR");
        assert.deepEqual([view.getUint32(16), view.getUint32(20)], [1280, 800]);
        assert.ok(
          png.length > 20_000,
          `a screenshot of ${png.length} bytes is too small to show the page`,
        );
      });

      await t.step("errors: API retries, a synthetic API error, a non-zero exit", async () => {
        const tape = await readTape("failures/overloaded.jsonl");
        tape.ending = { t: 2823, code: 1, signal: null };
        tape.complete = true;
        await page.open(timelineHtml(tape), `${dir}/overloaded.html`);
        const retries = await page.eval<string[]>(
          `[...document.querySelectorAll("#rows .k-system.has-error .mark.error")].map((m) => m.textContent)`,
        );
        assert.deepEqual(retries, ["API retry 1/2 (529)", "API retry 2/2 (529)"]);
        assert.match(
          await page.eval<string>(`document.getElementById("ending").textContent`),
          /process exited with code 1.*exit code 1/,
        );
        assert.equal(
          await page.eval(`document.getElementById("ending").classList.contains("has-error")`),
          true,
        );
        const api = await readTape("api_error.jsonl");
        await page.open(timelineHtml(api), `${dir}/api_error.html`);
        const marks = await page.eval<string[]>(
          `[...document.querySelectorAll("#rows .mark.error")].map((m) => m.closest(".row").id + " " + m.textContent)`,
        );
        assert.deepEqual(marks, ["line-7 API error 400", "line-8 result is_error (api_error)"]);
      });

      await t.step(
        "hooks and a tool: control pairs and the tool_use → tool_result link",
        async () => {
          const tape = await readTape("cp_hooks_all.jsonl");
          await page.open(timelineHtml(tape), `${dir}/hooks.html`);
          const shown = await page.eval<Json>(`({
          control: document.querySelectorAll("svg.links path.control").length,
          tool: document.querySelector("#line-9 a.chip.tool")?.getAttribute("href"),
          back: document.querySelector("#line-16 a.chip.tool")?.getAttribute("href"),
          toolPaths: document.querySelectorAll("svg.links path.tool").length,
        })`);
          assert.deepEqual(shown, { control: 5, tool: "#line-16", back: "#line-9", toolPaths: 1 });
          await page.eval(`location.hash = "#line-11"`);
          await page.press("p");
          assert.equal((await page.selection()).id, "line-12");
        },
      );

      await t.step("tape text that looks like HTML renders as text", async () => {
        const evil = {
          script: "<script>window.__pwned = 1</script>",
          img: '"><img src=x onerror="window.__pwned = 2">',
          close: "</script><script>window.__pwned = 3</script><!--",
        };
        const tape: Tape = {
          header: { version: 1, scenario: evil.img, args: [evil.script] },
          entries: [
            {
              t: 0,
              dir: "sdk->cli",
              line: 2,
              frame: { type: "user", message: { role: "user", content: evil.script } },
            },
            { t: 5, dir: "cli->sdk", line: 3, raw: evil.img },
            { t: 6, dir: "stderr", line: 4, text: evil.close },
            {
              t: 9,
              dir: "cli->sdk",
              line: 5,
              frame: { type: evil.img, [evil.close]: evil.script },
            },
          ],
        };
        const html = timelineHtml(tape, { title: evil.close, compare: tape });
        await page.open(html, `${dir}/evil.html`);
        const state = await page.eval<Json>(`({
          pwned: window.__pwned ?? null,
          scripts: document.scripts.length,
          imgs: document.querySelectorAll("img").length,
          title: document.title,
          prompt: document.getElementById("line-2").textContent,
          raw: document.getElementById("line-3").textContent,
          stderr: document.getElementById("line-4").textContent,
          typed: document.getElementById("line-5").textContent,
          view: document.body.className,
        })`);
        assert.equal(state.pwned, null);
        assert.equal(state.scripts, 2);
        assert.equal(state.imgs, 0);
        assert.equal(state.title, evil.close);
        assert.ok(String(state.prompt).includes(evil.script), String(state.prompt));
        assert.ok(String(state.raw).includes(evil.img), String(state.raw));
        assert.ok(String(state.stderr).includes(evil.close.slice(0, 40)), String(state.stderr));
        assert.ok(String(state.typed).includes(evil.img), String(state.typed));
        assert.equal(state.view, "view-diff");
        await page.press("j"); // the diff view: the first pair, side by side
        const pair = await page.eval<string>(`document.getElementById("json-diff").textContent`);
        assert.ok(pair.includes(JSON.stringify(evil.script).slice(1, -1)), pair);
        await page.press("d");
        await page.press("j");
        await page.press("j");
        await page.press("j");
        await page.press("j");
        const sel = await page.selection();
        assert.equal(sel.id, "line-5");
        assert.deepEqual(JSON.parse(sel.json), (tape.entries[3] as { frame: unknown }).frame);
        await page.press("k");
        assert.equal((await page.selection()).json, evil.close);
        assert.equal(await page.eval(`window.__pwned ?? null`), null);
      });

      await t.step(
        "compare: aligned pairs, differing frames marked, JSON side by side",
        async () => {
          const a = await readTape("cp_interrupt_partial.jsonl");
          const b = await readTape("partial_messages.jsonl");
          await page.open(timelineHtml(a, { compare: b }), `${dir}/compare.html`);
          const shown = await page.eval<Json>(`({
          rows: document.querySelectorAll("#diff-rows .drow").length,
          diff: document.querySelectorAll("#diff-rows .drow.diff").length,
          left: document.querySelectorAll("#diff-rows .drow.left").length,
          right: document.querySelectorAll("#diff-rows .drow.right").length,
          resultPair: (() => {
            const r = document.querySelector('#diff-rows .drow[data-aid="line-21"]');
            return r && [r.className, r.querySelector(".dcell.b")?.textContent];
          })(),
        })`);
          assert.ok(Number(shown.diff) >= 5, `diff rows: ${shown.diff}`);
          assert.equal(Number(shown.rows), a.entries.length + Number(shown.right));
          assert.equal(Number(shown.rows), b.entries.length + Number(shown.left));
          const [cls, right] = shown.resultPair as [string, string];
          assert.match(cls, /\bdiff\b/);
          assert.match(right, /result success/);
          await page.eval(`location.hash = "#line-21"`);
          const panel = await page.eval<Json>(`({
          head: document.getElementById("diff-dhead").textContent,
          changed: [...document.querySelectorAll("#json-diff .da.chg")].map((s) => s.textContent),
        })`);
          assert.match(String(panel.head), /^A: line 21 .* B: line 21 /);
          assert.ok(
            (panel.changed as string[]).some((l) =>
              l.includes('"subtype": "error_during_execution"')
            ),
            JSON.stringify(panel.changed),
          );
        },
      );

      assert.deepEqual(cdp.exceptions, [], "the page threw");
    } finally {
      await cdp?.close();
      if (browser) {
        clearTimeout(browser.guard);
        try {
          browser.child.kill("SIGKILL");
        } catch {
          // already gone
        }
        await browser.child.status;
        await browser.drained;
      }
      await Deno.remove(dir, { recursive: true });
    }
  },
});
