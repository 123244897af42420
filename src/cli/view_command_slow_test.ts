// The timeline of a tape too big for one page (20 MB written, viewed and read back: slow, so in
// the slow tier, `deno task test:slow`).
import assert from "node:assert/strict";
import { viewCommand } from "./view_command.ts";

Deno.test("view: a tape over 16 MB is written in linked parts, the ending on the last", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const text = "token ".repeat(100);
    const lines = ['{"format":"claude-mock-tape","version":1,"scenario":"big"}'];
    for (let i = 0; lines.length * 700 < 20 * 1024 * 1024; i++) {
      lines.push(JSON.stringify({
        t: i,
        dir: "cli->sdk",
        frame: {
          type: "stream_event",
          event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
        },
      }));
    }
    lines.push(`{"t":${lines.length},"end":{"code":3,"signal":null}}`);
    await Deno.writeTextFile(`${dir}/big.jsonl`, lines.join("\n") + "\n");
    let printed = "";
    const code = await viewCommand(["big.jsonl"], {
      argv: ["view", "big.jsonl"],
      env: {},
      cwd: dir,
      stdin: new Blob([]).stream(),
      stdinIsTerminal: true,
      stdoutIsTerminal: false,
      stdout: new WritableStream({ write: (c) => void (printed += new TextDecoder().decode(c)) }),
      stderr: new WritableStream(),
    });
    assert.equal(code, 0);
    const pages = printed.trim().split("\n");
    assert.deepEqual(pages, [`${dir}/big.html`, `${dir}/big.part2.html`]);
    const first = await Deno.readTextFile(pages[0]);
    const second = await Deno.readTextFile(pages[1]);
    assert.match(
      first,
      /Part 1 of 2 \(lines 2–\d+\) · <a href="big\.part2\.html">next part →<\/a>/,
    );
    assert.match(
      second,
      /Part 2 of 2 \(lines \d+–\d+\) · <a href="big\.html">← previous part<\/a>/,
    );
    assert.ok(first.length < 40 * 1024 * 1024 && second.length < 40 * 1024 * 1024);
    assert.ok(
      second.includes("exit 3") || second.includes('"code":3'),
      "the ending on the last part",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
