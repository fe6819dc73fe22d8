import { defineLearningSuite } from "./learning-suite";

defineLearningSuite("PGlite", async () => ({}));
