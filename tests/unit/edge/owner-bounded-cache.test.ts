import { afterEach, describe, expect, it, vi } from "vitest";
import { OwnerBoundedCache } from "#app/edge/owner-bounded-cache.ts";

describe("a cache bounded per owner", () => {
  const page = (bytes = 10) => ({ bytes });

  it("keeps another owner's entry while one owner stores entries without end", () => {
    const cache = new OwnerBoundedCache<{ bytes: number }>({ entries: 2_000, bytes: 1e9, perOwner: 8 });
    cache.set("bob", "bob\n/account/home", page());
    for (let i = 0; i < 10_000; i++) cache.set("eve", `eve\n/account/home?junk=${i}`, page());
    expect(cache.get("bob\n/account/home")).toBeDefined();
    expect(cache.size).toBe(9);
    // The owner's newest stay.
    expect(cache.get("eve\n/account/home?junk=9999")).toBeDefined();
    expect(cache.get("eve\n/account/home?junk=9991")).toBeUndefined();
  });

  it("still bounds everything: entries and bytes overall, least recently used first", () => {
    const cache = new OwnerBoundedCache<{ bytes: number }>({ entries: 3, bytes: 25, perOwner: 8 });
    cache.set("a", "a1", page());
    cache.set("b", "b1", page());
    cache.touch("a1");
    cache.set("c", "c1", page());
    expect(cache.get("b1")).toBeUndefined();
    expect(cache.get("a1")).toBeDefined();
    cache.delete("a1");
    expect(cache.size).toBe(1);
    cache.set("d", "d1", page(5));
    cache.set("e", "e1", page(5));
    expect(cache.size).toBe(3);
  });

  afterEach(() => vi.useRealTimers());

  it("moves a busy entry at most once a second, and again after it", () => {
    vi.useFakeTimers({ now: new Date("2026-12-03T08:00:00Z") });
    const cache = new OwnerBoundedCache<{ bytes: number }>({ entries: 2, bytes: 1e9, perOwner: 8 });
    cache.set("a", "a1", page());
    cache.set("b", "b1", page());
    cache.touch("a1"); // moved: a1 is now the most recent
    cache.touch("b1"); // moved: b1 is
    cache.touch("a1"); // within the second: not moved again, b1 stays the most recent
    cache.set("c", "c1", page());
    expect(cache.get("a1")).toBeUndefined();
    expect(cache.get("b1")).toBeDefined();
    vi.advanceTimersByTime(1_000);
    cache.touch("b1"); // a second later: moved, c1 is the oldest now
    cache.set("d", "d1", page());
    expect(cache.get("c1")).toBeUndefined();
    expect(cache.get("b1")).toBeDefined();
  });
});

describe("an owner's share of the bytes", () => {
  it("keeps other owners' entries while one owner stores large entries: past its share its own oldest go", () => {
    const cache = new OwnerBoundedCache<{ bytes: number }>({
      entries: 100,
      bytes: 100,
      perOwner: 24,
      perOwnerBytes: 30,
    });
    for (const owner of ["a", "b", "c"]) cache.set(owner, `${owner}1`, { bytes: 10 });
    for (let i = 0; i < 20; i++) cache.set("eve", `eve${i}`, { bytes: 9 });
    for (const owner of ["a", "b", "c"]) expect(cache.get(`${owner}1`), owner).toBeDefined();
    // Eve's newest three stay (27 bytes of her 30).
    expect(cache.keysOf("eve")).toEqual(["eve17", "eve18", "eve19"]);
    cache.deleteOwner("eve");
    cache.set("eve", "eve-again", { bytes: 30 });
    expect(cache.get("eve-again")).toBeDefined();
  });
});
