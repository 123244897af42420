// The model's side and its accounting (usage, cost, failures, print texts) against recordings of
// the real CLI running conformance cases against the scenario's Messages API
// (tests/fixtures/real/conform/, made by scripts/record_conform.ts): each test runs the mock
// side of a case as `cli.ts conform` does and asserts that none of the differences it is about
// is left.
import assert from "node:assert/strict";
import { differencesAbout, diffWithRecording } from "../scripts/_conform_recording.ts";
import { explain, loadConformExceptions } from "../src/conform/conform_exceptions.ts";

const EXCEPTIONS = loadConformExceptions(
  new URL("../conformance/exceptions.json", import.meta.url).pathname,
);

interface RecordingCase {
  /** The conformance case. */
  name: string;
  /** `duplex` or `print:<format>`. */
  mode: string;
  /** The CLI the recording was made with. */
  cli: string;
  /** What the test is about: differences whose `kind type path` matches. */
  about: RegExp;
  /** What it checks, for the test's name. */
  what: string;
  /** Differences conformance/exceptions.json explains (a random id) are left out. */
  explained?: true;
}

/** Usage, token counts and cost: the turn's usage, each model's, the assistant frames'. */
const ACCOUNTING =
  /(^| )(usage|modelUsage|model_usage_since_last_result|total_cost_usd|message\.usage)(\.|$)/;

/** What a session's model decides: its name, prices, window, tools, effort, models entry. */
const MODEL = new RegExp(
  `${ACCOUNTING.source}|system/init value (model|per_turn_effort_active|tools)|message\\.model|` +
    "models|argumentHint|description|^stderr",
);

/** A subagent's accounting: the session's and its own tokens, its stats, its output file. */
const SUBAGENT = new RegExp(
  `${ACCOUNTING.source}|subagent_stats|output_file|totalTokens|tool_use_result($|\\.usage)|` +
    "cli->sdk user value message\\.content\\.0\\.content\\.0\\.text",
);

/** A failure as the app meets it: the texts, the retries, the output, the exit. */
const FAILURE =
  /stdout|exit|api_retry|(assistant|result\/\w+) \w+ (message\.content\.\d+\.text|result)$/;

/** All but a resumed session's totals (the in-process mock keeps no transcripts). */
/**
 * All but whether the SDK's prompt reached a CLI that refused to start (the in-process mock
 * refuses at once, the real CLI after its start-up: conformance/exceptions.json,
 * refusal-before-startup-*).
 */
const NOT_PROMPT_RACE = /^(?!sdk->cli user missing)/;

/**
 * All but the compact boundary's post_tokens, which count the transcript's path (the mock's and
 * the real CLI's differ: conformance/exceptions.json, compact-transcript-path-length).
 */
const NOT_POST_TOKENS =
  /^(?!cli->sdk system\/compact_boundary value compact_metadata\.post_tokens)/;

/** All but the project settings' warning (the in-process mock reads no files). */
const NOT_STDERR = /^(?!stderr)/;

/** What an interrupted turn and the next one say, but where the interrupt landed (its tokens). */
const INTERRUPTED_TURNS =
  /^cli->sdk (user|system\/\S+|result\/\S+ \w+ (num_turns|subtype|is_error|terminal_reason|stop_reason|result_index|permission_denials|usage\.\w*input\w*))( |$)/;

