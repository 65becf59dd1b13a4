// Run by kowah site at build time, in node (never in the browser):
//   node prepare.mjs PYODIDE_DIR WHEELS_DIR OUT_DIR
// Pyodide from PYODIDE_DIR with the site's wheels installed runs kowah.site.trim, which writes
// the trimmed, compiled standard library and the packages' bytecode into OUT_DIR, and prints
// what it kept as one line of JSON.

import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, wheels, out] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
// (a fixed hash seed: the same sources give the same bytecode, so an unchanged build keeps its version)
const py = await loadPyodide({ indexURL: runtime + "/", env: { PYTHONHASHSEED: "0" }, stdout: () => {},
  stderr: (text) => console.error(text) });
for (const name of readdirSync(wheels).filter((name) => name.endsWith(".whl")).sort()) {
  py.unpackArchive(new Uint8Array(readFileSync(join(wheels, name))), "wheel");
}
py.FS.mkdirTree("/prepare");
py.mountNodeFS("/prepare", out);
const summary = py.pyimport("kowah.site.trim").main("/prepare");
console.log(JSON.stringify(summary.toJs({ dict_converter: Object.fromEntries })));
