import assert from "node:assert/strict";
import { loadTape } from "./load_tape.ts";
import { TapeWriter } from "./tape_writer.ts";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "tape-writer-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("TapeWriter: each entry is on disk when write resolves; close renames atomically", () =>
  withDir(async (dir) => {
    const path = `${dir}/deep/er/run.jsonl`;
    const writer = new TapeWriter(path, {
      header: { format: "ignored", version: 9, scenario: "s", args: ["-p"] },
    });
    assert.equal(writer.partialPath, `${path}.partial`);
    assert.equal(await exists(writer.partialPath), false, "nothing before the first write");
    await writer.write({ t: 0, dir: "sdk->cli", frame: { type: "user" }, line: 99 });
    assert.equal(
      await Deno.readTextFile(writer.partialPath),
      '{"format":"claude-mock-tape","version":1,"scenario":"s","args":["-p"]}\n' +
        '{"t":0,"dir":"sdk->cli","frame":{"type":"user"}}\n',
    );
    assert.equal(await exists(path), false, "the tape is not in place before close");
    await writer.write({ t: 2, dir: "stderr", text: "oops\n" });
    await writer.write({ t: 3, dir: "cli->sdk", raw: "not json" });
    const cut = await loadTape(writer.partialPath);
    assert.equal(cut.complete, false, "a partial file is a cut recording");
    assert.equal(cut.entries.length, 3);
    assert.equal(writer.lines, 4);
    await writer.close({ t: 5, code: 0, signal: null });
    assert.equal(await exists(writer.partialPath), false);
    const tape = await loadTape(path);
    assert.equal(tape.complete, true);
    assert.deepEqual(tape.ending, { t: 5, code: 0, signal: null });
    assert.deepEqual(tape.entries.map((e) => e.line), [2, 3, 4]);
    assert.equal(writer.close(), writer.close(), "close again: the same promise");
    await assert.rejects(writer.write({ t: 6, dir: "cli->sdk", raw: "late" }), TypeError);
  }));

Deno.test("TapeWriter: unawaited writes keep their order; close waits for them", () =>
  withDir(async (dir) => {
    const writer = new TapeWriter(`${dir}/t.jsonl`);
    for (let i = 0; i < 200; i++) writer.write({ t: i, dir: "cli->sdk", frame: { type: "n", i } });
    await writer.close();
    const tape = await loadTape(`${dir}/t.jsonl`);
    assert.deepEqual(tape.entries.map((e) => "frame" in e && e.frame.i), [...Array(200).keys()]);
    assert.equal(tape.complete, false, "closed without an ending");
  }));

Deno.test("TapeWriter: concurrent writers to different paths never mix", () =>
  withDir(async (dir) => {
    const writers = ["a", "b", "c"].map((name) =>
      new TapeWriter(`${dir}/${name}.jsonl`, { header: { scenario: name } })
    );
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 100; i++) {
      for (const w of writers) {
        writes.push(
          w.write({ t: i, dir: "cli->sdk", frame: { type: w.header.scenario as string, i } }),
        );
      }
    }
    await Promise.all(writes);
    await Promise.all(writers.map((w, i) => w.close({ t: 100, code: i, signal: null })));
    for (const [i, name] of ["a", "b", "c"].entries()) {
      const tape = await loadTape(`${dir}/${name}.jsonl`);
      assert.equal(tape.header.scenario, name);
      assert.equal(tape.entries.length, 100);
      assert.ok(
        tape.entries.every((e, n) => "frame" in e && e.frame.type === name && e.frame.i === n),
      );
      assert.equal(tape.ending?.code, i);
    }
  }));

Deno.test("TapeWriter: a second writer of the same path fails; the first is untouched", () =>
  withDir(async (dir) => {
    const first = new TapeWriter(`${dir}/t.jsonl`);
    await first.open();
    const second = new TapeWriter(`${dir}/t.jsonl`);
    await assert.rejects(
      second.write({ t: 0, dir: "cli->sdk", raw: "x" }),
      new Error(
        `Cannot write tape ${dir}/t.jsonl: ${dir}/t.jsonl.partial already exists (another recording to this path is running, or an earlier one was cut short: remove it)`,
      ),
    );
    await assert.rejects(second.close(), /already exists/);
    await first.write({ t: 0, dir: "cli->sdk", raw: "mine" });
    await first.close({ t: 1, code: 0, signal: null });
    const tape = await loadTape(`${dir}/t.jsonl`);
    assert.deepEqual(tape.entries.map((e) => "raw" in e && e.raw), ["mine"]);
  }));

