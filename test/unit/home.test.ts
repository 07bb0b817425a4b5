/** The home folder without node:os at start (src/core/home.ts): HOME, else USERPROFILE, else the OS's answer. */
import { describe, expect, test } from "bun:test";
import { homedir } from "node:os";
import { homeDir } from "../../src/core/home.ts";

describe("homeDir", () => {
  test("HOME wins, trimmed", () => {
    expect(homeDir({ HOME: " /home/dev ", USERPROFILE: "C:\\Users\\dev" })).toBe("/home/dev");
  });
  test("USERPROFILE when HOME is unset or blank", () => {
    expect(homeDir({ USERPROFILE: "C:\\Users\\dev" })).toBe("C:\\Users\\dev");
    expect(homeDir({ HOME: "  ", USERPROFILE: "C:\\Users\\dev" })).toBe("C:\\Users\\dev");
  });
  test("the OS's answer when neither is set", () => {
    expect(homeDir({})).toBe(homedir());
  });
});
