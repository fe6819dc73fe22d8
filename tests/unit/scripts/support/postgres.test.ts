import { afterEach, describe, expect, it } from "vitest";
import { findPostgresBin } from "#scripts/support/postgres.ts";

describe("the PostgreSQL the tests start", () => {
  const given = process.env.PG_BIN;
  afterEach(() => {
    if (given === undefined) delete process.env.PG_BIN;
    else process.env.PG_BIN = given;
  });

  it("comes from PG_BIN when it is set, as in scripts/test-prerequisites.sh", () => {
    delete process.env.PG_BIN;
    const found = findPostgresBin();
    process.env.PG_BIN = found;
    expect(findPostgresBin()).toBe(found);
  });

  it("refuses a PG_BIN without the server tools, naming it", () => {
    process.env.PG_BIN = "/nonexistent/postgresql/bin";
    expect(() => findPostgresBin()).toThrow("PG_BIN=/nonexistent/postgresql/bin has no initdb, pg_ctl, postgres");
  });
});
