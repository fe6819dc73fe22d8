import { defineDailySuite } from "./daily-suite";

defineDailySuite("PGlite", async () => ({}));