Deno.test("TapeWriter: a file where its folder should be is named as such, not as another recording", () =>
  withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/afile`, "");
    const writer = new TapeWriter(`${dir}/afile/t.jsonl`);
    await assert.rejects(
      writer.write({ t: 0, dir: "cli->sdk", raw: "x" }),
      (e: unknown) =>
        e instanceof Error &&
        e.message.startsWith(
          `Cannot write tape ${dir}/afile/t.jsonl: cannot make its folder ${dir}/afile (`,
        ) && !e.message.includes("another recording"),
    );
  }));

Deno.test("TapeWriter: a finished tape replaces an older one at the path", () =>
  withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/t.jsonl`, "old\n");
    const writer = new TapeWriter(`${dir}/t.jsonl`);
    await writer.close({ t: 0, code: 0, signal: null });
    assert.equal((await loadTape(`${dir}/t.jsonl`)).ending?.code, 0);
    assert.deepEqual([writer.savedTo, writer.keptFailed], [`${dir}/t.jsonl`, undefined]);
    // a run that exits with the code it was expected to (recording an API error) replaces it too
    const error = new TapeWriter(`${dir}/t.jsonl`, { expectedExit: 1 });
    await error.close({ t: 0, code: 1, signal: null });
    assert.equal((await loadTape(`${dir}/t.jsonl`)).ending?.code, 1);
  }));

Deno.test("TapeWriter: a failed run never replaces a tape there; it is kept beside it, named so", () =>
  withDir(async (dir) => {
    const path = `${dir}/good.jsonl`;
    const failures: Array<[Parameters<TapeWriter["close"]>[0], string]> = [
      [{ t: 5, code: 1, signal: null }, "the CLI exited with code 1"],
      [{ t: 5, code: null, signal: "SIGKILL" }, "a signal (SIGKILL) ended the CLI"],
      [undefined, "the CLI never exited (it crashed, did not start or was cut short)"],
    ];
    for (const [ending, why] of failures) {
      await Deno.writeTextFile(path, "the good tape\n");
      const writer = new TapeWriter(path);
      await writer.write({ t: 1, dir: "cli->sdk", frame: { type: "system", subtype: "init" } });
      await writer.close(ending);
      assert.equal(await Deno.readTextFile(path), "the good tape\n", why);
      assert.equal(writer.failedPath, `${dir}/good.failed.jsonl`);
      assert.deepEqual([writer.savedTo, writer.keptFailed], [writer.failedPath, why]);
      const failed = await loadTape(writer.failedPath);
      assert.equal(failed.entries.length, 1, "the failed recording is kept whole");
      assert.deepEqual(failed.ending, ending);
      assert.equal(await exists(`${path}.partial`), false);
    }
    // with no tape there, a failed run is the only record of it: it goes to the path
    await Deno.remove(path);
    await Deno.remove(`${dir}/good.failed.jsonl`);
    const first = new TapeWriter(path);
    await first.close({ t: 0, code: 1, signal: null });
    assert.deepEqual([first.savedTo, first.keptFailed], [path, undefined]);
    assert.equal((await loadTape(path)).ending?.code, 1);
    assert.equal(new TapeWriter(`${dir}/x.tape`).failedPath, `${dir}/x.tape.failed`);
    assert.throws(() => new TapeWriter(path, { expectedExit: 256 }), RangeError);
    assert.throws(() => new TapeWriter(path, { expectedExit: "1" as never }), TypeError);
  }));

Deno.test("TapeWriter: bad entries and endings are refused, by meaning", () =>
  withDir(async (dir) => {
    const writer = new TapeWriter(`${dir}/t.jsonl`);
    const bad = (entry: unknown) => writer.write(entry as Parameters<TapeWriter["write"]>[0]);
    await assert.rejects(bad({ t: -1, dir: "cli->sdk", raw: "" }), RangeError);
    await assert.rejects(bad({ t: Infinity, dir: "cli->sdk", raw: "" }), RangeError);
    await assert.rejects(bad({ dir: "cli->sdk", raw: "" }), TypeError);
    await assert.rejects(bad({ t: 0, dir: "up", raw: "" }), /unknown dir "up"/);
    await assert.rejects(bad({ t: 0, dir: "cli->sdk" }), /a frame object or a raw string/);
    await assert.rejects(bad({ t: 0, dir: "stderr" }), /a text string/);
    await assert.rejects(bad(null), TypeError);
    await assert.rejects(writer.close({ t: 0, code: 1.5, signal: null }), TypeError);
    await assert.rejects(writer.close({ t: -2, code: 0, signal: null }), RangeError);
    assert.equal(await exists(writer.partialPath), false, "refused entries open nothing");
    assert.throws(() => new TapeWriter(""), TypeError);
    await writer.close({ t: 0, code: 0, signal: null });
    assert.equal((await loadTape(`${dir}/t.jsonl`)).entries.length, 0);
  }));

Deno.test("TapeWriter: abort removes the partial file", () =>
  withDir(async (dir) => {
    const writer = new TapeWriter(`${dir}/t.jsonl`);
    await writer.write({ t: 0, dir: "cli->sdk", raw: "x" });
    await writer.abort();
    assert.equal(await exists(writer.partialPath), false);
    assert.equal(await exists(writer.path), false);
    assert.equal(writer.closed, true);
    await new TapeWriter(`${dir}/never.jsonl`).abort(); // never opened: nothing to do
  }));

Deno.test("TapeWriter: a folder it cannot create fails with the path", () =>
  withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/file`, "");
    const writer = new TapeWriter(`${dir}/file/t.jsonl`);
    await assert.rejects(
      writer.open(),
      (e: Error) => e.message.startsWith(`Cannot write tape ${dir}/file/t.jsonl`),
    );
    await assert.rejects(writer.close(), /Cannot write tape/);
  }));
