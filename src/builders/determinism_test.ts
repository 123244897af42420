import assert from "node:assert/strict";
import { createBuildContext } from "./build_context.ts";
import type { BuildContext } from "./build_context.ts";
import { assistantMessage, text, thinking, toolUse } from "./assistant.ts";
import { streamEvents } from "./stream_events.ts";
import { sessionStateChanged, systemInit, systemStatus } from "./system.ts";
import { newTask, taskStarted } from "./task_frames.ts";
import { toolResult, userText } from "./user.ts";
import { resultFrame } from "./result.ts";
import { canUseToolRequest, controlSuccess, initializeResponse } from "./control.ts";
import { readTool, taskTool } from "./tools.ts";
import type { Frame } from "../wire/frame.ts";

/** A whole turn's worth of frames from every builder. */
function turn(ctx: BuildContext): Frame[] {
  const read = readTool(ctx, "/home/user/project/a.txt", { content: "x\n" });
  const message = assistantMessage(ctx, [thinking("let me look"), text("Reading."), read.block]);
  const task = taskTool(ctx, "Sub", {
    prompt: "p",
    result: "r",
    tools: [readTool(ctx, "/b", { content: "y" })],
  });
  return [
    controlSuccess("req", initializeResponse(ctx), { pending: true }),
    sessionStateChanged(ctx, "running"),
    systemInit(ctx),
    systemStatus(ctx, "requesting"),
    ...streamEvents(ctx, message),
    canUseToolRequest(ctx, read.block),
    toolResult(ctx, read.block.id, read.result),
    ...assistantMessage(ctx, [task.block, toolUse("Bash", { command: "ls" })]),
    ...task.frames(),
    taskStarted(ctx, newTask(ctx, { toolUseId: "t", description: "d" })),
    userText(ctx, "[Request interrupted by user]"),
    resultFrame(ctx, { result: "done", numTurns: 2 }),
  ];
}

Deno.test("createBuildContext seeds make every builder deterministic", () => {
  const a = turn(createBuildContext({ seed: 42 }));
  const b = turn(createBuildContext({ seed: 42 }));
  assert.deepStrictEqual(a, b);
  assert.equal(JSON.stringify(a), JSON.stringify(b));
  const c = turn(createBuildContext({ seed: 43 }));
  assert.notDeepStrictEqual(a, c);
  const uuids = a.map((f) => f.uuid).filter((u) => u !== undefined);
  assert.equal(new Set(uuids).size, uuids.length, "uuids are unique within a run");
});
