/**
 * The documentation says what the code does: the README stays a five-minute read whose map of `app/` and list of root
 * middleware match the code, every relative link resolves, the decisions index lists every record as its file names
 * it, the benchmark page states the budgets the bench enforces, and the JSON example of the import formats imports.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exportEnvelope, exportedTerm } from "../../app/transfer/export-document";
import { ACCOUNT_BUDGET } from "../../scripts/bench/account-pages.ts";
import { BROWSER_BUDGET } from "../../scripts/bench/browser.ts";
import { LIGHTHOUSE_BUDGET } from "../../scripts/bench/lighthouse.ts";
import { OVERLOAD_BUDGET } from "../../scripts/bench/overload.ts";
import { PUBLIC_BUDGET } from "../../scripts/bench/public-pages.ts";
import { READER_P95_MS } from "../../scripts/bench/reader.ts";
import { REVIEW_LOOP_BUDGET } from "../../scripts/bench/review-loop.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const readme = read("README.md");

/** Every Markdown file of the documentation: the README and docs/**. */
function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(path.join(ROOT, dir)).flatMap((name) => {
      const file = path.join(dir, name);
      if (statSync(path.join(ROOT, file)).isDirectory()) return walk(file);
      return file.endsWith(".md") ? [file] : [];
    });
  return ["README.md", ...walk("docs")];
}

/** Folders of app/ below the capabilities (ADR 009), and those that hold no capability. */
const NOT_CAPABILITIES = new Set(["config", "db", "server", "util", "routes", "styles"]);

describe("README.md", () => {
  it("is a five-minute read: about 100 lines, none over 120 characters", () => {
    const lines = readme.split("\n");
    expect(lines.length).toBeLessThanOrEqual(120);
    expect(lines.filter((line) => [...line].length > 120)).toEqual([]);
  });

  it("gives the two set-up commands, and package.json and CI run what they say", () => {
    expect(readme).toContain("npm ci && npm run build && npm start");
    expect(readme).toContain("npm ci && npm test");
    const scripts = JSON.parse(read("package.json")).scripts as Record<string, string>;
    expect(scripts.start).toContain("server.ts");
    expect(scripts.test).toContain("npm run test:unit");
    expect(scripts.test).toContain("npm run test:e2e");
    expect(read(".ci/run")).toMatch(/^npm test$/m);
  });

  it("names every capability folder of app/ in its table", () => {
    const folders = readdirSync(path.join(ROOT, "app"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !NOT_CAPABILITIES.has(entry.name))
      .map((entry) => entry.name);
    const listed = [...readme.matchAll(/^\| `([a-z0-9]+)` +\|/gm)].map((match) => match[1]);
    expect(listed.sort()).toEqual(folders.sort());
  });

  it("lists the root middleware of app/root.tsx, all of them and in their order", () => {
    const root = read("app/root.tsx");
    const array = /export const middleware = \[([\s\S]*?)\];/.exec(root)?.[1] ?? "";
    const inCode = array
      .split(",")
      .map((entry) => entry.trim().replace(/\(\)$/, ""))
      .filter(Boolean);
    const inReadme = [...readme.matchAll(/^\d+\. `(\w+)`/gm)].map((match) => match[1]);
    expect(inCode.length).toBeGreaterThan(0);
    expect(inReadme).toEqual(inCode);
    expect(readme).toContain(`runs ${inCode.length} middleware`);
  });
});

describe("links in the documentation", () => {
  it("every relative link points to a file that exists", () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      for (const [, target] of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!) || target!.startsWith("#")) continue;
        const resolved = path.resolve(ROOT, path.dirname(file), target!.split("#")[0]!);
        if (!existsSync(resolved)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("docs/decisions/README.md", () => {
  const index = read("docs/decisions/README.md");
  const records = readdirSync(path.join(ROOT, "docs/decisions")).filter((name) => /^\d{3}-.+\.md$/.test(name));

  it("lists every record with the title and date its file gives", () => {
    const wrong: string[] = [];
    for (const name of records) {
      const [heading = "", , dateLine = ""] = read(`docs/decisions/${name}`).split("\n");
      const number = name.slice(0, 3);
      const title = heading.replace(`# ${number} `, "");
      const date = /Date: (\d{4}-\d{2}-\d{2})/.exec(dateLine)?.[1];
      const row = index.split("\n").find((line) => line.startsWith(`| [${number}](${name})`));
      if (!row) wrong.push(`${name}: no row`);
      else if (!row.includes(`| ${title} `) || !date || !row.includes(`| ${date} `)) wrong.push(`${name}: ${row}`);
    }
    expect(wrong).toEqual([]);
  });

  it("gives a superseded record's successor, as the record's status line does", () => {
    for (const name of records) {
      const status = read(`docs/decisions/${name}`).split("\n")[2] ?? "";
      const successor = /(?:superseded|replaced) by \[?(\d{3})/.exec(status)?.[1];
      if (!successor) continue;
      const row = index.split("\n").find((line) => line.startsWith(`| [${name.slice(0, 3)}]`));
      expect(row, name).toMatch(new RegExp(`(superseded|replaced) by ${successor}`));
    }
  });

  it("points to the template for a new record", () => {
    expect(index).toContain("(TEMPLATE.md)");
    expect(existsSync(path.join(ROOT, "docs/decisions/TEMPLATE.md"))).toBe(true);
  });
});

describe("docs/benchmark.md", () => {
  it("states the budgets the bench enforces", () => {
    const page = read("docs/benchmark.md");
    const percent = (share: number) => `${Math.round(share * 1000) / 10} %`;
    const seconds = (ms: number) => `${ms / 1000} s`;
    const expected = [
      `≥ ${percent(PUBLIC_BUDGET.shareOfBare)}, p99 ≤ ${PUBLIC_BUDGET.p99Ms} ms`,
      `≥ ${percent(ACCOUNT_BUDGET.shareOfBare)}, p99 ≤ ${ACCOUNT_BUDGET.p99Ms} ms`,
      `≥ ${REVIEW_LOOP_BUDGET.reviewsPerSecond} reviews/s, p99 ≤ ${REVIEW_LOOP_BUDGET.p99Ms} ms per review`,
      `p95 < ${READER_P95_MS} ms`,
      `p99 ≤ ${seconds(OVERLOAD_BUDGET.p99Ms)}, none ≥ ${seconds(OVERLOAD_BUDGET.maxMs)}`,
      `RSS ≤ +${percent(OVERLOAD_BUDGET.rssGrowth)}`,
      `≤ ${BROWSER_BUDGET.firstLoadJsBytes.toLocaleString("en")} B`,
      `≤ ${seconds(BROWSER_BUDGET.fcpMs)}`,
      `≤ ${seconds(BROWSER_BUDGET.hydratedMs)}`,
      `performance ≥ ${LIGHTHOUSE_BUDGET.score}, accessibility ${LIGHTHOUSE_BUDGET.accessibility}`,
    ];
    expect(expected.filter((budget) => !page.includes(budget))).toEqual([]);
  });
});

describe("docs/import-formats.md", () => {
  it("shows a JSON export that the import reads without a skipped term", () => {
    const page = read("docs/import-formats.md");
    const example = /```json\n([\s\S]*?)```/.exec(page)?.[1];
    const envelope = exportEnvelope.parse(JSON.parse(example ?? "null"));
    expect(envelope.terms.length).toBeGreaterThan(0);
    for (const term of envelope.terms) expect(exportedTerm.safeParse(term).error).toBeUndefined();
  });
});
