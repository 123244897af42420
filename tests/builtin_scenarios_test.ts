// Predefined scenarios: each runs through the real SDK with the prompt, options and app
// callbacks of a recording of the real CLI 2.1.328 (tests/fixtures/real/), and both
// directions are compared with it as in fidelity_round2_test.ts: frame kinds and order,
// keys frame by frame, and the values an app asserts on. Where a builtin's text differs
// from the recording on purpose, the test names the pair (ours, recorded) and compares the
// rest exactly. Then each on any prompt, in two turns, twice: the same frames. (Files and
// the fake binary: builtin_scenario_doors_test.ts.)
import assert from "node:assert/strict";
import type { CanUseTool, Query, SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import FakeTimers from "@sinonjs/fake-timers";
import {
  BUILTIN_SCENARIO_NAMES,
  builtinScenario,
  PermissionRecorder,
  SystemClock,
} from "../mod.ts";
import type { Frame } from "../wire.ts";
import {
  appValues,
  compareTape,
  kind,
  type MockRun,
  readTape,
  recAllow,
  runMock as runTurns,
  type Tape,
  type TapeLine,
} from "./_fidelity.ts";
import { driveFakeTime } from "./_sdk.ts";

/** Texts a builtin says differently from the recording: [ours, recorded]. */
type Renames = Array<[string, string]>;

/** `frame` with our texts replaced by the recording's. */
function renamed(frame: Frame, renames: Renames): Frame {
  let json = JSON.stringify(frame);
  for (const [ours, recorded] of renames) {
    json = json.replaceAll(
      JSON.stringify(ours).slice(1, -1),
      JSON.stringify(recorded).slice(1, -1),
    );
  }
  return JSON.parse(json);
}

/** The values an app asserts on, frame by frame, with `renames` applied to ours. */
function assertValues(name: string, real: Frame[], mine: Frame[], renames: Renames = []): void {
  assert.equal(mine.length, real.length, `${name}: frame count`);
  for (let i = 0; i < real.length; i++) {
    assert.deepEqual(
      appValues(renamed(mine[i], renames)),
      appValues(real[i]),
      `${name}: frame ${i} (${kind(real[i])}): values`,
    );
  }
}

const base = { permissionMode: "default" as const };

// ---- each builtin against its recording ------------------------------------------------

Deno.test("builtin simple_conversation: hello, as recorded", async () => {
  const { ours, real, mine } = await compareTape(
    "hello",
    builtinScenario("simple_conversation"),
    { maxTurns: 1 },
  );
  assertValues("hello", real, mine);
  assert.equal(ours.exitCode, 0);
});

Deno.test("builtin tool_with_permission: allowed, as recorded (r2_cut_bash_no_rule)", async () => {
  const { canUseTool, calls } = recAllow();
  const { real, mine } = await compareTape(
    "r2_cut_bash_no_rule",
    builtinScenario("tool_with_permission"),
    { ...base, maxTurns: 5, canUseTool },
  );
  assertValues("r2_cut_bash_no_rule", real, mine);
  assert.equal(calls.length, 1);
  assert.equal(calls[0].blockedPath, "/home/user/project/out.txt");
  assert.equal((calls[0].suggestions as unknown[]).length, 3);
});

Deno.test("builtin tool_with_permission: denied, as recorded (tool_bash_denied)", async () => {
  const message = "The user does not allow deleting files in this test.";
  const { ours, real, mine } = await compareTape(
    "tool_bash_denied",
    builtinScenario("tool_with_permission"),
    {
      ...base,
      maxTurns: 3,
      canUseTool: () => Promise.resolve({ behavior: "deny", message }),
    },
    { values: false },
  );
  // the recording's app denied `rm -rf build`; ours is asked about `touch out.txt`
  assertValues("tool_bash_denied", real, mine, [
    ["/home/user/project/out.txt", "/home/user/project/build"],
    ["touch out.txt", "rm -rf build"],
    ["Create out.txt", "Delete the build directory"],
    ["Understood, I won't create out.txt.", "Understood, I won't delete the build directory."],
  ]);
  const result = ours.messages.at(-1) as { permission_denials: Array<{ tool_name: string }> };
  assert.deepEqual(result.permission_denials.map((d) => d.tool_name), ["Bash"]);
});

/**
 * `multi_tool` has two tool uses in one message and one more in a message of its own, which
 * no single recording has: its expected run is r2_two_tools_one_message with the Bash `ls`
 * tool use and its result of r2_three_tools_one_message as a message between the Reads'
 * results and the answer, and that recording's `num_turns` (one per tool use, plus one).
 */
async function multiToolTape(): Promise<Tape> {
  const two = await readTape("r2_two_tools_one_message");
  const three = await readTape("r2_three_tools_one_message");
  const isAnswer = (l: TapeLine) =>
    l.frame.type === "assistant" &&
    (l.frame.message as { content: Array<{ type: string }> }).content[0].type === "text" &&
    l.t > two.lines.find((x) => x.frame.type === "user" && x.dir === "cli->sdk")!.t;
  const at = two.lines.findIndex(isAnswer);
  const bash = three.lines.filter((l) => JSON.stringify(l.frame).includes("toolu_01BashLs"));
  assert.deepEqual(bash.map((l) => kind(l.frame)), ["assistant", "user"]);
  const numTurns = three.lines.find((l) => l.frame.type === "result")!.frame.num_turns;
  const lines = [...two.lines.slice(0, at), ...bash, ...two.lines.slice(at)].map((l) =>
    l.frame.type === "result" ? { ...l, frame: { ...l.frame, num_turns: numTurns } } : l
  );
  const answer = two.messages.findLastIndex((m) => m.type === "assistant");
  const messages = [
    ...two.messages.slice(0, answer),
    ...bash.map((l) => l.frame),
    ...two.messages.slice(answer),
  ];
  return { args: two.args, lines, messages };
}

Deno.test("builtin multi_tool: two Reads in one message, then Bash ls (two recordings)", async () => {
  const tape = await multiToolTape();
  const { canUseTool, calls } = recAllow();
  const ours = await runTurns(builtinScenario("multi_tool"), ["Read notes.txt and todo.txt."], {
    ...base,
    maxTurns: 5,
    canUseTool,
  });
  compareRun("multi_tool", tape, ours);
  assert.equal(calls.length, 0, "reads in the cwd and `ls` are not asked");
  const result = ours.messages.at(-1) as { num_turns: number; result: string };
  assert.equal(result.num_turns, 4);
  assert.equal(result.result, "notes.txt has three project notes; todo.txt lists two tasks.");
});

Deno.test("builtin compaction_event: hello, then /compact, as recorded (r2_compact)", async () => {
  const { ours, real, mine } = await compareTape(
    "r2_compact",
    builtinScenario("compaction_event"),
    { maxTurns: 3, turns: ["hello", "/compact"] },
  );
  assertValues("r2_compact", real, mine);
  const summary = (fs: Frame[]) =>
    (fs.find((f) => f.isSynthetic === true)!.message as { content: string }).content
      .replace(/[0-9a-f-]{36}\.jsonl/, "SESSION.jsonl");
  assert.equal(summary(mine), summary(real));
  const boundary = (fs: Frame[]) => fs.find((f) => f.subtype === "compact_boundary")!;
  assert.deepEqual(boundary(mine).compact_metadata, boundary(real).compact_metadata);
  const second = (fs: Frame[]) => fs.filter((f) => f.type === "result")[1];
  assert.deepEqual(Object.keys(second(mine)), Object.keys(second(real)));
  for (const key of ["total_cost_usd", "num_turns", "duration_api_ms", "result", "local_command"]) {
    assert.deepEqual(second(mine)[key], second(real)[key], key);
  }
  assert.equal(ours.error, undefined);
});

Deno.test("builtin subagent_task: the Agent tool and the subagent's frames, as recorded", async () => {
  const { canUseTool, calls } = recAllow();
  const { real, mine } = await compareTape(
    "subagent_task",
    builtinScenario("subagent_task"),
    { ...base, maxTurns: 4, canUseTool },
    { values: false },
  );
  // the task and run ids are drawn from the seed (as tool use ids are), the end time is
  // the clock's, the hand-back's hash is the mock's own (as in src/builders/fidelity_test.ts)
  const started = (fs: Frame[]) => fs.find((f) => f.subtype === "task_started")!;
  const ended = (fs: Frame[]) =>
    String((fs.find((f) => f.subtype === "task_updated")!.patch as { end_time: number }).end_time);
  const hash = (fs: Frame[]) =>
    (fs.findLast((f) => f.type === "user")!.tool_use_result as { harnessSectionHash: string })
      .harnessSectionHash;
  // the recorder's API reported 25 output tokens for every call, so the subagent's total was
  // 120 + 25; the scenario API counts the report's own, 21 (tests/conform_recordings_slow_test.ts)
  const recorderCounted = (frame: Frame): Frame =>
    JSON.parse(
      JSON.stringify(frame)
        .replace(/"total_tokens":141/g, '"total_tokens":145')
        .replace(/"totalTokens":141/g, '"totalTokens":145')
        .replace(/subagent_tokens: 141/g, "subagent_tokens: 145")
        .replace(
          /("usage":\{"output_tokens_details":\{"thinking_tokens":0\},"input_tokens":120,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":)21/g,
          (_all, head) => `${head}25`,
        ),
    );
  assertValues("subagent_task", real, mine.map(recorderCounted), [
    [started(mine).task_id as string, started(real).task_id as string],
    [started(mine).run_id as string, started(real).run_id as string],
    [ended(mine), ended(real)],
    [hash(mine), hash(real)],
  ]);
  assert.equal(calls.length, 0);
  const notification = (fs: Frame[]) => fs.find((f) => f.subtype === "task_notification")!;
  assert.equal(notification(mine).summary, notification(real).summary);
});

Deno.test("builtin ask_user_question: the question and the app's answer, as recorded", async () => {
  const permissions = PermissionRecorder.allowAll();
  const canUseTool: CanUseTool = (toolName, input, options) =>
    permissions.canUseTool(toolName, input, options).then(() => ({
      behavior: "allow" as const,
      updatedInput: { ...input, answers: { "Which date library should we use?": "date-fns" } },
    }));
  const { real, mine } = await compareTape(
    "cp_ask_user_question",
    builtinScenario("ask_user_question"),
    { ...base, maxTurns: 3, canUseTool },
    { values: false },
  );
  // the recording's reply named its app's answer; ours fits any answer
  assertValues("cp_ask_user_question", real, mine, [
    ["Thanks, I'll go with your choice.", "Great, we will use date-fns."],
  ]);
  permissions.assertAsked("AskUserQuestion", 1);
});

Deno.test("builtin api_error_retry: retries, then the answer (failures/connection_reset_recovered)", async () => {
  const { ours, real, mine } = await compareTape(
    "failures/connection_reset_recovered",
    builtinScenario("api_error_retry"),
    { maxTurns: 1 },
    { env: { CLAUDE_CODE_MAX_RETRIES: "2" } },
  );
  assertValues("connection_reset_recovered", real, mine);
  // (what the broken streams billed is compared with the real CLI against the scenario API in
  // tests/conform_recordings_slow_test.ts: the recorder's API broke its streams elsewhere)
  assert.equal(mine.filter((f) => f.subtype === "api_retry").length, 2);
  assert.equal(ours.exitCode, 0);
  assert.equal(ours.error, undefined);
});

/** An app that interrupts once `after` text deltas arrived. */
function interruptAfter(after: number): (m: SDKMessage, q: Query) => Promise<void> {
  let deltas = 0;
  return async (m, q) => {
    if (m.type === "stream_event" && m.event.type === "content_block_delta" && ++deltas === after) {
      await q.interrupt();
    }
  };
}

/** What the app saw streamed, and the partial message's text. */
function streamedText(ours: MockRun): { seen: string; partial: string } {
  const seen = ours.messages.flatMap((m) =>
    m.type === "stream_event" && m.event.type === "content_block_delta" &&
      m.event.delta.type === "text_delta"
      ? [m.event.delta.text]
      : []
  ).join("");
  const partial = ours.out.find((f) => f.type === "assistant" && f.aborted === true)!;
  return {
    seen,
    partial: (partial.message as { content: Array<{ text: string }> }).content[0].text,
  };
}

Deno.test("builtin interrupt_mid_stream: interrupted at four lines, as recorded (cp_interrupt_partial)", async () => {
  // On the system clock under fake timers the story waits between deltas, so the interrupt
  // lands at the same point every run: the app reacts to the third delta, the fourth was
  // already paced and on its way (as the API's stream is for the real CLI), then the
  // interrupt's frames follow: the recording's four lines.
  const fake = FakeTimers.install({
    now: Date.UTC(2026, 5, 1),
    toFake: ["setTimeout", "clearTimeout", "Date"],
  });
  let ours: MockRun;
  try {
    const run = runTurns(builtinScenario("interrupt_mid_stream"), ["Write a long story."], {
      maxTurns: 1,
      includePartialMessages: true,
      onMessage: interruptAfter(3),
      clock: new SystemClock(),
    });
    await driveFakeTime(fake, run);
    ours = await run;
  } finally {
    fake.uninstall();
  }
  compareRun("cp_interrupt_partial", await readTape("cp_interrupt_partial"), ours);
  const { seen, partial } = streamedText(ours);
  assert.equal(
    partial,
    "Line 1 of the story. Line 2 of the story. Line 3 of the story. Line 4 of the story. ",
  );
  assert.equal(partial, seen);
  assert.match(ours.error?.message ?? "", /^Claude Code returned an error result/);
  assert.equal(ours.exitCode, 1);
});

Deno.test("builtin interrupt_mid_stream: on the virtual clock the interrupt lands later, the frames are the same", async () => {
  const tape = await readTape("cp_interrupt_partial");
  const ours = await runTurns(builtinScenario("interrupt_mid_stream"), ["Write a long story."], {
    maxTurns: 1,
    includePartialMessages: true,
    onMessage: interruptAfter(4),
  });
  const { seen, partial } = streamedText(ours);
  // the partial message holds what was streamed: whole lines, from the first
  assert.equal(partial, seen);
  assert.match(partial, /^(Line \d+ of the story\. ){4,199}$/);
  const recorded = (tape.lines.find((l) => l.frame.type === "assistant")!.frame.message as {
    content: Array<{ text: string }>;
  }).content[0].text;
  compareRun("cp_interrupt_partial", tape, ours, [[partial, recorded]]);
});

// ---- any prompt, any number of turns, the same frames for the same seed ----------------

/** An app that allows every tool and answers every question with its first choice. */
const allowAndAnswer: CanUseTool = (toolName, input) => {
  if (toolName !== "AskUserQuestion") {
    return Promise.resolve({ behavior: "allow", updatedInput: input });
  }
  const questions = input.questions as Array<
    { question: string; options: Array<{ label: string }> }
  >;
  const answers = Object.fromEntries(questions.map((q) => [q.question, q.options[0].label]));
  return Promise.resolve({ behavior: "allow", updatedInput: { ...input, answers } });
};

/** What the session wrote of its own: answers to the SDK's requests carry its ids and pid. */
const ownFrames = (out: Frame[]) =>
  out.filter((f) => f.type !== "control_response").map((f) => JSON.stringify(f));

for (const name of BUILTIN_SCENARIO_NAMES) {
  Deno.test(`builtin ${name}: any prompt, two turns, the same frames for the same seed`, async () => {
    const run = () =>
      runTurns(builtinScenario(name, { seed: 11 }), ["Please help with my project.", "Thanks!"], {
        canUseTool: allowAndAnswer,
        includePartialMessages: true,
      });
    const first = await run();
    assert.equal(first.error, undefined, String(first.error));
    const results = first.messages.filter((m) => m.type === "result");
    assert.deepEqual(results.map((r) => r.subtype), ["success", "success"]);
    assert.deepEqual(results.map((r) => r.is_error), [false, false]);
    assert.equal(first.exitCode, 0);
    const second = await run();
    assert.deepEqual(ownFrames(second.out), ownFrames(first.out), "deterministic");
  });
}

// ---- a run and a comparison for what compareTape cannot drive ----------------------------

/** compareTape's checks, for a run made here and a tape that may be spliced. */
function compareRun(name: string, tape: Tape, ours: MockRun, renames: Renames = []): void {
  const realOut = tape.lines.filter((l) => l.dir === "cli->sdk").map((l) => l.frame);
  const realIn = tape.lines.filter((l) => l.dir === "sdk->cli").map((l) => l.frame);
  assert.deepEqual(ours.args.slice(0, tape.args.length).sort(), [...tape.args].sort(), "args");
  const timing = (k: string) => k === "system/session_state_changed:idle";
  const delta = "stream_event/content_block_delta";
  const strip = (frames: Frame[]) =>
    frames.map(kind).filter((k, i, all) => !timing(k) && !(k === delta && all[i - 1] === k));
  assert.deepEqual(strip(ours.out), strip(realOut), `${name}: cli->sdk frame kinds`);
  assert.deepEqual(ours.written.map(kind), realIn.map(kind), `${name}: sdk->cli frame kinds`);
  const keep = (f: Frame) => !timing(kind(f)) && kind(f) !== delta;
  const real = realOut.filter(keep);
  const mine = ours.out.filter(keep);
  for (let i = 0; i < real.length; i++) {
    assert.deepEqual(
      Object.keys(mine[i]).sort(),
      Object.keys(real[i]).sort(),
      `${name}: frame ${i} (${kind(real[i])}): keys`,
    );
  }
  assertValues(name, real, mine, renames);
  const appKinds = (frames: Array<Frame | SDKMessage>) =>
    frames.map((m) => kind(m as Frame)).filter((k) => k !== delta)
      .filter((k, i, all) => k !== all[i - 1] || !k.startsWith("stream"));
  assert.deepEqual(
    appKinds(ours.messages),
    appKinds(tape.messages),
    `${name}: what the app received`,
  );
}
