// The signal tests of print mode (tests/cli_faults_test.ts) for the bundle, on Deno and on Node:
// end-to-end runs of the same code as `cli.ts`, seconds of paced real time each, in the slow tier.
import { signalTests } from "./_cli_faults.ts";

for (const entry of ["dist/bin.js", "node dist/bin.js"]) signalTests(entry);
