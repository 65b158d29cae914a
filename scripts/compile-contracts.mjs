// `npm run contracts:build`: compiles contracts/src/*.sol with solc-js into contracts/artifacts/<Name>.json
// (abi + bytecode). The artifacts are committed so that starting the product never needs a compiler.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import solc from "solc";

const root = fileURLToPath(new URL("..", import.meta.url));
const srcDir = join(root, "contracts/src");
const outDir = join(root, "contracts/artifacts");
// Explicit target: solc's default moves with releases, and the bytecode must run on anvil and on Base alike.
const EVM_VERSION = "cancun";

const sources = Object.fromEntries(
  readdirSync(srcDir)
    .filter((f) => f.endsWith(".sol"))
    .sort()
    .map((f) => [f, { content: readFileSync(join(srcDir, f), "utf8") }]),
);

const input = {
  language: "Solidity",
  sources,
  settings: {
    evmVersion: EVM_VERSION,
    optimizer: { enabled: true, runs: 200 },
    outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
  },
};

const output = JSON.parse(solc.compile(JSON.stringify(input)));
const problems = (output.errors ?? []).filter((e) => e.severity === "error");
for (const e of output.errors ?? []) console.error(e.formattedMessage);
if (problems.length > 0) process.exit(1);

mkdirSync(outDir, { recursive: true });
for (const [file, contracts] of Object.entries(output.contracts)) {
  for (const [name, contract] of Object.entries(contracts)) {
    const artifact = {
      contractName: name,
      sourceName: `contracts/src/${file}`,
      compiler: { version: solc.version(), evmVersion: EVM_VERSION, optimizerRuns: 200 },
      abi: contract.abi,
      bytecode: `0x${contract.evm.bytecode.object}`,
    };
    writeFileSync(join(outDir, `${name}.json`), `${JSON.stringify(artifact, null, 2)}\n`);
    console.log(`contracts/artifacts/${name}.json (${contract.evm.bytecode.object.length / 2} bytes)`);
  }
}