const CASES: RecordingCase[] = [
  {
    name: "example_chat",
    mode: "duplex",
    cli: "2.1.328",
    about: new RegExp(
      `${ACCOUNTING.source}|per_turn_effort_active|tools\\.length|models|argumentHint|` +
        "result/success value result$",
    ),
    what: "a model of the 4 generation: its prices, window, limit, tools, effort, models entry",
  },
  {
    name: "model_previous_opus",
    mode: "duplex",
    cli: "2.1.328",
    about: new RegExp(
      `${ACCOUNTING.source}|per_turn_effort_active|tools\\.length|models|argumentHint`,
    ),
    what: "Opus 4.5: its prices, window, limit, tools and effort levels",
  },
  {
    name: "model_custom",
    mode: "duplex",
    cli: "2.1.328",
    about: new RegExp(
      `${ACCOUNTING.source}|per_turn_effort_active|tools\\.length|models|argumentHint|^stderr`,
    ),
    what: "a model the CLI does not know: the default's prices, a Custom model, its stderr note",
  },
  // the model ids users pass: how the CLI reads each, what the session reports and bills
  ...[
    ["model_alias_sonnet", "an alias runs on the model it names"],
    ["model_alias_opusplan", "opusplan runs on Sonnet and is offered as Opus Plan Mode"],
    ["model_remapped_opus", "a legacy Opus id runs as the latest Opus"],
    ["model_remap_disabled", "CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP keeps Opus 4, retired"],
    ["model_retired_sonnet37", "a retired dated id: Claude 3.7 Sonnet's facts"],
    ["model_dated_haiku", "a dated id: Haiku 4.5's facts"],
    ["model_cloud_bedrock", "a Bedrock id: Sonnet 4.5's facts"],
    ["model_one_million_sonnet", "[1m]: the API gets the id without it, a 1M window"],
    ["model_empty", 'an empty --model "": the model "", no notice'],
    ["model_blank", 'a --model of blanks: trimmed to "", shown as asked, its notice'],
  ].flatMap(([name, what]) => [
    ...["duplex", "print:stream-json"].map((mode) => ({
      name,
      mode,
      cli: "2.1.328",
      about: MODEL,
      what: `${what} (model, prices, window, tools, effort, models entry)`,
    })),
    {
      name,
      mode: "print:text",
      cli: "2.1.328",
      about: /^stderr|stdout/,
      what: `${what} (its notice on stderr)`,
    },
  ]),
  ...["model_remapped_opus", "model_retired_sonnet37", "model_cloud_bedrock"].flatMap((name) =>
    ["duplex", "print:text"].map((mode) => ({
      name,
      mode,
      cli: "2.1.332",
      about: new RegExp(`${MODEL.source}|stdout`),
      what: "the notices and facts of CLI 2.1.332 (its longer retirement table)",
    }))
  ),
  ...["duplex", "print:text"].map((mode) => ({
    name: "example_api_error_down",
    mode,
    cli: "2.1.328",
    about: FAILURE,
    what: "an apiError step goes as the named failure of its status (retries, text)",
  })),
  {
    name: "example_api_error_flaky",
    mode: "duplex",
    cli: "2.1.328",
    about: new RegExp(`${FAILURE.source}|${ACCOUNTING.source}`),
    what: "an apiError step's api_retry frames carry the client's max_retries",
  },
  {
    name: "example_tools_permissions",
    mode: "duplex",
    cli: "2.1.328",
    about: /tool_use_result\.(originalFile|structuredPatch)|result\/|missing|extra/,
    what: "an Edit starts from the file the Read showed; the denial's reply ends the turn",
  },
  ...["duplex", "print:text"].flatMap((mode) => [
    {
      name: "failure_overloaded",
      mode,
      cli: "2.1.328",
      about: FAILURE,
      what: "two 529s (one retry) are worded as one",
    },
    {
      name: "failure_overloaded_repeated",
      mode,
      cli: "2.1.328",
      about: FAILURE,
      what: "an Opus-class model gives up at the third 529 in a row",
    },
  ]),
  ...["failure_stream_cut", "failure_malformed_stream"].flatMap((name) =>
    ["duplex", "print:text"].map((mode) => ({
      name,
      mode,
      cli: "2.1.332",
      about: new RegExp(`${FAILURE.source}|${ACCOUNTING.source}|stderr`),
      what: "the unusable fallback names its request-id, as the API sends one",
    }))
  ),
  ...["limit_max_budget", "limit_max_turns"].map((name) => ({
    name,
    mode: "print:text",
    cli: "2.1.328",
    about: FAILURE,
    what: "text mode prints an error's line with no newline",
  })),
  ...["duplex", "print:json"].map((mode) => ({
    name: "builtin_subagent_task",
    mode,
    cli: "2.1.328",
    about: SUBAGENT,
    what: "a subagent's calls, stats, token totals and output file",
  })),
  {
    name: "example_subagent_questions",
    mode: "duplex",
    cli: "2.1.328",
    about: SUBAGENT,
    what: "a subagent without tools: its tokens, and no tool list or stats",
  },
  {
    name: "example_failures_flaky",
    mode: "duplex",
    cli: "2.1.328",
    about: ACCOUNTING,
    what: "each cut stream bills what it carried of the reply after the failure, the first too",
  },
  ...["duplex", "print:json"].flatMap((mode) => [
    {
      name: "builtin_api_error_retry",
      mode,
      cli: "2.1.328",
      about: ACCOUNTING,
      what: "a reset stream bills what it carried; the fallback's usage is whole",
    },
    {
      name: "failure_stream_cut",
      mode,
      cli: "2.1.328",
      about: ACCOUNTING,
      what: "cut streams bill what they carried of the default reply",
    },
    {
      name: "failure_malformed_stream_recovered",
      mode,
      cli: "2.1.328",
      about: ACCOUNTING,
      what: "a stream with a bad first delta bills what message_start reported",
    },
  ]),
  ...sessionCases(),
];

