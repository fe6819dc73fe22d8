import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_VARIABLES, parseEnv } from "../../app/config/env.server";

/** Variables only compose.yaml reads (its PostgreSQL service and the proxy's port), not the server. */
const COMPOSE_ONLY = ["POSTGRES_PASSWORD", "PROXY_PORT"];
const lines = readFileSync(path.resolve(import.meta.dirname, "../../.env.example"), "utf8").split("\n");
const ASSIGNMENT = /^(?:#\s?)?([A-Z][A-Z0-9_]*)=(.*)$/;
const listed = lines.flatMap((line, index) => {
  const match = ASSIGNMENT.exec(line);
  return match ? [{ name: match[1]!, value: match[2]!, index }] : [];
});

describe(".env.example", () => {
  it("lists exactly the variables the configuration schema reads", () => {
    const names = listed.map((entry) => entry.name);
    expect(new Set(names).size, "a variable listed twice").toBe(names.length);
    expect(
      names.filter((name) => !ENV_VARIABLES.includes(name) && !COMPOSE_ONLY.includes(name)),
      "not read",
    ).toEqual([]);
    expect(
      ENV_VARIABLES.filter((name) => !names.includes(name)),
      "missing from .env.example",
    ).toEqual([]);
  });

  it("gives each variable an example value and a comment above it (or above its group)", () => {
    for (const { name, value, index } of listed) {
      expect(value.trim(), `${name} has no example`).not.toBe("");
      let above = index - 1;
      while (above >= 0 && ASSIGNMENT.test(lines[above]!)) above--;
      expect(lines[above] ?? "", `${name} has no comment`).toMatch(/^#\s+\S/);
    }
  });

  it("holds example values the schema accepts", () => {
    const values = Object.fromEntries(
      listed.filter((e) => ENV_VARIABLES.includes(e.name)).map((e) => [e.name, e.value]),
    );
    // Outside production, so the example secrets and the missing DATA_TEMPLATE_DIR folder are not judged.
    const { DATA_TEMPLATE_DIR: _template, ...rest } = values;
    expect(() => parseEnv({ ...rest, APP_STAGE: "development" })).not.toThrow();
  });
});
