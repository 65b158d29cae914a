import { writeFileSync } from "node:fs";
import { readContentSources } from "./content-store.ts";
import { renderContent } from "./render-content.ts";

/**
 * Renders the content directory into `file` (scripts/build-server.mjs calls it after compiling the server, with
 * the default CONTENT_DIR): a start then reads that instead of loading the Markdown and YAML parsers (decision 028).
 */
export function writeRenderedContent(dir: string, file: string) {
  writeFileSync(file, JSON.stringify(renderContent(readContentSources(dir))));
}