/**
 * The recordings of the file tools', Bash results', thinking, task tools' and MCP cases
 * and subagents / plan mode (tests/fixtures/real/FINDINGS_tools.md, FINDINGS_mcp.md,
 * FINDINGS_agents.md) and the tool input checks (`tools_`): every one of them, each mode and
 * CLI recorded, is identical to the mock's run but for what conformance/exceptions.json explains
 * (an inserted notebook cell's random id, the time and random part of a saved MCP image's name).
 */
const TOOL_CASES = /^(files_|bash_|thinking_|task_tools_|mcp_|agents_|plan_|tools_|settings_)/;
const RECORDING =
  /^(.+)\.(duplex|print-text|print-json|print-stream-json)\.v(\d+\.\d+\.\d+)\.jsonl$/;
for (const entry of Deno.readDirSync(new URL("./fixtures/real/conform/", import.meta.url))) {
  const match = RECORDING.exec(entry.name);
  if (!match || !TOOL_CASES.test(match[1])) continue;
  CASES.push({
    name: match[1],
    mode: match[2].replace("-", ":"),
    cli: match[3],
    about: /./,
    what:
      "every frame as the real CLI wrote it (file tools, Bash results, thinking, task tools, MCP)",
    explained: true,
  });
}

/**
 * Sessions, system prompts, slash commands, multi-turn and stream-json input
 * (FINDINGS_sessions.md): every recording of those cases, every difference, but what the
 * in-process mock cannot know (conformance/exceptions.json: in-process-*), whether the SDK's
 * prompt reached a CLI that refused to start, and where an interrupt lands.
 */
