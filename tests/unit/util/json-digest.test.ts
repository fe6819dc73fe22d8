import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { jsonDigest } from "#app/util/json-digest.server.ts";

const wholeDigest = (items: unknown[]) => createHash("sha256").update(JSON.stringify(items)).digest("hex");

describe("jsonDigest", () => {
  it("equals the digest of the whole array's JSON, whatever the slice", async () => {
    const rows = Array.from({ length: 1_234 }, (_, i) => ({ text: `wort ${i}`, meanings: { en: "word", zh: "词" } }));
    const arrays: unknown[][] = [
      [],
      [1],
      rows,
      [
        ["de>en", rows.slice(0, 3)],
        ["de>fr", []],
      ],
      [undefined, null, "x"],
    ];
    for (const items of arrays)
      for (const perTurn of [1, 7, 500, 10_000]) expect(await jsonDigest(items, perTurn)).toBe(wholeDigest(items));
  });

  it("lets the event loop take a turn between two slices", async () => {
    const order: string[] = [];
    const timer = new Promise<void>((resolve) => setImmediate(() => (order.push("other work"), resolve())));
    await jsonDigest([1, 2, 3], 1).then(() => order.push("digest"));
    await timer;
    expect(order).toEqual(["other work", "digest"]);
  });
});
