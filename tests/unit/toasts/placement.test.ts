import { describe, expect, it } from "vitest";
import { clearPlacement, EDGE, type Box } from "#app/toasts/placement.ts";

const view = { width: 1280, height: 800, top: 64 };
const size = { width: 300, height: 90 };
const box = (left: number, top: number, width: number, height: number): Box => ({
  left,
  top,
  right: left + width,
  bottom: top + height,
});

describe("where the messages go", () => {
  it("stay in the bottom-right corner when nothing is under them", () => {
    expect(clearPlacement(size, view, [box(100, 700, 200, 50)])).toEqual({ right: EDGE, bottom: EDGE });
  });

  it("move left of a column of actions at the right edge", () => {
    const column = Array.from({ length: 10 }, (_, row) => box(1122, 80 + row * 65, 58, 44));
    const place = clearPlacement(size, view, column);
    expect(place.bottom).toBe(EDGE);
    expect(view.width - place.right).toBeLessThanOrEqual(1122);
  });

  it("move up above a wide button at the bottom", () => {
    const button = box(393, 700, 800, 57);
    const place = clearPlacement(size, view, [button]);
    expect(view.height - place.bottom).toBeLessThanOrEqual(700);
    expect(place.right).toBe(EDGE);
  });

  it("keep to the corner when no clear place is near it", () => {
    const everywhere = Array.from({ length: 40 }, (_, i) => box((i % 8) * 160, 64 + Math.floor(i / 8) * 150, 150, 140));
    expect(clearPlacement(size, view, everywhere)).toEqual({ right: EDGE, bottom: EDGE });
  });
});
