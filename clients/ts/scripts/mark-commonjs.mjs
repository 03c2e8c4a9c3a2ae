// The CommonJS build (tsconfig.cjs.json -> dist/cjs) sits inside a package of
// "type": "module": a package.json of its own saying "commonjs" makes node load its .js
// files with require() semantics and TypeScript read its .d.ts files as CommonJS.
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = process.argv[2] ?? "dist/cjs";
writeFileSync(join(root, out, "package.json"), JSON.stringify({ type: "commonjs" }, null, 2) + "\n");
