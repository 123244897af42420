// Pins the engine's output bytes: the same scenarios and seeds must give the same bytes as
// the engine did before it was split into parts (digest taken from that engine), whatever
// is optimized (cached answer lines, line templates, the output queue). Re-pinned for
// fidelity round two: num_turns counts user messages, a Read allowed by the mode says "mode".
import assert from "node:assert/strict";
import { ScenarioBuilder, Session } from "../mod.ts";

const user = (c: string) =>
  JSON.stringify({
    type: "user",
    session_id: "",
    message: { role: "user", content: c },
    parent_tool_use_id: null,
  }) + "\n";
const init = JSON.stringify({
  type: "control_request",
  request_id: "r1",
  request: { subtype: "initialize", hooks: null },
}) + "\n";

Deno.test("Session output is byte-identical to the pre-split engine for the same seeds", async () => {
  const out: string[] = [];
  const runs = [
    [0, "instant", []],
    [7, "realistic", ["--include-partial-messages"]],
    [42n, "slow", ["--model", "sonnet"]],
  ] as const;
  for (const [seed, timing, args] of runs) {
    const scenario = new ScenarioBuilder({ seed, timing }).on("hi")
      .respond("Hello there!", { thinking: "hmm" })
      .usesRead("/home/user/project/a.txt", { content: "a\nb\n" }).usesBash("ls", { stdout: "x" })
      .respond("Done.")
      .on("again").respond("Again.").build();
    for (let repeat = 0; repeat < 2; repeat++) {
      const session = new Session(scenario, { args: [...args] });
      const writer = session.writable.getWriter();
      const reading = new Response(session.readable).text();
      await writer.write(init);
      await writer.write(user("hi"));
      await writer.write(user("again"));
      await writer.write(user("nomatch"));
      await writer.close();
      const text = await reading;
      if (repeat === 0) out.push(text);
      else assert.equal(text, out.at(-1), "a second session of the same seed differs");
    }
  }
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(out.join("\u0001"))),
  );
  const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("").slice(0, 32);
  // 104249 before the unmatched error said how many exchanges were used up (" (2 exchanges)", 3 runs)
  assert.equal(out.join("").length, 104291);
  assert.equal(hex, "e3722196cb50dd8ee4c01637b5af68d7");
});
