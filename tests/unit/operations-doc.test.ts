import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_VARIABLES } from "../../app/config/env.server";

/** Variables only compose.yaml reads (its PostgreSQL service and the proxy's port), not the server. */
const COMPOSE_ONLY = ["POSTGRES_PASSWORD", "PROXY_PORT"];
const page = readFileSync(path.resolve(import.meta.dirname, "../../docs/operations.md"), "utf8");
/** The first cell of each row of the configuration table. */
const rows = [...page.matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\|/gm)].map((match) => match[1]!);

describe("docs/operations.md", () => {
  it("has one row in its configuration table for every variable the server or compose.yaml reads", () => {
    expect(new Set(rows).size, "a variable listed twice").toBe(rows.length);
    expect(
      ENV_VARIABLES.filter((name) => !rows.includes(name)),
      "missing from the table",
    ).toEqual([]);
    expect(
      rows.filter((name) => !ENV_VARIABLES.includes(name) && !COMPOSE_ONLY.includes(name)),
      "not read by anything",
    ).toEqual([]);
  });

  it("is linked from the README", () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");
    expect(readme).toContain("(docs/operations.md)");
  });
});
