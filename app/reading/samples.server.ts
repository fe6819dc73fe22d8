import { isLevel, LEVELS, type Level } from "../learning/vocabulary";

/** A graded text shipped with the app, read by signed-out visitors as a demo of the reader. */
export type SampleText = { slug: string; language: string; level: Level; title: string; body: string };

const files = import.meta.glob<{ default: SampleText }>("./samples/*.json", { eager: true });

const samples: SampleText[] = Object.values(files)
  .map((module) => module.default)
  .sort(
    (a, b) =>
      a.language.localeCompare(b.language) ||
      LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) ||
      a.slug.localeCompare(b.slug),
  );
for (const sample of samples)
  if (!isLevel(sample.level)) throw new Error(`sample text ${sample.slug}: unknown level ${sample.level}`);

export const sampleTexts = (): readonly SampleText[] => samples;
export const findSample = (slug: string | undefined): SampleText | null =>
  samples.find((sample) => sample.slug === slug) ?? null;
