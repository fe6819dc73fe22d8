import { defineDataSuite } from "./data-suite";

defineDataSuite("PGlite", async () => ({}));
