/**
 * The palette in app/styles/tokens.css, read as the browser reads it (light-dark() pairs): contrast by WCAG 2's
 * relative luminance, and the stage colours told apart by normal vision and by the three kinds of dichromacy,
 * simulated with Machado, Oliveira and Fernandes (2009) at severity 1 and compared by CIEDE2000.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "#tests/support/paths.ts";

const css = readFileSync(path.resolve(PROJECT_ROOT, "app/styles/tokens.css"), "utf8");
const THEMES = ["light", "dark"] as const;
type Theme = (typeof THEMES)[number];

/** Every token written as light-dark(#rrggbb, #rrggbb). */
const tokens = new Map<string, Record<Theme, string>>();
for (const [, name, light, dark] of css.matchAll(
  /--([\w-]+):\s*light-dark\(\s*(#[0-9a-fA-F]{6})\s*,\s*(#[0-9a-fA-F]{6})\s*\)/g,
)) {
  tokens.set(name!, { light: light!, dark: dark! });
}
function token(name: string, theme: Theme): string {
  const pair = tokens.get(name);
  if (!pair) throw new Error(`tokens.css has no light-dark() colour --${name}`);
  return pair[theme];
}

type Rgb = [number, number, number];
const channels = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as Rgb;
const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toLinear = (hex: string): Rgb => channels(hex).map(linear) as Rgb;

/** WCAG 2.x contrast ratio. */
/** How far apart two colours' hues are on the colour wheel, in degrees (0 to 180). */
function hueDistance(a: string, b: string): number {
  const hue = (hex: string) => {
    const [r, g, bl] = channels(hex);
    const max = Math.max(r, g, bl);
    const span = max - Math.min(r, g, bl);
    if (span === 0) return 0;
    const h = max === r ? ((g - bl) / span) % 6 : max === g ? (bl - r) / span + 2 : (r - g) / span + 4;
    return (h * 60 + 360) % 360;
  };
  const d = Math.abs(hue(a) - hue(b));
  return Math.min(d, 360 - d);
}

function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = toLinear(hex);
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** Machado et al. 2009, severity 1.0, applied to linear RGB. */
const VISION: Record<string, number[][]> = {
  normal: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};
const simulate = (hex: string, matrix: number[][]): Rgb => {
  const rgb = toLinear(hex);
  return matrix.map((row) => Math.min(1, Math.max(0, row[0]! * rgb[0] + row[1]! * rgb[1] + row[2]! * rgb[2]))) as Rgb;
};

/** CIE L*a*b* (D65) of a linear RGB colour. */
function lab([r, g, b]: Rgb): Rgb {
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** CIEDE2000 (Sharma, Wu and Dalal 2005). */
function ciede2000([l1, a1, b1]: Rgb, [l2, a2, b2]: Rgb): number {
  const rad = Math.PI / 180;
  const cBar = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const g = 0.5 * (1 - Math.sqrt(cBar ** 7 / (cBar ** 7 + 25 ** 7)));
  const [ap1, ap2] = [(1 + g) * a1, (1 + g) * a2];
  const [cp1, cp2] = [Math.hypot(ap1, b1), Math.hypot(ap2, b2)];
  const hue = (x: number, y: number) => (x === 0 && y === 0 ? 0 : (Math.atan2(y, x) / rad + 360) % 360);
  const [hp1, hp2] = [hue(ap1, b1), hue(ap2, b2)];
  let dh = 0;
  if (cp1 * cp2 !== 0) {
    dh = hp2 - hp1;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dL = l2 - l1;
  const dC = cp2 - cp1;
  const dH = 2 * Math.sqrt(cp1 * cp2) * Math.sin((dh / 2) * rad);
  const lBar = (l1 + l2) / 2;
  const cpBar = (cp1 + cp2) / 2;
  let hBar = hp1 + hp2;
  if (cp1 * cp2 !== 0) {
    hBar = Math.abs(hp1 - hp2) > 180 ? (hp1 + hp2 + (hp1 + hp2 < 360 ? 360 : -360)) / 2 : (hp1 + hp2) / 2;
  }
  const t =
    1 -
    0.17 * Math.cos((hBar - 30) * rad) +
    0.24 * Math.cos(2 * hBar * rad) +
    0.32 * Math.cos((3 * hBar + 6) * rad) -
    0.2 * Math.cos((4 * hBar - 63) * rad);
  const dTheta = 30 * Math.exp(-(((hBar - 275) / 25) ** 2));
  const rC = 2 * Math.sqrt(cpBar ** 7 / (cpBar ** 7 + 25 ** 7));
  const sL = 1 + (0.015 * (lBar - 50) ** 2) / Math.sqrt(20 + (lBar - 50) ** 2);
  const sC = 1 + 0.045 * cpBar;
  const sH = 1 + 0.015 * cpBar * t;
  const rT = -Math.sin(2 * dTheta * rad) * rC;
  return Math.sqrt((dL / sL) ** 2 + (dC / sC) ** 2 + (dH / sH) ** 2 + rT * (dC / sC) * (dH / sH));
}

const STAGES = ["new", "tolearn", "inprogress", "needsreview", "learned", "ignored"];
/** The stages a word's background tints (learned and ignored words sit on the page, told by their underline). */
const TINTED = ["new", "tolearn", "inprogress", "needsreview", "learned"];
/**
 * Smallest CIEDE2000 between two stage colours, in each vision: about 2 is just noticeable side by side, 10 is clearly
 * another colour. The tints are pale backgrounds under dark text; the stage colour (underline, chart bar, swatch)
 * carries the stage's colour, with a style and a label besides.
 */
const MIN_STAGE_DISTANCE = 11;
const MIN_TINT_DISTANCE = 5.5;

function closestPair(names: string[], prefix: string, theme: Theme, matrix: number[][]) {
  let closest = { distance: Infinity, pair: "" };
  for (const [i, a] of names.entries()) {
    for (const b of names.slice(i + 1)) {
      const distance = ciede2000(
        lab(simulate(token(`${prefix}${a}`, theme), matrix)),
        lab(simulate(token(`${prefix}${b}`, theme), matrix)),
      );
      if (distance < closest.distance) closest = { distance, pair: `${a}/${b}` };
    }
  }
  return closest;
}

describe("the colour arithmetic", () => {
  it("matches published values, so the checks below can fail", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
    // Sharma, Wu and Dalal's test data, pairs 1 and 17.
    expect(ciede2000([50, 2.6772, -79.7751], [50, 0, -82.7485])).toBeCloseTo(2.0425, 4);
    expect(ciede2000([50, 2.5, 0], [73, 25, -18])).toBeCloseTo(27.1492, 4);
    // Pure red and green, far apart to most eyes, nearly meet for a deuteranope.
    const red = lab(simulate("#d62728", VISION.deuteranopia!));
    const green = lab(simulate("#2ca02c", VISION.deuteranopia!));
    expect(ciede2000(lab(toLinear("#d62728")), lab(toLinear("#2ca02c")))).toBeGreaterThan(40);
    expect(ciede2000(red, green)).toBeLessThan(MIN_STAGE_DISTANCE);
  });
});

for (const theme of THEMES) {
  describe(`the ${theme} palette`, () => {
    for (const [vision, matrix] of Object.entries(VISION)) {
      it(`tells every two stage colours apart with ${vision}`, () => {
        const { distance, pair } = closestPair(STAGES, "stage-", theme, matrix);
        expect(distance, `--stage-${pair}`).toBeGreaterThanOrEqual(MIN_STAGE_DISTANCE);
      });
      it(`tells every two stage tints apart with ${vision}`, () => {
        const { distance, pair } = closestPair(TINTED, "tint-", theme, matrix);
        expect(distance, `--tint-${pair}`).toBeGreaterThanOrEqual(MIN_TINT_DISTANCE);
      });
    }

    it("keeps body text at 7:1 or more on the page and on washes", () => {
      for (const text of ["ink", "muted"]) {
        for (const ground of ["paper", "wash"]) {
          expect(contrast(token(text, theme), token(ground, theme)), `${text} on ${ground}`).toBeGreaterThanOrEqual(7);
        }
      }
    });

    it("keeps text on every stage tint at 4.5:1 or more, and the stage's colour at 3:1 on its tint and the page", () => {
      for (const stage of TINTED) {
        const tint = token(`tint-${stage}`, theme);
        expect(contrast(token("ink", theme), tint), `ink on --tint-${stage}`).toBeGreaterThanOrEqual(4.5);
        expect(contrast(token("muted", theme), tint), `muted on --tint-${stage}`).toBeGreaterThanOrEqual(4.5);
        expect(contrast(token(`stage-${stage}`, theme), tint), `--stage-${stage} on its tint`).toBeGreaterThanOrEqual(
          3,
        );
      }
      for (const stage of STAGES) {
        for (const ground of ["paper", "wash"]) {
          const ratio = contrast(token(`stage-${stage}`, theme), token(ground, theme));
          expect(ratio, `--stage-${stage} on ${ground}`).toBeGreaterThanOrEqual(3);
        }
      }
    });

    it("draws the focus ring apart from the indigo buttons, and not in the colours of an error", () => {
      // The ring lies on a band of --focus-gap around the control: the band sets it off from an indigo button.
      expect(contrast(token("focus", theme), token("focus-gap", theme)), "focus on its gap").toBeGreaterThanOrEqual(3);
      expect(contrast(token("focus-gap", theme), token("accent", theme)), "gap on accent").toBeGreaterThanOrEqual(3);
      for (const warning of ["danger", "brand-warm"])
        expect(
          hueDistance(token("focus", theme), token(warning, theme)),
          `focus hue from ${warning}`,
        ).toBeGreaterThanOrEqual(60);
    });

    it("keeps each grade button's label readable on its own colour, and the four colours apart", () => {
      const grades = ["again", "hard", "good", "easy"].map((grade) => token(`grade-${grade}`, theme));
      for (const [index, ground] of grades.entries()) {
        expect(contrast(token("grade-ink", theme), ground), `grade-ink on grade ${index}`).toBeGreaterThanOrEqual(4.5);
      }
      expect(new Set(grades).size).toBe(4);
    });

    it("keeps links, buttons and the focus ring readable", () => {
      expect(contrast(token("accent", theme), token("paper", theme))).toBeGreaterThanOrEqual(4.5);
      expect(contrast(token("accent-ink", theme), token("accent", theme))).toBeGreaterThanOrEqual(4.5);
      for (const ground of ["paper", "wash", ...TINTED.map((stage) => `tint-${stage}`)]) {
        expect(contrast(token("focus", theme), token(ground, theme)), `focus on ${ground}`).toBeGreaterThanOrEqual(3);
      }
    });
  });
}
