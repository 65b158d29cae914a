import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

// `waitFor` and `findBy*` wait for what a person would see; on a busy machine that can take longer than the
// library's 1 s default. A passing test does not wait longer for it.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  document.documentElement.className = "";
});
