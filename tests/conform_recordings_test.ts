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
];

/**
 * The recordings of the file tools', Bash results', thinking and task tools' cases
 * (tests/fixtures/real/FINDINGS_tools.md): every one of them, each mode and CLI recorded, is
 * identical to the mock's run but for what conformance/exceptions.json explains (an inserted
 * notebook cell's random id).
 */
const TOOL_CASES = /^(files_|bash_|thinking_|task_tools_)/;
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
    what: "every frame as the real CLI wrote it (file tools, Bash results, thinking, task tools)",
    explained: true,
  });
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
