// ICU's first use in a page (the engine's list of its locales, then the number, plural and date data) is one call of
// some 60-100 ms on a phone-speed CPU, which no page can split into shorter tasks. The engine keeps that data for the
// whole process, so this worker pays it on another thread and the page's own first `Intl` call finds it ready (issue
// 39). index.html starts it with the page's language, after the first paint on a server-rendered page.
self.addEventListener("message", (event) => {
  const lang = typeof event.data === "string" && event.data !== "" ? event.data : "en";
  try {
    new Intl.Locale(lang).maximize();
    new Intl.NumberFormat(lang).format(1234.5);
    new Intl.PluralRules(lang).select(1);
    new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(0);
  } catch {
    // A language tag the engine refuses: the page's own formatters fall back, and pay their first use themselves.
  }
  self.close();
});
