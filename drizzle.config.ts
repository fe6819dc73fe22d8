import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  // Each capability keeps its own tables.
  schema: [
    "./app/auth/auth.schema.ts",
    "./app/learning/learning.schema.ts",
    "./app/learning/sounds.schema.ts",
    "./app/player/speech.schema.ts",
    "./app/transfer/transfer.schema.ts",
    "./app/billing/billing.schema.ts",
    "./app/reading/reading.schema.ts",
    "./app/server/shared-data.schema.ts",
    "./app/progress/progress.schema.ts",
    "./app/dictionary/dictionary.schema.ts",
  ],
  out: "./drizzle",
});
