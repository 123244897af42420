// How big each entry point's surface is and why: its values, its types, and how many of those
// types its values' signatures force on it (`deno doc --lint` of the entry on its own wants
// every type a signature reaches exported there too). Printed, never asserted.
//
//   deno run -A scripts/surface_report.ts [entry-subpath …] [--reach]
//
// --reach also lists, per value, how many exported types its signatures reach.
import { surfaceClosure } from "./_surface_closure.ts";

const root = new URL("../", import.meta.url);
const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
const wanted = Deno.args.filter((a) => !a.startsWith("--"));
const showReach = Deno.args.includes("--reach");
console.log("entry             names  values  types  forced by signatures");
for (const [subpath, file] of Object.entries(config.exports as Record<string, string>)) {
  if (wanted.length > 0 && !wanted.includes(subpath)) continue;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", file],
    cwd: root,
    stdout: "piped",
  }).output();
  if (!out.success) throw new Error(`deno doc --json ${file} failed (entry "${subpath}")`);
  const nodes = JSON.parse(new TextDecoder().decode(out.stdout)).nodes;
  const node = nodes[new URL(file, root).href];
  const { values, types, forced, reach } = surfaceClosure(node.symbols);
  const row = [
    subpath.padEnd(17),
    String(values.length + types.length).padStart(5),
    String(values.length).padStart(7),
    String(types.length).padStart(6),
    String(forced.length).padStart(7),
  ];
  console.log(row.join(" "));
  if (showReach) {
    for (const [value, n] of [...reach].sort((a, b) => b[1] - a[1])) {
      console.log(`    ${value.padEnd(28)} reaches ${n} types`);
    }
  }
}
