import assert from "node:assert/strict";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import { contains, exact, type Matcher, predicate } from "../scenario/matcher.ts";
import type { UserFrame } from "../wire/frame.ts";
import { ExchangePicker } from "./exchange_picker.ts";

const input = { type: "user" } as UserFrame;

Deno.test("ExchangePicker: an unmatched message names the closest exchange and its use", () => {
  const picker = new ExchangePicker(
    new ScenarioBuilder({ name: "build" })
      .on("status").respond("Green.")
      .on("delete the build dir").respond("Deleted.")
      .build(),
  );
  assert.equal(picker.pick("delete the build dir", input, 0)?.index, 1);
  assert.equal(picker.pick("delete the buld dir", input, 1), undefined);
  assert.equal(
    picker.unmatchedMessage("delete the buld dir", 1),
    `claude-mock: no exchange of scenario 'build' matched user message ` +
      `"delete the buld dir" (turn 2): expected a message that contains ` +
      `"status". Closest: exchanges[1] on contains "delete the build ` +
      `dir" (used 1 of 1 times)`,
  );
  // nothing close: no "Closest"
  assert.doesNotMatch(picker.unmatchedMessage("tell me a joke", 2), /Closest/);
  assert.equal(picker.unmatchedCount, 1);
  assert.deepEqual(picker.prompts(), [
    { turn: 0, text: "delete the build dir", index: 1 },
    { turn: 1, text: "delete the buld dir", index: -1 },
  ]);
});

Deno.test("ExchangePicker: a used-up exchange that matches says how to let it answer more", () => {
  const picker = new ExchangePicker(
    new ScenarioBuilder().on("status").respond("Building.").on("status").times(2)
      .respond("Still building.").build(),
  );
  for (let i = 0; i < 3; i++) assert.ok(picker.pick("status?", input));
  assert.equal(picker.pick("status?", input), undefined);
  assert.equal(
    picker.unmatchedMessage("status?", 3),
    `claude-mock: no exchange of scenario matched user message "status?" ` +
      `(turn 4): every exchange of the scenario was already used (2 ` +
      `exchanges). Closest: exchanges[0] on contains "status" (used ` +
      `1 of 1 times): it matches, but is used up (.times(n) or .repeat() ` +
      `lets it answer more)`,
  );
  assert.equal(picker.describeUse(1), `exchanges[1] on contains "status" (used 2 of 2 times)`);
});

Deno.test("ExchangePicker: counts repeating exchanges, and names another run's exchange", () => {
  const picker = new ExchangePicker(
    new ScenarioBuilder().on("again").repeat().respond("Again.").on("later", { invocation: 2 })
      .respond("Later.").build(),
  );
  picker.pick("again", input);
  picker.pick("again", input);
  assert.equal(picker.used(0), 2);
  assert.equal(picker.describeUse(0), `exchanges[0] on contains "again" (repeats, used 2 times)`);
  assert.equal(picker.active(1), false);
  assert.match(
    picker.unmatchedMessage("later", 2),
    /Closest: exchanges\[1\] on contains "later" \(used 0 of 1 times; only in invocation 2\): it matches, but answers only in another run of the binary$/,
  );
});

Deno.test("ExchangePicker: exact and contains triggers are looked up: the last of 10,000 tries no other trigger", () => {
  let tried = 0;
  const builder = new ScenarioBuilder();
  for (let i = 0; i < 10_000; i++) {
    const trigger: Matcher = i % 2 ? exact(`q${i}`) : contains(`needle-${i}-`);
    builder.on(trigger, { repeat: true }).respond(`a${i}`);
  }
  // one trigger that is not indexed, near the end, counts its tries
  builder.on(predicate(() => (tried++, false), "counts")).respond("never");
  const scenario = builder.build();
  const picker = new ExchangePicker(scenario);
  assert.equal(picker.pick("q9999", input)?.index, 9999);
  assert.equal(picker.pick("x needle-9998- y", input)?.index, 9998);
  assert.equal(picker.pick("q1", input)?.index, 1);
  assert.equal(tried, 0, "the predicate after them is never tried");
  assert.equal(picker.pick("nothing", input), undefined);
  assert.equal(tried, 1, "a prompt no index answers tries the other triggers");
  // order still decides: an earlier trigger that is not indexed wins over a later indexed one
  const mixed = new ScenarioBuilder().on(/^q\d+$/).respond("regex").on(exact("q5")).respond("exact")
    .build();
  assert.equal(new ExchangePicker(mixed).pick("q5", input)?.index, 0);
  // a used-up exchange gives way to the next that matches
  const once = new ScenarioBuilder().on("hi").respond("1").on(exact("hi")).respond("2").build();
  const p2 = new ExchangePicker(once);
  assert.deepEqual([p2.pick("hi", input)?.index, p2.pick("hi", input)?.index], [0, 1]);
  assert.equal(p2.pick("hi", input), undefined);
});
