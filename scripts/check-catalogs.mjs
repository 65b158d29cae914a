// The message catalogs' check (issue 37, decision 038), run by `npm test` (common/src/catalogs.test.ts) and by hand:
// `node scripts/check-catalogs.mjs`. English (the source) decides which messages exist; every other language must
// have each of them, no others, with the same placeholders, and every message must parse as ICU MessageFormat with
// an `other` case in each plural and select. A message no code names is unused; a name the code uses that no
// catalog has is unknown.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "@messageformat/parser";

const SOURCE = "en";
const FILE_NAME = /\.(json|ts|tsx|js|mjs|css|md|png|svg|html|txt|xml|pdf|yaml)$/;
/**
 * An event's name, not a message: two parts, the second in snake_case ("merchant.wallet_changed", an action of the
 * audit log, whose first part can be an area's name). Message ids are camelCase after their area.
 */
const EVENT_NAME = /^[a-z]+\.[a-z]+(?:_[a-z]+)+$/;

/** The placeholders of a message: its arguments, plurals and selects by name, and whether it uses `#`. */
function placeholdersOf(tokens, into = new Set()) {
  for (const token of tokens) {
    if (token.type === "argument" || token.type === "function") into.add(token.arg);
    if (token.type === "plural" || token.type === "select" || token.type === "selectordinal") {
      into.add(`${token.arg}:${token.type === "select" ? "select" : "plural"}`);
      for (const branch of token.cases) placeholdersOf(branch.tokens, into);
    }
  }
  return into;
}

/** Problems in one message: a parse error, or a plural or select without its `other` case. */
function parseMessage(message) {
  try {
    const tokens = parse(message);
    const missingOther = [];
    const walk = (list) => {
      for (const token of list) {
        if (token.type === "plural" || token.type === "select" || token.type === "selectordinal") {
          if (!token.cases.some((branch) => branch.key === "other")) missingOther.push(token.arg);
          for (const branch of token.cases) walk(branch.tokens);
        }
      }
    };
    walk(tokens);
    return { tokens, error: missingOther.length ? `no "other" case for {${missingOther.join(", ")}}` : null };
  } catch (error) {
    return { tokens: null, error: error instanceof Error ? error.message : String(error) };
  }
}

function sourceFiles(dir, files = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "node_modules" && name !== "locales" && name !== "test") sourceFiles(path, files);
    } else if (/\.(ts|tsx|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(path);
  }
  return files;
}

/**
 * Every problem of the catalogs under `root` (the repository), as readable lines: empty when all is well.
 * `locales` and `areas` are the languages and areas of common/src/locales.ts.
 */
export function checkCatalogs(root, { locales, areas, serverAreas = [] }) {
  const problems = [];
  const client = join(root, "client/src/locales");
  const server = join(root, "server/src/locales");
  const dirOf = (area) => (serverAreas.includes(area) ? server : client);
  const read = (locale, area) => {
    const path = join(dirOf(area), locale, `${area}.json`);
    if (!existsSync(path)) {
      problems.push(`${locale}/${area}.json: missing file`);
      return {};
    }
    try {
      return JSON.parse(readFileSync(path, "utf8"));
    } catch (error) {
      problems.push(`${locale}/${area}.json: not JSON (${error.message})`);
      return {};
    }
  };
  const known = new Map();
  const allAreas = [...areas, ...serverAreas];
  for (const area of allAreas) {
    const source = read(SOURCE, area);
    for (const [id, message] of Object.entries(source)) {
      if (!id.startsWith(`${area}.`))
        problems.push(`${SOURCE}/${area}.json: "${id}" is not named for its area (${area}.…)`);
      if (known.has(id)) problems.push(`"${id}" is in two areas`);
      known.set(id, area);
      const { error } = parseMessage(message);
      if (error) problems.push(`${SOURCE}/${area}.json: "${id}": ${error}`);
    }
    for (const locale of locales) {
      if (locale === SOURCE) continue;
      const catalog = read(locale, area);
      for (const id of Object.keys(source)) {
        if (!(id in catalog)) problems.push(`${locale}/${area}.json: missing "${id}"`);
      }
      for (const [id, message] of Object.entries(catalog)) {
        if (!(id in source)) {
          problems.push(`${locale}/${area}.json: "${id}" is not in English (extra)`);
          continue;
        }
        if (typeof message !== "string" || message.trim() === "") {
          problems.push(`${locale}/${area}.json: "${id}" is empty`);
          continue;
        }
        const theirs = parseMessage(message);
        if (theirs.error) {
          problems.push(`${locale}/${area}.json: "${id}": ${theirs.error}`);
          continue;
        }
        const ours = parseMessage(source[id]);
        if (!ours.tokens) continue;
        const expected = [...placeholdersOf(ours.tokens)].sort().join(", ");
        const actual = [...placeholdersOf(theirs.tokens)].sort().join(", ");
        if (expected !== actual)
          problems.push(
            `${locale}/${area}.json: "${id}" has placeholders {${actual}} where English has {${expected}}`,
          );
      }
    }
  }

  // Ids in code: string literals shaped like an id of an area. Each catalog id must be named somewhere (unused
  // otherwise), and each such literal must be a catalog id (unknown otherwise: it would show as the bare id).
  const idShape = new RegExp(
    `["'\`]((?:${allAreas.join("|")})\\.[A-Za-z][A-Za-z0-9_]*(?:\\.[A-Za-z][A-Za-z0-9_]*)*)["'\`]`,
    "g",
  );
  const named = new Set();
  for (const base of ["client/src", "client/embed", "server/src"]) {
    if (!existsSync(join(root, base))) continue;
    for (const file of sourceFiles(join(root, base))) {
      const text = readFileSync(file, "utf8");
      for (const [, id] of text.matchAll(idShape)) {
        if (FILE_NAME.test(id)) continue; // "content.json" and the like: a file, not a message
        if (EVENT_NAME.test(id) && !known.has(id)) continue; // "merchant.wallet_changed": an audit action
        named.add(id);
        if (!known.has(id)) problems.push(`${relative(root, file)}: "${id}" is in no catalog`);
      }
    }
  }
  for (const [id, area] of known) {
    if (!named.has(id))
      problems.push(
        `${SOURCE}/${area}.json: "${id}" is used nowhere in client/src, client/embed or server/src`,
      );
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { LOCALES, MESSAGE_AREAS, SERVER_MESSAGE_AREAS } = await import("../common/src/locales.ts").catch(
    async () => {
      // Plain Node (no TypeScript loader): read the two lists from the source.
      const text = readFileSync(new URL("../common/src/locales.ts", import.meta.url), "utf8");
      // The lists may end with a comma (the formatter's style): drop it before reading them as JSON.
      const list = (name) =>
        JSON.parse(text.match(new RegExp(`${name} = (\\[[^\\]]*\\])`))[1].replace(/,(\s*)\]$/, "$1]"));
      return {
        LOCALES: list("LOCALES"),
        MESSAGE_AREAS: list("MESSAGE_AREAS"),
        SERVER_MESSAGE_AREAS: list("SERVER_MESSAGE_AREAS"),
      };
    },
  );
  const problems = checkCatalogs(process.cwd(), {
    locales: LOCALES,
    areas: MESSAGE_AREAS,
    serverAreas: SERVER_MESSAGE_AREAS,
  });
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`\n${problems.length} catalog problem(s).`);
    process.exit(1);
  }
  console.log(
    "Catalogs: every language has every message, with the same placeholders; none unused or unknown.",
  );
}
