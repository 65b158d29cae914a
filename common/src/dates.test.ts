import { describe, expect, it } from "vitest";
import { calendarDate, instant } from "./dates";

// Issue 33, item 11: every date the API takes is bounded to years 2000..2999 and a real day and time.
describe("calendarDate", () => {
  it.each(["2000-01-01", "2024-02-29", "2026-12-31", "2999-12-31"])("takes %s", (value) => {
    expect(calendarDate.safeParse(value).success).toBe(true);
  });
  it.each([
    "0000-01-01",
    "0001-01-01",
    "1969-12-31",
    "1999-12-31",
    "3000-01-01",
    "9999-12-31",
    "10000-01-01",
    "+275760-09-13",
    "-0001-01-01",
    "2023-02-29",
    "2024-02-30",
    "2024-04-31",
    "2024-13-01",
    "2024-00-10",
    "2024-1-1",
    "2024-01-01T00:00:00Z",
    "",
  ])("refuses %s", (value) => {
    expect(calendarDate.safeParse(value).success).toBe(false);
  });
  it("says the range", () => {
    expect(calendarDate.safeParse("1999-12-31").error?.issues[0]?.message).toBe(
      "must be a date from 2000-01-01 to 2999-12-31",
    );
  });
});

describe("instant", () => {
  it.each([
    "2000-01-01T00:00:00Z",
    "2000-01-01T00:00:00-01:00",
    "2024-02-29T12:00:00.123Z",
    "2026-06-01T09:30:00+02:00",
    "2999-12-31T23:59:59.999Z",
    "3000-01-01T01:00:00+14:00",
  ])("takes %s", (value) => {
    expect(instant.safeParse(value).success).toBe(true);
  });
  it.each([
    "0000-01-01T00:00:00Z",
    "1969-12-31T23:59:59Z",
    "1999-12-31T23:59:59.999Z",
    "2000-01-01T00:00:00+14:00",
    "2999-12-31T23:59:59-12:00",
    "3000-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
    "+275760-09-13T00:00:00Z",
    "-271821-04-20T00:00:00Z",
    "2023-02-29T00:00:00Z",
    "2024-02-30T00:00:00Z",
    "2024-01-01T24:00:00Z",
    "2024-06-30T23:59:60Z",
    "2024-01-01T00:00:00+25:00",
    "2024-01-01T00:00:00",
    "2024-01-01",
    "1e400",
    "",
  ])("refuses %s", (value) => {
    expect(instant.safeParse(value).success).toBe(false);
  });
});
