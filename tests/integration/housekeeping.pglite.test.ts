import { defineHousekeepingSuite } from "./housekeeping-suite";

defineHousekeepingSuite("PGlite", async () => ({}), undefined, { embedded: true });
