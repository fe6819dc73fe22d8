import { defineBillingSuite } from "./billing-suite";

defineBillingSuite("PGlite", async () => ({}));
