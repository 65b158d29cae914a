// `npm run dev`: the API server restarted on change (tsx watch) + Vite with hot reload, proxying /api and /ws to it.
import { spawn } from "node:child_process";

const port = process.env.PORT ?? "5000";
const env = { ...process.env, NODE_ENV: "development", PORT: port, CLIENT_DIST: "./dist/dev-none" };

const children = [
  spawn("npx", ["tsx", "watch", "--clear-screen=false", "server/src/main.ts"], { stdio: "inherit", env }),
  spawn("npx", ["vite", "--host", process.env.HOST ?? "127.0.0.1"], { stdio: "inherit", env }),
];
console.log(`\nDevelopment: open http://localhost:5173 (Vite, hot reload); the API runs on port ${port}.\n`);

let stopping = false;
const stop = (code = 0) => {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 500).unref();
};
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
for (const child of children) child.on("exit", (code) => stop(code ?? 0));
