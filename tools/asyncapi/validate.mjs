// Validates AsyncAPI documents with the AsyncAPI initiative's own parser (@asyncapi/parser):
// the specification's JSON Schema, its semantic rules (spectral), and every $ref resolved.
//
//     node tools/asyncapi/validate.mjs docs/asyncapi.yaml
//
// Prints one JSON object: {"valid", "version", "errors": [...], "warnings": [...]}, each
// diagnostic with its rule code, message and path. Exits 0 only when the parser produced a
// document and no diagnostic of severity "error".
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import parserModule from "@asyncapi/parser";

const { Parser, DiagnosticSeverity } = parserModule;

const path = process.argv[2];
if (!path) {
  console.error("usage: node validate.mjs <asyncapi document>");
  process.exit(2);
}
const source = resolve(path);
const parser = new Parser();
const { document, diagnostics } = await parser.parse(readFileSync(source, "utf8"), { source });
const describe = (d) => ({ code: d.code, message: d.message, path: d.path.join("/") });
const errors = diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).map(describe);
const warnings = diagnostics.filter((d) => d.severity !== DiagnosticSeverity.Error).map(describe);
const valid = document !== undefined && errors.length === 0;
console.log(JSON.stringify({ valid, version: document?.version() ?? null, errors, warnings }, null, 1));
process.exit(valid ? 0 : 1);
