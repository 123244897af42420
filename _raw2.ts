import { ScenarioBuilder, Session } from "./mod.ts";
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
for (let i = 0; i < 20000; i++) await raw();
