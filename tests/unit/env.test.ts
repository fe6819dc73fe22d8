import { describe, expect, it } from "vitest";
import { parseEnv } from "../../app/config/env.server";

describe("the configuration", () => {
  it("knows the build by its placeholder origin: nothing to say while prerendering", () => {
    const env = parseEnv({ APP_URL: "http://prerender.invalid" });
    expect(env.building).toBe(true);
    expect(env.startupNotes).toEqual([]);
  });

  it("is a server start otherwise", () => {
    const env = parseEnv({ APP_URL: "http://localhost:3000", NODE_ENV: "test" });
    expect(env.building).toBe(false);
  });
});
