import { isLoopbackUrl } from "@common/webhooks.ts";
import { describe, expect, it } from "vitest";
import { PRIVATE_TARGET, resolveTarget } from "../src/modules/webhooks/ssrf.ts";

describe("webhook targets on a development install", () => {
  it("accepts this machine over http, labelled by its URL", async () => {
    expect((await resolveTarget("http://127.0.0.1:4000/hook", "loopback")).address).toBe("127.0.0.1");
    expect(["127.0.0.1", "::1"]).toContain(
      (await resolveTarget("http://localhost:4000/", "loopback")).address,
    );
    expect((await resolveTarget("http://[::1]:4000/", "loopback")).address).toBe("::1");
    expect(isLoopbackUrl("http://localhost:4000/")).toBe(true);
    expect(isLoopbackUrl("http://127.0.0.1:4000/")).toBe(true);
    expect(isLoopbackUrl("https://shop.example/hook")).toBe(false);
  });

  it("keeps every other private or reserved address refused, and https for the rest", async () => {
    for (const url of [
      "https://10.0.0.1/",
      "https://169.254.169.254/latest",
      "https://192.168.1.2/",
      "https://[fd00::1]/",
    ])
      await expect(resolveTarget(url, "loopback")).rejects.toThrow(PRIVATE_TARGET);
    await expect(resolveTarget("http://10.0.0.1/", "loopback")).rejects.toThrow(/https:\/\//);
    await expect(resolveTarget("http://93.184.215.14/", "loopback")).rejects.toThrow(/https:\/\//);
  });

  it("production (public only) refuses this machine as before", async () => {
    await expect(resolveTarget("http://127.0.0.1:4000/", false)).rejects.toThrow(/https:\/\//);
    await expect(resolveTarget("https://127.0.0.1:4000/", false)).rejects.toThrow(PRIVATE_TARGET);
    await expect(resolveTarget("https://localhost/", false)).rejects.toThrow(PRIVATE_TARGET);
  });
});
