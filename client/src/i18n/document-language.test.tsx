import { render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { useDocumentLanguage } from "./i18n";

function Page() {
  useDocumentLanguage();
  return null;
}

/** The attributes written on `<html>` and in its head while `work` runs. */
async function writesDuring(work: () => void): Promise<string[]> {
  const writes: string[] = [];
  const observer = new MutationObserver((records) =>
    writes.push(...records.map((r) => r.attributeName ?? "")),
  );
  observer.observe(document.documentElement, { attributes: true, subtree: true });
  work();
  await Promise.resolve();
  observer.disconnect();
  return writes;
}

describe("useDocumentLanguage", () => {
  afterEach(() => {
    document.documentElement.lang = "en";
    document.documentElement.dir = "ltr";
  });

  it("writes nothing on <html> of a page already in its language (a rewrite restyles the whole page)", async () => {
    document.documentElement.lang = "en";
    document.documentElement.dir = "ltr";
    let unmount = () => {};
    expect(await writesDuring(() => ({ unmount } = render(<Page />)))).toEqual([]);
    expect(await writesDuring(() => unmount())).toEqual([]);
    expect(document.documentElement.getAttribute("lang")).toBe("en");
  });

  it("says the language where <html> says another, and English again when the page goes", async () => {
    document.documentElement.lang = "ar";
    document.documentElement.dir = "rtl";
    const { unmount } = render(<Page />);
    expect(document.documentElement.getAttribute("lang")).toBe("en");
    expect(document.documentElement.getAttribute("dir")).toBe("ltr");
    unmount();
    expect(document.documentElement.getAttribute("lang")).toBe("en");
  });
});
