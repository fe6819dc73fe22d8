/** A box in the window's coordinates (a DOMRect's edges). */
export type Box = { left: number; top: number; right: number; bottom: number };
/** The stack's distance from the window's right and bottom edges, in CSS pixels. */
export type Placement = { right: number; bottom: number };

/** The corner's margin (var(--space-4)) and the room kept between the stack and an action beside it. */
export const EDGE = 16;
const GAP = 8;

const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Where the messages cover no action: the bottom-right corner when it is clear, otherwise the nearest place to it
 * (least distance moved left plus up) whose box lies just left of or just above an action, within the right and
 * bottom halves of the window and below the header (`top`). Nothing clear there: the corner, as before.
 */
export function clearPlacement(
  size: { width: number; height: number },
  view: { width: number; height: number; top: number },
  actions: readonly Box[],
): Placement {
  const boxAt = ({ right, bottom }: Placement): Box => ({
    left: view.width - right - size.width,
    right: view.width - right,
    top: view.height - bottom - size.height,
    bottom: view.height - bottom,
  });
  // Only actions the stack could reach from the corner's quarter matter.
  const near = actions.filter(
    (box) => box.right > view.width / 2 - size.width && box.bottom > view.height / 2 - size.height,
  );
  const steps = (edges: number[]) =>
    [...new Set([EDGE, ...edges.map((edge) => Math.ceil(edge + GAP))])].filter((step) => step >= EDGE);
  const rights = steps(near.map((box) => view.width - box.left)).filter((right) => right <= view.width / 2);
  const bottoms = steps(near.map((box) => view.height - box.top)).filter((bottom) => bottom <= view.height / 2);
  const candidates = rights
    .flatMap((right) => bottoms.map((bottom) => ({ right, bottom })))
    .filter((place) => {
      const box = boxAt(place);
      return box.left >= EDGE && box.top >= view.top + EDGE;
    })
    .sort((a, b) => a.right + a.bottom - (b.right + b.bottom));
  return candidates.find((place) => !near.some((box) => overlaps(box, boxAt(place)))) ?? { right: EDGE, bottom: EDGE };
}
