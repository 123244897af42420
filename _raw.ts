import { MockTransport, ScenarioBuilder, Session } from "./mod.ts";
import { Readable, Writable } from "node:stream";
const scenario = new ScenarioBuilder().on("hello").respond("Hello! How can I help you today?").build();
const init = JSON.stringify({ type: "control_request", request_id: "r1", request: { subtype: "initialize", hooks: null } }) + "\n";
const user = JSON.stringify({ type: "user", session_id: "", message: { role: "user", content: "hello" }, parent_tool_use_id: null }) + "\n";
async function raw() {
  const s = new Session(scenario);
  const w = s.writable.getWriter();
  const r = new Response(s.readable).arrayBuffer();
  await w.write(init); await w.write(user); await w.close();
  await r;
}
async function viaProcess() {
  const mock = new MockTransport(scenario);
  const p = mock.spawn({ command: "claude", args: [], env: {}, signal: new AbortController().signal });
  const done = new Promise<void>((res) => p.stdout.on("end", () => res()));
  p.stdout.on("data", () => {});
  p.stdin.write(init); p.stdin.write(user); p.stdin.end();
  await done; await mock.exited;
}
for (const [name, f] of [["raw", raw], ["process", viaProcess]] as const) {
  for (let i = 0; i < 500; i++) await f();
  const t = performance.now();
  for (let i = 0; i < 3000; i++) await f();
  console.log(name, ((performance.now() - t) / 3000 * 1000).toFixed(0), "µs");
}
