/** The project's root folder, for tests that read its files whatever folder they live in. */
import path from "node:path";

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");
