import { escapeHtml as escapeText } from "../web/page-meta.ts";
import type { OpenApiDocument } from "./openapi.ts";
import { renderWebhooksSection } from "./webhook-docs.ts";

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  description?: string;
  anyOf?: Schema[];
};

const escapeHtml = (value: unknown) => escapeText(String(value));

/** `code` spans for backticks in the document's prose; everything else escaped. */
const prose = (text: string) =>
  escapeHtml(text).replace(/`([^`]+)`/g, (_m, code: string) => `<code>${code}</code>`);

/** A code block that scrolls inside its box on a narrow screen (focusable, so the keyboard can scroll it too). */
const codeBlock = (text: string) => `<pre tabindex="0"><code>${escapeHtml(text)}</code></pre>`;

function typeOf(schema: Schema): string {
  if (schema.$ref) return schema.$ref.split("/").pop()!;
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(" | ");
  const types = [schema.type ?? "any"].flat();
  return types.map((t) => (t === "array" && schema.items ? `${typeOf(schema.items)}[]` : t)).join(" | ");
}

function constraintsOf(schema: Schema): string {
  const parts: string[] = [];
  if (schema.enum) parts.push(`one of ${schema.enum.map((v) => `<code>${escapeHtml(v)}</code>`).join(", ")}`);
  if (schema.format) parts.push(escapeHtml(schema.format));
  else if (schema.pattern) parts.push(`pattern <code>${escapeHtml(schema.pattern)}</code>`);
  if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) parts.push(`≤ ${schema.maximum}`);
  if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
  if (schema.default !== undefined)
    parts.push(`default <code>${escapeHtml(JSON.stringify(schema.default))}</code>`);
  if (schema.description) parts.push(prose(schema.description));
  return parts.join("; ");
}

function fieldsTable(schema: Schema, resolve: (s: Schema) => Schema, depth = 0): string {
  const object = resolve(schema);
  const rows = Object.entries(object.properties ?? {}).map(([name, raw]) => {
    const field = resolve(raw);
    const nested =
      depth < 2 && field.properties
        ? `<details><summary>fields</summary>${fieldsTable(field, resolve, depth + 1)}</details>`
        : depth < 2 && field.items && resolve(field.items).properties
          ? `<details><summary>item fields</summary>${fieldsTable(field.items, resolve, depth + 1)}</details>`
          : "";
    const required = (object.required ?? []).includes(name) ? "required" : "optional";
    return `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(typeOf(raw))}</td><td>${required}</td><td>${constraintsOf(field)}${nested}</td></tr>`;
  });
  if (rows.length === 0) return "";
  return `<div class="table" tabindex="0"><table><thead><tr><th>Field</th><th>Type</th><th></th><th>Notes</th></tr></thead><tbody>${rows.join("")}</tbody></table></div>`;
}

/** A readable reference made from the OpenAPI document: no script, one inline stylesheet (the CSP allows it). */
export function renderDocsPage(document: OpenApiDocument): string {
  const schemas = document.components.schemas as Record<string, Schema>;
  const resolve = (schema: Schema): Schema =>
    schema.$ref ? (schemas[schema.$ref.split("/").pop()!] ?? schema) : schema;
  const server = document.servers[0]!.url;
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, raw]) => {
      const op = raw as {
        operationId: string;
        summary?: string;
        description?: string;
        "x-required-scope"?: string;
        parameters: { name: string; in: string; required: boolean; description?: string; schema: Schema }[];
        requestBody?: { content: { "application/json": { schema: Schema } } };
        responses: Record<
          string,
          { description: string; content: { "application/json": { schema: Schema; example?: unknown } } }
        >;
      };
      const params = op.parameters.length
        ? `<h4>Parameters</h4><div class="table" tabindex="0"><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th></th><th>Notes</th></tr></thead><tbody>${op.parameters
            .map(
              (p) =>
                `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${escapeHtml(typeOf(p.schema))}</td><td>${p.required ? "required" : "optional"}</td><td>${constraintsOf({ ...p.schema, description: p.description })}</td></tr>`,
            )
            .join("")}</tbody></table></div>`
        : "";
      const body = op.requestBody
        ? `<h4>Request body <span class="muted">(JSON, ${escapeHtml(typeOf(op.requestBody.content["application/json"].schema))})</span></h4>${fieldsTable(op.requestBody.content["application/json"].schema, resolve)}`
        : "";
      const responses = Object.entries(op.responses)
        .map(([status, r]) => {
          const { schema, example } = r.content["application/json"];
          const ok = Number(status) < 300;
          const exampleBlock =
            example === undefined
              ? ""
              : ok
                ? `<details open><summary>Example</summary>${codeBlock(JSON.stringify(example, null, 2))}</details>`
                : codeBlock(JSON.stringify(example));
          return `<li><span class="status ${ok ? "ok" : "err"}">${escapeHtml(status)}</span> ${escapeHtml(r.description)} <span class="muted">${escapeHtml(typeOf(schema))}</span>${exampleBlock}${
            ok ? `<details><summary>Response fields</summary>${fieldsTable(schema, resolve)}</details>` : ""
          }</li>`;
        })
        .join("");
      return `<section id="${escapeHtml(op.operationId)}">
  <h3><span class="method ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code></h3>
  <p><strong>${escapeHtml(op.summary ?? "")}</strong>${op["x-required-scope"] ? ` · needs <code>${escapeHtml(op["x-required-scope"])}</code>` : ""}</p>
  ${op.description ? `<p>${prose(op.description)}</p>` : ""}
  ${params}${body}
  <h4>Responses</h4><ul class="responses">${responses}</ul>
