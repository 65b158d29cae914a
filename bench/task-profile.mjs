// Reads a Chrome trace (the `--trace` run of bench/lighthouse.mjs) and says what each long task after the first
// contentful paint spent its time on: the functions with the most self time in the task, from the V8 CPU
// profile's samples (issue 39: "measure with the traces, not by guessing").

/** The renderer's main-thread tasks over `overMs` that start after its first contentful paint. */
export function longTasksInTrace(events, overMs = 50) {
  const fcp = events.find((e) => e.name === "firstContentfulPaint");
  if (!fcp) return [];
  return events
    .filter(
      (e) =>
        e.name === "RunTask" &&
        e.ph === "X" &&
        e.pid === fcp.pid &&
        e.tid === fcp.tid &&
        e.ts >= fcp.ts &&
        e.dur > overMs * 1000,
    )
    .map((e) => ({
      pid: e.pid,
      tid: e.tid,
      startMs: (e.ts - fcp.ts) / 1000,
      durationMs: e.dur / 1000,
      ts: e.ts,
      dur: e.dur,
    }));
}

/** Self time per function (name, file, line) within [ts, ts + dur) of process `pid`, most first. */
export function selfTimeIn(events, { pid, ts, dur }, top = 8) {
  const profiles = new Map();
  for (const e of events) {
    if (e.pid !== pid) continue;
    if (e.name === "Profile")
      profiles.set(e.id, { start: e.args.data.startTime, nodes: new Map(), samples: [] });
    if (e.name !== "ProfileChunk") continue;
    const profile = profiles.get(e.id);
    const chunk = e.args.data;
    if (!profile || !chunk.cpuProfile) continue;
    for (const node of chunk.cpuProfile.nodes ?? []) profile.nodes.set(node.id, node);
    const samples = chunk.cpuProfile.samples ?? [];
    const deltas = chunk.timeDeltas ?? [];
    let at = profile.samples.at(-1)?.at ?? profile.start;
    samples.forEach((node, i) => {
      at += deltas[i] ?? 0;
      profile.samples.push({ node, at });
    });
  }
  const totals = new Map();
  for (const { nodes, samples } of profiles.values()) {
    for (let i = 0; i < samples.length - 1; i++) {
      const { node, at } = samples[i];
      if (at < ts || at >= ts + dur) continue;
      const frame = nodes.get(node)?.callFrame;
      if (!frame) continue;
      const file = frame.url ? frame.url.replace(/^.*\//, "") : "";
      const key =
        `${frame.functionName || "(anonymous)"} ${file ? `${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}` : ""}`.trim();
      totals.set(key, (totals.get(key) ?? 0) + (samples[i + 1].at - at) / 1000);
    }
  }
  return [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
}

/**
 * The task's own trace events (layout, style, parsing, compiling, script evaluation...): the direct children of
 * the task on its thread, summed by name, most first. Profile samples say "(program)" for this native work.
 */
export function phasesIn(events, { pid, tid, ts, dur }, top = 5) {
  const inside = events
    .filter(
      (e) => e.ph === "X" && e.pid === pid && e.tid === tid && e.ts >= ts && e.ts + (e.dur ?? 0) <= ts + dur,
    )
    .filter((e) => !(e.ts === ts && e.dur === dur && e.name === "RunTask"))
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const totals = new Map();
  let end = -1;
  for (const e of inside) {
    if (e.ts < end) continue; // nested in the previous direct child
    end = e.ts + e.dur;
    const name =
      e.name === "EvaluateScript" || e.name === "v8.compile" ? `${e.name} ${scriptName(e)}` : e.name;
    totals.set(name, (totals.get(name) ?? 0) + e.dur / 1000);
  }
  return [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
}

const scriptName = (e) => (e.args?.data?.url ?? "").replace(/^.*\//, "");
