// tsc emits no declaration file for a hand-placed .d.ts: copy the generated schema types
// next to the compiled modules, so dist/rest.d.ts resolves ./generated/schema.js.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = process.argv[2] ?? "dist";
mkdirSync(join(root, out, "generated"), { recursive: true });
copyFileSync(join(root, "src", "generated", "schema.d.ts"), join(root, out, "generated", "schema.d.ts"));
