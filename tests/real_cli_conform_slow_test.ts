// SLOW, REAL BINARY: `claude-mock conform` with the real `claude` of the pinned SDK (resolved
// from the SDK's own location) against the scenario's Messages API. About 4 s.
import assert from "node:assert/strict";
import { conformCommand } from "../src/cli/conform_command.ts";
import type { CliIO } from "../cli.ts";

Deno.test("real CLI: conform runs a case in print mode through the mock and the real binary, identical, with a timeline", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/hello.json`,
      JSON.stringify({
        scenario: "builtin:simple_conversation",
        prompt: "hello",
        duplex: false,
        print: { formats: ["text", "json"] },
      }),
    );
    let out = "";
    const decoder = new TextDecoder();
    const io: CliIO = {
      argv: [],
      env: {},
      cwd: dir,
      stdin: new Blob([]).stream(),
      stdinIsTerminal: false,
      stdoutIsTerminal: false,
      stdout: new WritableStream({ write: (c) => void (out += decoder.decode(c)) }),
      stderr: new WritableStream(),
    };
    const code = await conformCommand([
      "hello.json",
      "--html",
      "report.html",
      "--json",
      "report.json",
    ], io);
    assert.equal(code, 0, out);
    assert.match(out, /^hello: print:text identical · print:json identical$/m);
    assert.match(out, /^1 cases: 1 identical, 0 explained, 0 different, 0 errors/m);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    assert.equal(report.cases[0].modes.length, 2);
    assert.match(
      await Deno.readTextFile(`${dir}/report.html`),
      /report\.pages\/hello\.print-json\.html/,
    );
    assert.match(await Deno.readTextFile(`${dir}/report.pages/hello.print-json.html`), /<html/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
