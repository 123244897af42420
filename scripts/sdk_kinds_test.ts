// The committed kinds table is what scripts/sdk_kinds.ts makes from the installed SDK.
import assert from "node:assert/strict";
import { installedSdk, SDK_KINDS_FILE, sdkKindsSource } from "./sdk_kinds.ts";

Deno.test("sdk_kinds: regenerating from the installed sdk.d.ts gives the committed table", async () => {
  const sdk = await installedSdk();
  const generated = sdkKindsSource(await Deno.readTextFile(sdk.path), sdk.version);
  const committed = await Deno.readTextFile(new URL(`../${SDK_KINDS_FILE}`, import.meta.url));
  assert.equal(
    generated,
    committed,
    "run `deno run -A scripts/sdk_kinds.ts` and commit the result",
  );
});

Deno.test("sdk_kinds: unions, intersections, subtypes and missing types", () => {
  const dts = `
export declare type A = { type: 'a'; subtype: 'x' | 'y'; n: number };
declare type B = Base & { type: 'b' };
declare type Base = { uuid: string; };
/** a comment with type: 'nope'; */
declare type C = { type: 'a'; subtype: 'z' } | { type: 'c'; cb: (x: number) => void };
declare type StdoutMessage = A | B | ns.C;
declare type SDKControlRequestInner = { subtype: 'go'; } | { subtype: 'stop' };
`;
  const source = sdkKindsSource(dts, "9.9.9");
  assert.match(source, /a: \[\n {4}"x",\n {4}"y",\n {4}"z",\n {2}\],/);
  assert.match(source, /b: null,\n {2}c: null,/);
  assert.match(
    source,
    /CONTROL_REQUEST_SUBTYPES: readonly string\[\] = \[\n {2}"go",\n {2}"stop",\n\];/,
  );
  assert.throws(
    () =>
      sdkKindsSource(
        "declare type StdoutMessage = Missing;\ndeclare type SDKControlRequestInner = X;",
        "1",
      ),
    { name: "SyntaxError", message: "Cannot read sdk.d.ts: type Missing is not declared" },
  );
  assert.throws(() => sdkKindsSource("", "1"), /no type StdoutMessage/);
});