</section>`;
    }),
  );
  const toc = Object.entries(document.paths)
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(
        ([method, op]) =>
          `<li><a href="#${escapeHtml((op as { operationId: string }).operationId)}"><span class="method ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code></a></li>`,
      ),
    )
    .join("");
  const keyPrefix = String(document.components.securitySchemes.apiKey.bearerFormat).replace(/<.*$/, "");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(document.info.title)} reference</title>
<style>
:root{color-scheme:light dark;--bg:#fff;--fg:#111827;--muted:#4b5563;--line:#e5e7eb;--code:#f3f4f6;--accent:#1d4ed8;--ok:#166534;--err:#b91c1c}
@media (prefers-color-scheme:dark){:root{--bg:#0b1120;--fg:#e5e7eb;--muted:#9ca3af;--line:#1f2937;--code:#111827;--accent:#93c5fd;--ok:#86efac;--err:#fca5a5}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:960px;margin:0 auto;padding:24px 16px 64px}a{color:var(--accent)}main,section,li,details{min-width:0}
header{border-bottom:1px solid var(--line)}header nav{max-width:960px;margin:0 auto;padding:10px 16px;display:flex;flex-wrap:wrap;gap:4px 20px}header a{display:inline-block;padding:10px 0;font-weight:600;text-decoration:none}header a:first-child{margin-right:auto}header a:hover{text-decoration:underline}
:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
code{font:0.9em ui-monospace,SFMono-Regular,Menlo,monospace;background:var(--code);padding:1px 4px;border-radius:4px;overflow-wrap:anywhere}
pre{background:var(--code);padding:12px;border-radius:8px;overflow-x:auto;max-width:100%;font-size:0.85rem;line-height:1.45}pre code{padding:0;background:none}
h1{font-size:1.75rem;margin:0 0 8px}h2{margin-top:40px;border-bottom:1px solid var(--line);padding-bottom:6px}
section{border:1px solid var(--line);border-radius:10px;padding:4px 16px 12px;margin:20px 0}
.muted{color:var(--muted);font-weight:normal}.table{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:0.9rem;font-variant-numeric:tabular-nums}th,td{text-align:left;vertical-align:top;padding:6px 8px;border-bottom:1px solid var(--line)}
.method{display:inline-block;min-width:3.5em;text-align:center;font:700 0.8rem ui-monospace,monospace;padding:2px 6px;border-radius:4px;border:1px solid currentColor}
.method.post{color:var(--ok)}.method.get{color:var(--accent)}
.status{font:700 0.85rem ui-monospace,monospace}.status.ok{color:var(--ok)}.status.err{color:var(--err)}
ul.responses{padding-left:18px}details{margin:6px 0}summary{cursor:pointer;color:var(--accent)}
</style>
</head>
<body>
<header><nav aria-label="CPXTB Pay"><a href="/">← CPXTB Pay</a><a href="/developers">API keys</a><a href="/webhooks">Webhooks</a></nav></header>
<main>
<h1>${escapeHtml(document.info.title)}</h1>
<p>${prose(document.info.description)}</p>
<p>Base URL <code>${escapeHtml(server)}</code> · OpenAPI 3.1: <a href="/api/openapi.json">/api/openapi.json</a> · Keys: <a href="/developers">Developers</a> in the dashboard.</p>
<h2>Essentials</h2>
<ul>
<li><strong>Authentication</strong>: <code>Authorization: Bearer ${escapeHtml(keyPrefix)}...</code> on every request. A missing, malformed, unknown or revoked key answers 401; a key without the operation's permission 403. Keep keys on your server, never in a web page or an app.</li>
<li><strong>Permissions</strong>: <code>payments:read</code> (read and list), <code>payments:write</code> (create, change and cancel).</li>
<li><strong>Idempotency</strong>: send <code>Idempotency-Key: &lt;your unique id&gt;</code> when creating a payment. A retry with the same key and body returns the same payment (with <code>Idempotent-Replayed: true</code>); the same key with another body answers 409. Keys are remembered for 24 hours.</li>
<li><strong>Rate limit</strong>: per key; over it, 429 with <code>Retry-After</code> (seconds).</li>
<li><strong>Amounts</strong> are decimal strings; fields ending in <code>Base</code> are in token base units.</li>
</ul>
<pre tabindex="0"><code>curl -X POST ${escapeHtml(server)}/api/v1/payments \\
  -H "Authorization: Bearer $CPXTB_API_KEY" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: order-1001" \\
  -d '{"currency":"USD","amount":"12.50","orderId":"1001"}'</code></pre>
<h2>Operations</h2>
<ul>${toc}<li><a href="#webhooks">Webhooks</a>: events, payloads, signatures</li></ul>
${operations.join("\n")}
${renderWebhooksSection(server)}
</main>
</body>
</html>
`;
}