function sessionCases(): RecordingCase[] {
  const EVERYTHING = /./;
  const cases: Array<[string, string, string, RegExp, string]> = [
    [
      "session_continue_fresh",
      "*",
      "2.1.328",
      EVERYTHING,
      "continue with no earlier session: a new one",
    ],
    ["session_id_given", "*", "2.1.328", EVERYTHING, "sessionId / --session-id used as given"],
    [
      "session_resume_unknown",
      "print",
      "2.1.328",
      EVERYTHING,
      "--resume of an unknown id: stderr, stream-json's error result, exit 1",
    ],
    [
      "session_resume_unknown",
      "print",
      "2.1.332",
      EVERYTHING,
      "--resume of an unknown id (2.1.332)",
    ],
    [
      "session_fork_unknown",
      "print",
      "2.1.328",
      EVERYTHING,
      "--fork-session of an unknown id: a new id in the error result",
    ],
    [
      "session_id_in_use",
      "print",
      "2.1.328",
      EVERYTHING,
      "--session-id of an earlier run: refused",
    ],
    [
      "session_resume_after_run",
      "print",
      "2.1.328",
      EVERYTHING,
      "resume after a run: the id kept, the cost cumulative",
    ],
    ["session_resume_after_run", "print", "2.1.332", EVERYTHING, "resume after a run (2.1.332)"],
    [
      "session_continue_after_run",
      "print",
      "2.1.328",
      EVERYTHING,
      "-c after a run: its session goes on, the cost cumulative",
    ],
    [
      "session_fork_after_run",
      "print",
      "2.1.328",
      EVERYTHING,
      "--fork-session after a run: a new id, the cost cumulative",
    ],
    [
      "session_resume_after_run",
      "duplex",
      "2.1.328",
      EVERYTHING,
      "resume after a run in process: the earlier run's totals go on (the SessionStore)",
    ],
    [
      "session_resume_after_run",
      "duplex",
      "2.1.332",
      EVERYTHING,
      "resume after a run in process (2.1.332)",
    ],
    [
      "session_continue_after_run",
      "duplex",
      "2.1.328",
      EVERYTHING,
      "continue after a run in process",
    ],
    [
      "session_fork_after_run",
      "duplex",
      "2.1.328",
      EVERYTHING,
      "fork after a run in process",
    ],
    [
      "session_resume_at_unknown",
      "print",
      "2.1.328",
      EVERYTHING,
      "resumeSessionAt a missing message",
    ],
    [
      "session_resume_unknown",
      "duplex",
      "2.1.328",
      NOT_PROMPT_RACE,
      "resume of an unknown id in process: stderr, the error result, exit 1",
    ],
    [
      "session_resume_unknown",
      "duplex",
      "2.1.332",
      NOT_PROMPT_RACE,
      "resume of an unknown id in process (2.1.332)",
    ],
    [
      "session_fork_unknown",
      "duplex",
      "2.1.328",
      NOT_PROMPT_RACE,
      "fork of an unknown id in process",
    ],
    [
      "session_id_in_use",
      "duplex",
      "2.1.328",
      NOT_PROMPT_RACE,
      "sessionId of an earlier run in process: refused",
    ],
    [
      "session_resume_at_unknown",
      "duplex",
      "2.1.328",
      NOT_PROMPT_RACE,
      "resumeSessionAt a missing message in process",
    ],
    [
      "session_resume_compact",
      "duplex",
      "2.1.328",
      NOT_POST_TOKENS,
      "/compact after resume: the earlier run's messages compacted from its last context",
    ],
    [
      "session_resume_compact",
      "duplex",
      "2.1.332",
      NOT_POST_TOKENS,
      "/compact after resume (2.1.332)",
    ],
    [
      "session_resume_at_message_after_run",
      "print",
      "2.1.328",
      EVERYTHING,
      "resumeSessionAt a message",
    ],
    [
      "session_resume_at_message_after_run",
      "duplex",
      "2.1.328",
      EVERYTHING,
      "resumeSessionAt in process",
    ],
    ["system_prompt_string", "*", "2.1.328", EVERYTHING, "systemPrompt as a string"],
    [
      "system_prompt_preset_append",
      "*",
      "2.1.328",
      EVERYTHING,
      "the claude_code preset with append",
    ],
    [
      "system_additional_directories",
      "*",
      "2.1.328",
      EVERYTHING,
      "additionalDirectories / --add-dir",
    ],
    [
      "system_setting_sources_user",
      "*",
      "2.1.328",
      EVERYTHING,
      "setting sources without project: nothing read",
    ],
    [
      "system_setting_sources_project",
      "print",
      "2.1.328",
      EVERYTHING,
      "project settings of an untrusted workspace: the warning",
    ],
    [
      "system_project_settings_untrusted",
      "print",
      "2.1.328",
      EVERYTHING,
      "the warning counts the allow entries only",
    ],
    [
      "system_setting_sources_project",
      "duplex",
      "2.1.328",
      NOT_STDERR,
      "project settings in process: all but the warning",
    ],
    [
      "system_project_settings_untrusted",
      "duplex",
      "2.1.328",
      NOT_STDERR,
      "project settings in process: all but the warning",
    ],
    [
      "slash_cost",
      "duplex",
      "2.1.328",
      EVERYTHING,
      "/cost: the usage report, a local_command result",
    ],
    [
      "slash_cost_after_turn",
      "duplex",
      "2.1.328",
      EVERYTHING,
      "/cost after a turn: tokens and cost by model",
    ],
    ["slash_cost_after_turn", "duplex", "2.1.332", EVERYTHING, "/cost after a turn (2.1.332)"],
    [
      "slash_context_after_turn",
      "duplex",
      "2.1.328",
      EVERYTHING,
      "/context after a turn: the tools as counted once the session made an API call, no Messages row",
    ],
    [
      "slash_context_after_turn",
      "duplex",
      "2.1.332",
      EVERYTHING,
      "/context after a turn (2.1.332)",
    ],
    [
      "slash_compact_first",
      "duplex",
      "2.1.328",
      EVERYTHING,
      "/compact with nothing to compact: the failed command",
    ],
    [
      "slash_compact_first",
      "duplex",
      "2.1.332",
      EVERYTHING,
      "/compact with nothing to compact (2.1.332)",
    ],
    ["slash_unknown", "duplex", "2.1.328", EVERYTHING, "an unknown /foo goes to the model"],
    [
      "turns_tool_second",
      "duplex",
      "2.1.328",
      EVERYTHING,
      "three turns, a tool in the second: each result's accounting",
    ],
    [
      "turns_interrupt_middle",
      "duplex",
      "2.1.328",
      INTERRUPTED_TURNS,
      "an interrupted middle turn, then another: results",
    ],
    ["print_stdin_prompts", "*", "2.1.328", EVERYTHING, "two user lines on stdin in print mode"],
    ["print_stdin_replay", "*", "2.1.328", EVERYTHING, "--replay-user-messages: each line echoed"],
    [
      "print_stdin_replay",
      "print:stream-json",
      "2.1.332",
      EVERYTHING,
      "--replay-user-messages (2.1.332)",
    ],
    [
      "print_replay_without_stdin",
      "*",
      "2.1.328",
      EVERYTHING,
      "--replay-user-messages without stream-json: refused",
    ],
  ];
  const modes = (name: string, which: string): string[] => {
    const prints = ["print:text", "print:json", "print:stream-json"];
    const has = (mode: string) => {
      const file = `${name}.${mode.replace(":", "-")}.v`;
      return [...Deno.readDirSync(new URL("./fixtures/real/conform/", import.meta.url))]
        .some((e) => e.name.startsWith(file));
    };
    const all = which === "*" ? ["duplex", ...prints] : which === "print" ? prints : [which];
    return all.filter(has);
  };
  return cases.flatMap(([name, which, cli, about, what]) =>
    modes(name, which).map((mode) => ({ name, mode, cli, about, what }))
  ).filter((c) =>
    [...Deno.readDirSync(new URL("./fixtures/real/conform/", import.meta.url))].some((e) =>
      e.name === `${c.name}.${c.mode.replace(":", "-")}.v${c.cli}.jsonl`
    )
  );
}

for (const c of CASES) {
  Deno.test(`conform recording ${c.name} (${c.mode}, CLI ${c.cli}): ${c.what}`, async () => {
    const all = await diffWithRecording(c.name, { mode: c.mode, cli: c.cli });
    const exceptions = c.explained ? await EXCEPTIONS : [];
    const context = { case: c.name, mode: c.mode, sdk: c.cli.replace(/^2\.1\./, "0.3.") };
    const left = differencesAbout(all, c.about)
      .filter((d) => explain(d, context, exceptions) === undefined);
    assert.deepEqual(left, [], JSON.stringify(left, null, 1));
  });
}
