// Type-checked by scripts/npm_check.ts with Node's typings and no DOM library (tsconfig
// node-types): every declaration of the package type-checks (skipLibCheck off) with what a
// Node-only project has. The SDK is left out: its MCP peer's declarations need the DOM's.
import * as mock from "@x/claude-mock";
import * as cassette from "@x/claude-mock/cassette";
import * as cli from "@x/claude-mock/cli";
import * as hooks from "@x/claude-mock/register";
import * as session from "@x/claude-mock/session";
import * as messagesApi from "@x/claude-mock/messages-api";
import * as scenarioFile from "@x/claude-mock/scenario-file";
import * as commands from "@x/claude-mock/mock-command";
import type * as vitestSetup from "@x/claude-mock/vitest";
import type * as jestSetup from "@x/claude-mock/jest";

const scenario: mock.Scenario = new mock.ScenarioBuilder().on("hi").respond("Hello").build();
const transport = new mock.MockTransport(scenario);
const duplex: mock.MockDuplex = transport.connect();
const stream: ReadableStream<Uint8Array> = duplex.readable;
const options: mock.MockSdkOptions = transport.options();
const tape: cassette.Tape = cassette.parseTape('{"version":1}\n');
const io: Pick<cli.CliIO, "argv"> = { argv: ["-p", "hi"] };

const setups: [typeof vitestSetup, typeof jestSetup] = [{}, {}];
const interception: mock.InterceptionOptions = { onUnhandledQuery: "bypass" };
const register: (options?: hooks.RegisterOptions) => void = hooks.register;

const engine: session.Session = new session.Session(scenario);
const file: scenarioFile.ScenarioFile = scenarioFile.scenarioToJSON(scenario);
const command: string = commands.mockCommand.textResponse("hi");
const serve: typeof messagesApi.serveMessagesApi = messagesApi.serveMessagesApi;

export const used: unknown[] = [
  stream,
  options,
  tape,
  io,
  setups,
  interception,
  register,
  engine,
  file,
  command,
  serve,
];
