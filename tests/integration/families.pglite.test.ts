import { defineFamiliesSuite } from "./families-suite";

defineFamiliesSuite("PGlite", async () => ({}));
